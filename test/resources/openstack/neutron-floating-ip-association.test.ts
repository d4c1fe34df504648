import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { neutronFloatingIpAssociationPlugin as plugin } from '../../../src/resources/openstack/neutron/floating-ip-association.js';
import { type L3Cloud, startL3Cloud } from './l3-support.js';

// OS::Neutron::FloatingIPAssociation against the sandbox cloud, through the OpenStack client, over HTTP.
describe('OS::Neutron::FloatingIPAssociation on the sandbox cloud', () => {
  let c: L3Cloud;
  let network: string;
  before(async () => {
    c = await startL3Cloud();
    const router = (
      await c.neutron('POST', '/routers', {
        router: { name: 'edge', external_gateway_info: { network_id: c.publicId } },
      })
    ).router.id;
    const net = await c.privateNet('inner', '10.30.0.0/24');
    network = net.network;
    await c.neutron('PUT', `/routers/${router}/add_router_interface`, { subnet_id: net.subnet });
  });
  after(() => c?.close());

  const allocate = async () =>
    (await c.neutron('POST', '/floatingips', { floatingip: { floating_network_id: c.publicId } })).floatingip
      .id as string;
  const fip = async (id: string) => (await c.neutron('GET', `/floatingips/${id}`)).floatingip;
  const resource = (key: string) => c.resource(plugin, 'assoc', key);

  it('associates, does it again harmlessly, moves in place, observes and disassociates', async () => {
    const [first, second] = [await allocate(), await allocate()];
    const [p1, p2] = [await c.port(network), await c.port(network)];
    const r = resource('key-assoc');
    await r.create({ floatingip_id: first, port_id: p1.id });
    assert.equal(r.physicalId, `${first}:${p1.id}`);
    assert.equal((await fip(first)).port_id, p1.id);
    assert.equal(((await r.attribute('show')) as { id: string }).id, first);

    const again = resource('key-assoc');
    await again.create({ floatingip_id: first, port_id: p1.id });
    assert.equal(again.physicalId, r.physicalId);
    assert.equal((await fip(first)).port_id, p1.id);

    // Another port: the same floating IP moves.
    const moved = await r.update({ floatingip_id: first, port_id: p2.id, fixed_ip_address: p2.ip });
    assert.ok(!('replace' in moved), JSON.stringify(moved));
    assert.equal(r.physicalId, `${first}:${p2.id}`);
    assert.equal((await fip(first)).fixed_ip_address, p2.ip);
    assert.deepEqual(await plugin.getReality(r.ctx()), {
      state: 'present',
      properties: { floatingip_id: first, port_id: p2.id, fixed_ip_address: p2.ip },
    });

    // Another floating IP: the old one lets go of the port, the new one takes it.
    const swapped = await r.update({ floatingip_id: second, port_id: p2.id });
    assert.ok(!('replace' in swapped), JSON.stringify(swapped));
    assert.equal((await fip(first)).port_id, null);
    assert.equal((await fip(second)).port_id, p2.id);
    assert.equal(r.physicalId, `${second}:${p2.id}`);

    await r.delete();
    assert.equal((await fip(second)).port_id, null);
    assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    await r.delete();
    // The floating IP itself gone: nothing left to undo.
    await c.neutron('DELETE', `/floatingips/${second}`);
    await r.delete();
    assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    await c.neutron('DELETE', `/floatingips/${first}`);
  });

  it('leaves alone a floating IP that another association has moved to its port', async () => {
    const id = await allocate();
    const [p1, p2] = [await c.port(network), await c.port(network)];
    const old = resource('key-old');
    await old.create({ floatingip_id: id, port_id: p1.id });
    // A replacement is created before the resource it replaces is deleted.
    const replacement = resource('key-new');
    await replacement.create({ floatingip_id: id, port_id: p2.id });
    assert.deepEqual(await plugin.getReality(old.ctx()), { state: 'gone' });
    await old.delete();
    assert.equal((await fip(id)).port_id, p2.id);
    await replacement.delete();
    assert.equal((await fip(id)).port_id, null);
  });

  it('waits for a router interface on the port’s subnet', async () => {
    const id = await allocate();
    const net = await c.privateNet('late', '10.31.0.0/24');
    const port = await c.port(net.network);
    const r = resource('key-late');
    const started = await r.startCreate({ floatingip_id: id, port_id: port.id });
    assert.ok(started.progress, 'not reachable yet: the create waits');
    const router = (await c.neutron('GET', '/routers?name=edge')).routers[0].id;
    await c.neutron('PUT', `/routers/${router}/add_router_interface`, { subnet_id: net.subnet });
    assert.equal((await r.poll('create')).done, true);
    assert.equal((await fip(id)).port_id, port.id);
    await r.delete();
  });
});
