import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { neutronFloatingIpPlugin as plugin } from '../../../src/resources/openstack/neutron/floating-ip.js';
import { rejection } from '../helpers.js';
import { type L3Cloud, startL3Cloud } from './l3-support.js';

// OS::Neutron::FloatingIP against the sandbox cloud, through the OpenStack client, over HTTP.
describe('OS::Neutron::FloatingIP on the sandbox cloud', () => {
  let c: L3Cloud;
  let routerId: string;
  before(async () => {
    c = await startL3Cloud();
    routerId = (
      await c.neutron('POST', '/routers', {
        router: { name: 'edge', external_gateway_info: { network_id: c.publicId } },
      })
    ).router.id;
  });
  after(() => c?.close());

  const fip = async (id: string) => (await c.neutron('GET', `/floatingips/${id}`)).floatingip;
  const resource = (key: string) => c.resource(plugin, 'fip', key);
  /** A private network joined to the router, and a port on it. */
  const reachablePort = async (name: string, cidr: string) => {
    const net = await c.privateNet(name, cidr);
    await c.neutron('PUT', `/routers/${routerId}/add_router_interface`, { subnet_id: net.subnet });
    return c.port(net.network);
  };

  it('allocates from a network named, finds its own address again, re-associates in place, observes and deletes', async () => {
    const r = resource('key-fip');
    await r.create({ floating_network: 'public', dns_name: 'web', dns_domain: 'example.org.' });
    const id = r.physicalId!;
    const address = await r.attribute('floating_ip_address');
    assert.match(String(address), /^172\.24\.4\.\d+$/);
    assert.equal(await r.attribute('floating_network_id'), c.publicId);
    assert.equal(await r.attribute('port_id'), null);
    assert.equal((await fip(id)).dns_name, 'web');

    // The same create run again (after a crash) finds the address instead of allocating a second.
    const count = async () => (await c.neutron('GET', '/floatingips')).floatingips.length as number;
    const before = await count();
    const again = resource('key-fip');
    await again.create({ floating_network: 'public' });
    assert.equal(again.physicalId, id);
    assert.equal(await count(), before);

    const port = await reachablePort('web', '10.20.0.0/24');
    const on = await r.update({ floating_network: 'public', port_id: port.id });
    assert.ok(!('replace' in on), JSON.stringify(on));
    assert.equal(await r.attribute('port_id'), port.id);
    assert.equal(await r.attribute('fixed_ip_address'), port.ip);
    assert.equal(await r.attribute('router_id'), routerId);
    assert.equal(await r.attribute('tenant_id'), (await fip(id)).project_id);
    assert.equal(((await r.attribute('show')) as { id: string }).id, id);
    assert.deepEqual(await plugin.getReality(r.ctx()), {
      state: 'present',
      properties: {
        // The template's name while it names the live network.
        floating_network: 'public',
        floating_ip_address: address,
        port_id: port.id,
        fixed_ip_address: port.ip,
        dns_name: 'web',
        dns_domain: 'example.org.',
      },
    });

    const off = await r.update({ floating_network: 'public' });
    assert.ok(!('replace' in off), JSON.stringify(off));
    assert.equal((await fip(id)).port_id, null);
    assert.equal(r.physicalId, id);

    // Another network is another address.
    assert.deepEqual(await r.update({ floating_network: 'other' }), {
      replace: 'schema',
      properties: ['floating_network'],
    });

    await r.delete();
    assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    // A delete of what is already gone is done.
    await r.delete();
  });

  it('waits for the router interface that makes the port reachable, then associates', async () => {
    const net = await c.privateNet('late', '10.21.0.0/24');
    const port = await c.port(net.network);
    const r = resource('key-late');
    const started = await r.startCreate({ floating_network_id: c.publicId, port_id: port.id });
    assert.ok(started.progress, 'not reachable yet: the create waits');
    assert.ok(r.physicalId, 'the address is allocated already');
    assert.equal((await r.poll('create')).done, false);
    await c.neutron('PUT', `/routers/${routerId}/add_router_interface`, { subnet_id: net.subnet });
    assert.equal((await r.poll('create')).done, true);
    const live = await fip(r.physicalId!);
    assert.equal(live.port_id, port.id);
    assert.equal(live.router_id, routerId);
    assert.equal(r.storedProperties?.port_id, port.id);
    await r.delete();
  });

  it('gives up waiting after a while with Neutron’s reason', async () => {
    const net = await c.privateNet('never', '10.22.0.0/24');
    const port = await c.port(net.network);
    const r = resource('key-never');
    const err = await rejection(() => r.create({ floating_network: c.publicId, port_id: port.id }));
    assert.match(err.message, /not reachable from subnet/);
    await r.delete();
  });

  it('associates at create with a chosen fixed address, and refuses one without a port', async () => {
    const port = await reachablePort('fixed', '10.23.0.0/24');
    const r = resource('key-fixed');
    await r.create({ floating_network: 'public', port_id: port.id, fixed_ip_address: port.ip });
    assert.equal((await fip(r.physicalId!)).fixed_ip_address, port.ip);
    await r.delete();

    const path = ['resources', 'fip', 'properties'];
    assert.throws(
      () => plugin.validate!({ floating_network: 'public', fixed_ip_address: '10.0.0.1' }, path),
      /fixed_ip_address cannot be specified without port_id/,
    );
    // Required as in Heat 19, or given by its hidden older name; not both.
    assert.throws(() => resource('v').props({}), /Property floating_network not assigned/);
    resource('v').props({ floating_network_id: 'public' });
    assert.throws(
      () => resource('v').props({ floating_network_id: 'public', floating_network: 'public' }),
      /at the same time: floating_network, floating_network_id/,
    );
  });
});
