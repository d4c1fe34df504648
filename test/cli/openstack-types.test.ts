import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

const TEMPLATE = (name: string) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: ${name}}}
outputs:
  status: {value: {get_attr: [net, status]}}
`;

// The CLI's embedded engine drives the sandbox cloud through the OS_* variables, as the openstack
// client would be pointed at it.
describe('OpenStack types through the CLI, on the sandbox cloud', () => {
  let app: FastifyInstance;
  let state: ReturnType<typeof createSandbox>['state'];
  const saved = { ...process.env };

  before(async () => {
    ({ app, state } = createSandbox());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    // The children inherit them (Workdir spawns with this process's environment).
    Object.assign(process.env, sandboxEnv(`http://127.0.0.1:${port}`));
  });
  after(async () => {
    process.env = saved;
    await app?.close();
  });

  const networks = () =>
    state.list<{ id: string; name: string }>('network').filter((n) => n.name !== 'public');

  it('creates, updates and deletes a network stack', async () => {
    const w = new Workdir({ 'v1.yaml': TEMPLATE('one'), 'v2.yaml': TEMPLATE('two') });
    await w.ok(['stack', 'create', 'n', '-t', 'v1.yaml', '--wait']);
    assert.deepEqual(
      networks().map((n) => n.name),
      ['one'],
    );
    assert.deepEqual(await w.outputs('n'), { status: 'ACTIVE' });
    const id = networks()[0]!.id;
    await w.ok(['stack', 'update', 'n', '-t', 'v2.yaml', '--wait']);
    assert.deepEqual(
      networks().map((n) => [n.id, n.name]),
      [[id, 'two']],
      'renamed in place',
    );
    await w.ok(['stack', 'delete', 'n', '--yes', '--wait']);
    assert.deepEqual(networks(), []);
  });
});
