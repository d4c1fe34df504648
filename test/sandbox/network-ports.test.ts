import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { networkPorts } from '../../src/sandbox/network/index.js';
import { assertNeutronError, type NetworkClient, networkClient } from './network-helpers.js';

describe('sandbox Neutron: ports and IP allocation', () => {
  let c: NetworkClient;
  let net: { id: string };
  let subnet: { id: string };
  before(async () => {
    c = await networkClient();
    net = await c.create('networks', { name: 'ports-net' });
    subnet = await c.create('subnets', {
      network_id: net.id,
      cidr: '10.0.0.0/29',
      allocation_pools: [{ start: '10.0.0.2', end: '10.0.0.4' }],
    });
  });
  after(() => c.app.close());

  it('creates a port with an address from the pool, a Neutron MAC and the default group', async () => {
    const port = await c.create('ports', { network_id: net.id, name: 'p1' });
    assert.deepEqual(port.fixed_ips, [{ subnet_id: subnet.id, ip_address: '10.0.0.2' }]);
    assert.match(port.mac_address, /^fa:16:3e(:[0-9a-f]{2}){3}$/);
    assert.equal(port.device_id, '');
    assert.equal(port.device_owner, '');
    assert.equal(port.status, 'DOWN');
    assert.equal(port.port_security_enabled, true);
    assert.equal(port.admin_state_up, true);
    assert.deepEqual(port.allowed_address_pairs, []);
    assert.equal(port.security_groups.length, 1);
    const groups = await c.call('GET', '/security-groups?name=default');
    assert.deepEqual(
      groups.body.security_groups.map((g: { id: string }) => g.id),
      port.security_groups,
    );
    const found = await c.call('GET', `/ports?fixed_ips=ip_address%3D10.0.0.2`);
    assert.deepEqual(
      found.body.ports.map((p: { id: string }) => p.id),
      [port.id],
    );
    const byNet = await c.call('GET', `/ports?network_id=${net.id}&name=p1`);
    assert.equal(byNet.body.ports.length, 1);
    assert.equal((await c.call('DELETE', `/ports/${port.id}`)).status, 204);
    assertNeutronError(await c.call('GET', `/ports/${port.id}`), 404, 'PortNotFound');
  });

  it('takes a MAC address in any spelling Neutron accepts, kept as given; one in use or reserved is refused', async () => {
    const macNet = await c.create('networks', { name: 'mac-net' });
    await c.create('subnets', { network_id: macNet.id, cidr: '10.9.0.0/24' });
    const port = async (mac: string) =>
      c.call('POST', '/ports', { port: { network_id: macNet.id, mac_address: mac } });
    const dashed = await port('00-00-00-00-BB-BB');
    assert.equal(dashed.status, 201);
    assert.equal(dashed.body.port.mac_address, '00-00-00-00-BB-BB');
    // The same address in another spelling is the same address.
    assertNeutronError(await port('00:00:00:00:bb:bb'), 409, 'MacAddressInUse');
    for (const mac of ['fa16.3e00.0001', '0:1b:77:49:54:fd', '001B774954FE', 'fa163e-000002'])
      assert.equal((await port(mac)).status, 201, mac);
    for (const mac of [
      '00:00:00:00:00:00',
      'FF-FF-FF-FF-FF-FF',
      '00:1b:77:49:54',
      'nope',
      '00:1b:77:49:54:fd:01',
    ])
      assertNeutronError(await port(mac), 400, 'InvalidInput');
  });

  it('takes an explicit address when it is in the subnet and free, and frees it on delete', async () => {
    const port = await c.create('ports', {
      network_id: net.id,
      fixed_ips: [{ subnet_id: subnet.id, ip_address: '10.0.0.6' }],
      allowed_address_pairs: [{ ip_address: '10.0.0.100' }],
      port_security_enabled: true,
    });
    assert.equal(port.fixed_ips[0].ip_address, '10.0.0.6');
    assert.deepEqual(port.allowed_address_pairs, [{ ip_address: '10.0.0.100', mac_address: null }]);
    assertNeutronError(
      await c.call('POST', '/ports', {
        port: { network_id: net.id, fixed_ips: [{ ip_address: '10.0.0.6' }] },
      }),
      409,
      'IpAddressAlreadyAllocated',
    );
    assertNeutronError(
      await c.call('POST', '/ports', {
        port: { network_id: net.id, fixed_ips: [{ ip_address: '10.9.0.6' }] },
      }),
      400,
      'InvalidIpForNetwork',
    );
    assertNeutronError(
      await c.call('POST', '/ports', {
        port: { network_id: net.id, fixed_ips: [{ subnet_id: subnet.id, ip_address: '10.9.0.6' }] },
      }),
      400,
      'InvalidIpForSubnet',
    );
    assertNeutronError(
      await c.call('POST', '/ports', { port: { network_id: 'nope' } }),
      404,
      'NetworkNotFound',
    );
    await c.call('DELETE', `/ports/${port.id}`);
    const again = await c.create('ports', { network_id: net.id, fixed_ips: [{ ip_address: '10.0.0.6' }] });
    assert.equal(again.fixed_ips[0].ip_address, '10.0.0.6');
    await c.call('DELETE', `/ports/${again.id}`);
  });

  it('runs out of addresses with IpAddressGenerationFailure', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await c.create('ports', { network_id: net.id }));
    assert.deepEqual(
      made.map((p) => p.fixed_ips[0].ip_address),
      ['10.0.0.2', '10.0.0.3', '10.0.0.4'],
    );
    assertNeutronError(
      await c.call('POST', '/ports', { port: { network_id: net.id } }),
      409,
      'IpAddressGenerationFailure',
    );
    // A port on the network keeps its subnet and network.
    assertNeutronError(await c.call('DELETE', `/subnets/${subnet.id}`), 409, 'SubnetInUse');
    assertNeutronError(await c.call('DELETE', `/networks/${net.id}`), 409, 'NetworkInUse');
    await c.call('DELETE', `/ports/${made[1].id}`);
    const reused = await c.create('ports', { network_id: net.id });
    assert.equal(reused.fixed_ips[0].ip_address, '10.0.0.3');
    for (const p of [made[0], made[2], reused])
      assert.equal((await c.call('DELETE', `/ports/${p.id}`)).status, 204);
  });

  it('updates a port: name, device, fixed IPs, security groups', async () => {
    const port = await c.create('ports', { network_id: net.id, name: 'before' });
    const group = await c.create('security-groups', { name: 'web' });
    const r = await c.call('PUT', `/ports/${port.id}`, {
      port: {
        name: 'after',
        device_id: 'server-1',
        device_owner: 'compute:nova',
        fixed_ips: [{ subnet_id: subnet.id, ip_address: '10.0.0.5' }],
        security_groups: [group.id],
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const updated = r.body.port;
    assert.equal(updated.name, 'after');
    assert.equal(updated.device_id, 'server-1');
    assert.equal(updated.status, 'ACTIVE');
    assert.deepEqual(updated.fixed_ips, [{ subnet_id: subnet.id, ip_address: '10.0.0.5' }]);
    assert.deepEqual(updated.security_groups, [group.id]);
    assert.equal(updated.revision_number, port.revision_number + 1);
    // Its old address is free again.
    const next = await c.create('ports', { network_id: net.id });
    assert.equal(next.fixed_ips[0].ip_address, port.fixed_ips[0].ip_address);
    assertNeutronError(
      await c.call('PUT', `/ports/${next.id}`, { port: { fixed_ips: [{ ip_address: '10.0.0.5' }] } }),
      409,
      'IpAddressAlreadyAllocated',
    );
    assertNeutronError(
      await c.call('PUT', `/ports/${next.id}`, { port: { security_groups: ['nope'] } }),
      404,
      'SecurityGroupNotFound',
    );
    // The group is in use by the port.
    assertNeutronError(await c.call('DELETE', `/security-groups/${group.id}`), 409, 'SecurityGroupInUse');
    for (const p of [port, next]) await c.call('DELETE', `/ports/${p.id}`);
    assert.equal((await c.call('DELETE', `/security-groups/${group.id}`)).status, 204);
  });

  it('updates the vnic type and DNS name of a port', async () => {
    const port = await c.create('ports', { network_id: net.id, fixed_ips: [] });
    assert.equal(port['binding:vnic_type'], 'normal');
    const r = await c.call('PUT', `/ports/${port.id}`, {
      port: { 'binding:vnic_type': 'direct', dns_name: 'web-1' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.port['binding:vnic_type'], 'direct');
    assert.equal(r.body.port.dns_name, 'web-1');
    await c.call('DELETE', `/ports/${port.id}`);
  });

  it('answers the admin actions: set a port out of band, delete it, delete a network', async () => {
    const port = await c.create('ports', { network_id: net.id, name: 'oob' });
    const set = await c.app.inject({
      method: 'POST',
      url: `/admin/port/${port.id}/set`,
      payload: { name: 'changed', admin_state_up: false },
    });
    assert.equal(set.statusCode, 200, set.body);
    const shown = (await c.call('GET', `/ports/${port.id}`)).body.port;
    assert.equal(shown.name, 'changed');
    assert.equal(shown.admin_state_up, false);
    const del = await c.app.inject({ method: 'POST', url: `/admin/port/${port.id}/delete` });
    assert.equal(del.statusCode, 200);
    assertNeutronError(await c.call('GET', `/ports/${port.id}`), 404, 'PortNotFound');

    const doomed = await c.create('networks', { name: 'doomed' });
    await c.create('subnets', { network_id: doomed.id, cidr: '10.5.0.0/24' });
    await c.create('ports', { network_id: doomed.id });
    const gone = await c.app.inject({ method: 'POST', url: `/admin/network/${doomed.id}/delete` });
    assert.equal(gone.statusCode, 200, gone.body);
    assertNeutronError(await c.call('GET', `/networks/${doomed.id}`), 404, 'NetworkNotFound');
    assert.equal((await c.call('GET', `/ports?network_id=${doomed.id}`)).body.ports.length, 0);
    const unknown = await c.app.inject({ method: 'POST', url: '/admin/port/nope/delete' });
    assert.equal(unknown.statusCode, 404);
  });

  it('refuses a port past the quota', async () => {
    const q = await networkClient({ noise: { quotas: { port: 1 } } });
    try {
      const n = await q.create('networks', { name: 'q' });
      await q.create('ports', { network_id: n.id });
      assertNeutronError(await q.call('POST', '/ports', { port: { network_id: n.id } }), 409, 'OverQuota');
    } finally {
      await q.app.close();
    }
  });
});

describe('sandbox Neutron: the PortBinder Nova uses', () => {
  let c: NetworkClient;
  before(async () => {
    c = await networkClient();
  });
  after(() => c.app.close());

  it('binds new and existing ports, lists addresses by network, and unbinds', async () => {
    const binder = networkPorts(c.sandbox.state, {
      now: () => c.sandbox.ctx.now(),
      noise: () => c.sandbox.ctx.noise(),
    });
    assert.equal(binder.defaultNetwork(c.projectId), undefined);
    const net = await c.create('networks', { name: 'private' });
    const subnet = await c.create('subnets', { network_id: net.id, cidr: '10.0.0.0/24' });
    assert.equal(binder.defaultNetwork(c.projectId), net.id);
    const other = await c.create('networks', { name: 'second' });
    await c.create('subnets', { network_id: other.id, cidr: '10.1.0.0/24' });
    assert.equal(binder.defaultNetwork(c.projectId), undefined);

    const existing = await c.create('ports', { network_id: other.id, name: 'mine' });
    const made = binder.bind(c.projectId, 'server-1', { networkId: net.id, fixedIp: '10.0.0.50' });
    const bound = binder.bind(c.projectId, 'server-1', { portId: existing.id });
    assert.equal(bound.portId, existing.id);

    const madePort = (await c.call('GET', `/ports/${made.portId}`)).body.port;
    assert.equal(madePort.device_id, 'server-1');
    assert.equal(madePort.device_owner, 'compute:nova');
    assert.equal(madePort.status, 'ACTIVE');
    assert.deepEqual(madePort.fixed_ips, [{ subnet_id: subnet.id, ip_address: '10.0.0.50' }]);

    assert.deepEqual(binder.addresses('server-1'), {
      private: [
        {
          addr: '10.0.0.50',
          version: 4,
          'OS-EXT-IPS:type': 'fixed',
          'OS-EXT-IPS-MAC:mac_addr': madePort.mac_address,
        },
      ],
      second: [
        {
          addr: existing.fixed_ips[0].ip_address,
          version: 4,
          'OS-EXT-IPS:type': 'fixed',
          'OS-EXT-IPS-MAC:mac_addr': existing.mac_address,
        },
      ],
    });

    // Refusals in Nova's terms.
    assert.throws(() => binder.bind(c.projectId, 'server-2', { portId: existing.id }), { status: 409 });
    assert.throws(() => binder.bind(c.projectId, 'server-2', { portId: 'nope' }), { status: 404 });
    assert.throws(() => binder.bind(c.projectId, 'server-2', { networkId: 'nope' }), { status: 400 });
    assert.throws(() => binder.bind(c.projectId, 'server-2', { networkId: net.id, fixedIp: '10.0.0.50' }), {
      status: 409,
    });

    binder.unbindAll('server-1');
    assertNeutronError(await c.call('GET', `/ports/${made.portId}`), 404, 'PortNotFound');
    const released = (await c.call('GET', `/ports/${existing.id}`)).body.port;
    assert.equal(released.device_id, '');
    assert.equal(released.status, 'DOWN');
    assert.deepEqual(binder.addresses('server-1'), {});
  });
});
