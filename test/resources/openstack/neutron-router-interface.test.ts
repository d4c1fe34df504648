import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { neutronRouterInterfacePlugin as plugin } from '../../../src/resources/openstack/neutron/router-interface.js';
import { TemplateError } from '../../../src/template/errors.js';
import { rejection } from '../helpers.js';
import { type Answer, type L3Cloud, startL3Cloud } from './l3-support.js';

// OS::Neutron::RouterInterface against the sandbox cloud, through the OpenStack client, over HTTP.
describe('OS::Neutron::RouterInterface on the sandbox cloud', () => {
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

  const interfaces = async () =>
    ((await c.neutron('GET', `/ports?device_id=${routerId}`)).ports as Answer[]).map(
      (p) => p.fixed_ips[0].subnet_id,
    );
  const resource = (key: string) => c.resource(plugin, 'iface', key);

  it('adds an interface on a subnet (router and subnet by name), finds it again, observes and removes it', async () => {
    const net = await c.privateNet('inner', '10.1.0.0/24');
    const r = resource('key-subnet');
    await r.create({ router: 'edge', subnet: 'inner' });
    assert.equal(r.physicalId, `${routerId}:subnet_id=${net.subnet}`);
    assert.deepEqual(await interfaces(), [net.subnet]);

    // Run again after a crash: Neutron would refuse a second add; the interface is found instead.
    const again = resource('key-subnet');
    await again.create({ router: 'edge', subnet: 'inner' });
    assert.equal(again.physicalId, r.physicalId);
    assert.deepEqual(await interfaces(), [net.subnet]);

    // The template's names while they name the interface's router and subnet.
    assert.deepEqual(await plugin.getReality(r.ctx()), {
      state: 'present',
      properties: { router: 'edge', subnet: 'inner' },
    });
    const shown = (await r.attribute('show')) as { device_id: string };
    assert.equal(shown.device_id, routerId);

    // Nothing is updatable: another subnet is a new interface.
    const other = await c.privateNet('inner2', '10.2.0.0/24');
    assert.deepEqual(await r.update({ router: 'edge', subnet: other.subnet }), {
      replace: 'schema',
      properties: ['subnet'],
    });

    await r.delete();
    assert.deepEqual(await interfaces(), []);
    assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    // Removing what is already gone is done.
    await r.delete();
  });

  it('adds an interface by port in the older *_id form, and a gone router means gone', async () => {
    const net = await c.privateNet('by-port', '10.3.0.0/24');
    const port = await c.port(net.network);
    const temp = (await c.neutron('POST', '/routers', { router: { name: 'temp' } })).router.id;
    const r = resource('key-port');
    await r.create({ router_id: temp, port_id: port.id });
    assert.equal(r.physicalId, `${temp}:port_id=${port.id}`);
    const bound = (await c.neutron('GET', `/ports/${port.id}`)).port;
    assert.equal(bound.device_id, temp);
    await resource('key-port').create({ router_id: temp, port_id: port.id });
    assert.equal((await plugin.getReality(r.ctx())).state, 'present');

    await c.neutron('PUT', `/routers/${temp}/remove_router_interface`, { port_id: port.id });
    assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    await c.neutron('DELETE', `/routers/${temp}`);
    assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    // The router gone: the interface went with it.
    await r.delete();
  });

  it('waits while a floating IP needs the interface, then removes it', async () => {
    const net = await c.privateNet('fip-net', '10.4.0.0/24');
    const r = resource('key-busy');
    await r.create({ router: routerId, subnet: net.subnet });
    const port = await c.port(net.network);
    const fip = (
      await c.neutron('POST', '/floatingips', {
        floatingip: { floating_network_id: c.publicId, port_id: port.id },
      })
    ).floatingip;
    const started = await plugin.delete(r.ctx());
    assert.ok(started.progress, 'the interface a floating IP needs stays for now');
    assert.deepEqual(await interfaces(), [net.subnet]);
    await c.neutron('DELETE', `/floatingips/${fip.id}`);
    assert.equal((await plugin.checkDeleteComplete!(r.ctx(), started.progress!)).done, true);
    assert.deepEqual(await interfaces(), []);
  });

  it('wants exactly one of subnet and port, and a router', () => {
    const path = ['resources', 'iface', 'properties'];
    const check = (props: Record<string, string>) => () => plugin.validate!(props, path);
    assert.throws(check({ router: 'r', subnet: 's', port_id: 'p' }), (e: Error) => {
      assert.ok(e instanceof TemplateError);
      return /at the same time: subnet, port/.test(e.message);
    });
    assert.throws(
      check({ router: 'r' }),
      /At least one of the following properties must be specified: subnet, port/,
    );
    assert.throws(() => resource('v').props({ subnet: 's' }), /Property router not assigned/);
    check(resource('v').props({ router_id: 'r', subnet_id: 's' }) as Record<string, string>)();
    assert.throws(
      () => resource('v').props({ router: 'r', router_id: 'r', subnet: 's' }),
      /router, router_id/,
    );
  });

  it('fails with Neutron’s reason when the subnet has no gateway address', async () => {
    const network = (await c.neutron('POST', '/networks', { network: { name: 'no-gw' } })).network.id;
    const subnet = (
      await c.neutron('POST', '/subnets', {
        subnet: { network_id: network, cidr: '10.5.0.0/24', gateway_ip: null },
      })
    ).subnet.id;
    const err = await rejection(() => resource('key-no-gw').create({ router: routerId, subnet }));
    assert.match(err.message, /does not have a gateway IP/);
  });
});
