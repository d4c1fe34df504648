import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../../src/openstack/index.js';
import { neutronNetPlugin } from '../../../src/resources/openstack/neutron/net.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeResource } from '../helpers.js';

// OS::Neutron::Net against the sandbox cloud, through the OpenStack client, over HTTP.
describe('OS::Neutron::Net on the sandbox cloud', () => {
  let app: FastifyInstance;
  let cloud: Cloud;

  before(async () => {
    ({ app } = createSandbox());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    cloud = openCloud(loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }));
  });
  after(async () => {
    await cloud?.close();
    await app?.close();
  });

  const network = async (id: string) =>
    (await cloud.request<{ network: Record<string, unknown> }>('network', 'GET', `/networks/${id}`)).body
      .network;
  const resource = (key = 'key-net') => {
    const r = new FakeResource(neutronNetPlugin, { name: 'net', stackName: 'st', key });
    r.cloud = cloud;
    return r;
  };

  it('creates, finds its own network again on a retried create, updates, observes and deletes', async () => {
    const net = resource();
    await net.create({ name: 'private' });
    const id = net.physicalId!;
    assert.equal((await network(id)).name, 'private');
    assert.equal(await net.attribute('status'), 'ACTIVE');

    // The same create run again (after a crash) finds the network instead of making a second.
    const again = resource();
    await again.create({ name: 'private' });
    assert.equal(again.physicalId, id);
    const all = await cloud.request<{ networks: { name: string }[] }>(
      'network',
      'GET',
      '/networks',
      undefined,
      {
        query: { name: 'private' },
      },
    );
    assert.equal(all.body.networks.length, 1);

    const outcome = await net.update({ name: 'renamed', tags: ['web'] });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    assert.equal((await network(id)).name, 'renamed');
    assert.deepEqual((await network(id)).tags, ['web']);
    const live = await neutronNetPlugin.getReality(net.ctx());
    assert.equal(live.state, 'present');
    assert.equal(live.state === 'present' && live.properties.name, 'renamed');

    await net.delete();
    assert.deepEqual(await neutronNetPlugin.getReality(net.ctx()), { state: 'gone' });
    // A delete of what is already gone is done.
    await net.delete();
  });

  it('deletes, by its marker, a network whose create crashed before recording its id', async () => {
    const made = resource('key-orphan');
    await made.create({ name: 'orphan' });
    const id = made.physicalId!;
    // The same resource as the engine knows it after the crash: the key, no physical id.
    const orphan = resource('key-orphan');
    assert.equal(orphan.physicalId, null);
    await orphan.delete();
    await assert.rejects(network(id), /404|not found/i);
    // Nothing marked: nothing to do.
    await resource('key-never-made').delete();
  });

  it('names the network after the stack and resource when the template gives no name', async () => {
    const net = resource('key-unnamed');
    await net.create({});
    assert.match(String((await network(net.physicalId!)).name), /^st-net-[a-z2-7]{12}$/);
    await net.delete();
  });

  it('waits while the network is in use, then deletes it', async () => {
    const net = resource('key-busy');
    await net.create({ name: 'busy' });
    const port = await cloud.request<{ port: { id: string } }>('network', 'POST', '/ports', {
      port: { network_id: net.physicalId },
    });
    const started = await neutronNetPlugin.delete(net.ctx());
    assert.ok(started.progress, 'a network in use is not deleted yet');
    await cloud.request('network', 'DELETE', `/ports/${port.body.port.id}`);
    const done = await neutronNetPlugin.checkDeleteComplete!(net.ctx(), started.progress!);
    assert.equal(done.done, true);
    assert.deepEqual(await neutronNetPlugin.getReality(net.ctx()), { state: 'gone' });
  });
});
