import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { OPENSTACK_CLIENT_SKIP, openstackClient } from './support.js';

// The real openstack client (cinderclient underneath) against the sandbox's Cinder: evidence the
// wire format is the real one. A few invocations only: each costs about a second and a half.

describe('the real openstack client against the sandbox’s Cinder', { skip: OPENSTACK_CLIENT_SKIP }, () => {
  let app: FastifyInstance;
  let openstack: (...args: string[]) => Promise<string>;

  before(async () => {
    ({ app } = createSandbox({ noise: { bootDelayMs: 0 } }));
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    openstack = openstackClient(address);
  });
  after(() => app.close());

  const json = async <T>(...args: string[]) => JSON.parse(await openstack(...args, '-f', 'json')) as T;

  it('creates, lists, shows, renames and deletes a volume', async () => {
    const created = await json<{ id: string; name: string; size: number }>(
      'volume',
      'create',
      '--size',
      '1',
      'v1',
    );
    assert.equal(created.name, 'v1');
    assert.equal(created.size, 1);

    const listed = await json<{ ID: string; Name: string; Status: string; Size: number }[]>('volume', 'list');
    assert.deepEqual(
      listed.map((v) => [v.ID, v.Name, v.Status, v.Size]),
      [[created.id, 'v1', 'available', 1]],
    );

    await openstack('volume', 'set', '--name', 'v2', 'v1');
    const shown = await json<{ id: string; name: string; status: string; bootable: string }>(
      'volume',
      'show',
      'v2',
    );
    assert.equal(shown.id, created.id);
    assert.equal(shown.status, 'available');
    assert.equal(shown.bootable, 'false');

    await openstack('volume', 'delete', 'v2');
    const after = await json<unknown[]>('volume', 'list');
    assert.deepEqual(after, []);
  });
});
