import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Json } from '../../../src/util/json.js';
import { novaServerPlugin } from '../../../src/resources/openstack/nova/server.js';
import type { Value } from '../../../src/template/functions/types.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

const IMAGE = 'cirros-0.6.2-x86_64-disk';

type Port = {
  id: string;
  network_id: string;
  device_id: string;
  fixed_ips: { ip_address: string }[];
};

// A server's `networks` changed in place, as Heat does: interfaces detached and attached, the
// server kept. Against the sandbox over HTTP, each step of the update driven as the engine would.
describe('OS::Nova::Server networks updated in place', () => {
  let rig: TypeRig;
  const ids: Record<string, string> = {};

  before(async () => {
    rig = await typeRig({ bootDelayMs: 1000 });
    for (const [name, cidr] of [
      ['net-a', '10.5.0.0/24'],
      ['net-b', '10.6.0.0/24'],
    ] as const) {
      const net = await rig.demo.request<{ network: { id: string } }>('network', 'POST', '/networks', {
        network: { name },
      });
      ids[name] = net.body.network.id;
      await rig.demo.request('network', 'POST', '/subnets', {
        subnet: { network_id: ids[name], cidr, ip_version: 4 },
      });
    }
    const port = await rig.demo.request<{ port: { id: string } }>('network', 'POST', '/ports', {
      port: { network_id: ids['net-b'], name: 'user-port' },
    });
    ids.userPort = port.body.port.id;
  });
  after(async () => rig?.close());

  const ports = async () =>
    (await rig.demo.request<{ ports: Port[] }>('network', 'GET', '/ports')).body.ports;
  const portsOf = async (server: string) => (await ports()).filter((p) => p.device_id === server);
  const ipsOf = async (server: string) =>
    (await portsOf(server)).flatMap((p) => p.fixed_ips.map((ip) => ip.ip_address)).sort();
  const props = (networks: Value) => ({ image: IMAGE, flavor: 'm1.tiny', networks });

  it('keeps the server: an entry left alone keeps its port, a user port is unbound, Nova’s ports go', async () => {
    const r = rig.resource(novaServerPlugin, 'key-nets');
    await r.create(props([{ network: 'net-a', fixed_ip: '10.5.0.10' }, { port: ids.userPort! }]));
    const server = r.physicalId!;
    const [kept] = (await portsOf(server)).filter((p) => p.network_id === ids['net-a']);
    assert.ok(kept);

    // As in Heat, an entry a live port still fits is that port's: {network: net-b} would be the
    // user port's (it is on net-b). Another address on net-b is not.
    const outcome = await r.update(
      props([
        { network: 'net-b', fixed_ip: '10.6.0.50' },
        { network: 'net-a', fixed_ip: '10.5.0.10' },
      ]),
    );
    assert.equal('replace' in outcome, false, 'updated in place');
    assert.equal(r.physicalId, server);
    const now = await portsOf(server);
    assert.equal(now.length, 2);
    assert.ok(
      now.some((p) => p.id === kept.id),
      'the unchanged entry kept its port',
    );
    const added = now.find((p) => p.id !== kept.id)!;
    assert.equal(added.network_id, ids['net-b']);
    assert.deepEqual(
      added.fixed_ips.map((ip) => ip.ip_address),
      ['10.6.0.50'],
    );
    assert.notEqual(added.id, ids.userPort);
    const user = (await ports()).find((p) => p.id === ids.userPort);
    assert.ok(user, 'the user’s port is kept');
    assert.equal(user.device_id, '', 'and detached');
    const reality = await novaServerPlugin.getReality(r.ctx());
    assert.ok(reality.state === 'present');
    assert.deepEqual(reality.properties.networks, r.storedProperties!.networks, 'no drift after the update');
  });

  it('runs each step twice (as after a crash that lost its result) without a second port', async () => {
    const r = rig.resource(novaServerPlugin, 'key-crash');
    await r.create(props([{ network: 'net-a', fixed_ip: '10.5.0.30' }, { network: 'net-b' }]));
    const server = r.physicalId!;
    const before = await portsOf(server);
    const onB = before.find((p) => p.network_id === ids['net-b'])!;

    const previous = r.storedProperties!;
    const next = r.props(props([{ network: 'net-a', fixed_ip: '10.5.0.31' }, { network: 'net-b' }]));
    // The update itself is run twice: it only plans, so both plans are the same.
    const first = await novaServerPlugin.update!(r.ctx(), next, previous, ['networks']);
    const again = await novaServerPlugin.update!(r.ctx(), next, previous, ['networks']);
    assert.deepEqual(again, first);
    let progress: Json | undefined = first.progress;
    let checks = 0;
    while (progress !== undefined) {
      assert.ok(++checks < 100, 'the update ends');
      rig.clock.advance(1000);
      await novaServerPlugin.checkUpdateComplete!(r.ctx(), progress);
      const replayed = await novaServerPlugin.checkUpdateComplete!(r.ctx(), progress);
      progress = replayed.done ? undefined : replayed.progress;
    }
    const after = await portsOf(server);
    assert.deepEqual(await ipsOf(server), [...onB.fixed_ips.map((ip) => ip.ip_address), '10.5.0.31'].sort());
    assert.ok(
      after.some((p) => p.id === onB.id),
      'the net-b entry kept its port',
    );
    assert.equal(after.length, 2, 'one port made for the new entry, however often its step ran');
    assert.equal(
      (await ports()).some((p) => p.fixed_ips.some((ip) => ip.ip_address === '10.5.0.30')),
      false,
      'the port Nova made for the old entry is deleted with the detach',
    );
  });

  it('frees a fixed IP for reuse, and goes to allocate_network none and back to a user port', async () => {
    const r = rig.resource(novaServerPlugin, 'key-reuse');
    await r.create(props([{ network: 'net-a', fixed_ip: '10.5.0.40' }]));
    const server = r.physicalId!;
    await r.update(props([{ network: 'net-a', fixed_ip: '10.5.0.41' }]));
    assert.deepEqual(await ipsOf(server), ['10.5.0.41']);
    await r.update(props([{ network: 'net-a', fixed_ip: '10.5.0.40' }]));
    assert.deepEqual(await ipsOf(server), ['10.5.0.40'], 'the address the first port had is free again');

    await r.update(props([{ allocate_network: 'none' }]));
    assert.deepEqual(await portsOf(server), []);
    const port = await rig.demo.request<{ port: { id: string } }>('network', 'POST', '/ports', {
      port: { network_id: ids['net-a'] },
    });
    await r.update(props([{ port: port.body.port.id }]));
    assert.deepEqual(
      (await portsOf(server)).map((p) => p.id),
      [port.body.port.id],
    );
    assert.equal(r.physicalId, server);
  });
});
