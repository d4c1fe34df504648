import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { serverStack } from './server-stack.js';
import { Workdir } from './workdir.js';

const TEMPLATE = (role: string) =>
  serverStack('appnet', '10.1.0.0/24', {
    serverLines: `      metadata: {role: ${role}}
      user_data_format: RAW
      user_data: |
        #!/bin/sh
        echo hello
`,
    more: `outputs:
  ip: {value: {get_attr: [server, first_address]}}
  by_name: {value: {get_attr: [server, networks, appnet, 0]}}
`,
  });

type Server = { id: string; metadata: Record<string, string>; deletedAt: number | null; userData: string };

// A network, a subnet and a server on it, through the CLI's embedded engine and the sandbox cloud.
describe('OS::Nova::Server through the CLI, on the sandbox cloud', () => {
  const cloud = sandboxCloud();

  const servers = () => cloud.state.list<Server>('server').filter((s) => s.deletedAt === null);

  it('creates the server on the stack’s network, updates its metadata in place, deletes it', async () => {
    const w = new Workdir({ 'v1.yaml': TEMPLATE('web'), 'v2.yaml': TEMPLATE('db') });
    assert.equal(await w.finished(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']), 'CREATE_COMPLETE');
    const [server] = servers();
    assert.ok(server);
    assert.equal(server.metadata.role, 'web');
    assert.equal(Buffer.from(server.userData, 'base64').toString(), '#!/bin/sh\necho hello\n');
    const outputs = await w.outputs('s');
    assert.match(String(outputs.ip), /^10\.1\.0\.\d+$/);
    assert.equal(outputs.by_name, outputs.ip);

    assert.equal(await w.finished(['stack', 'update', 's', '-t', 'v2.yaml', '--wait']), 'UPDATE_COMPLETE');
    assert.deepEqual(
      servers().map((s) => [s.id, s.metadata.role]),
      [[server.id, 'db']],
      'the same server, its metadata updated in place',
    );

    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    assert.deepEqual(servers(), []);
    assert.deepEqual(
      cloud.state.list<{ id: string; name: string }>('network').map((n) => n.name),
      ['public'],
      'the network went too',
    );
  });
});
