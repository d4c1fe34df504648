import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { networkPorts } from '../../src/sandbox/network/index.js';
import { type Answer, assertNeutronError, type NetworkClient, networkClient } from './network-helpers.js';

describe('sandbox Neutron: routers and floating IPs', () => {
  let c: NetworkClient;
  let publicId: string;
  let net: Answer;
  let subnet: Answer;
  before(async () => {
    c = await networkClient();
    publicId = (await c.call('GET', '/networks?name=public')).body.networks[0].id;
    net = await c.create('networks', { name: 'l3-net' });
    subnet = await c.create('subnets', { network_id: net.id, cidr: '192.168.10.0/24' });
  });
  after(() => c.app.close());

  it('gives a router a gateway on the external network, and refuses a non-external one', async () => {
    const router = await c.create('routers', { name: 'r1', external_gateway_info: { network_id: publicId } });
    assert.equal(router.status, 'ACTIVE');
    assert.equal(router.external_gateway_info.network_id, publicId);
    assert.equal(router.external_gateway_info.enable_snat, true);
    const [gw] = router.external_gateway_info.external_fixed_ips;
    assert.equal(gw.ip_address, '172.24.4.2');
    assertNeutronError(
      await c.call('POST', '/routers', { router: { external_gateway_info: { network_id: net.id } } }),
      400,
      'BadRequest',
    );
    const cleared = await c.call('PUT', `/routers/${router.id}`, { router: { external_gateway_info: null } });
    assert.equal(cleared.body.router.external_gateway_info, null);
    const again = await c.call('PUT', `/routers/${router.id}`, {
      router: { name: 'r1b', external_gateway_info: { network_id: publicId, enable_snat: false } },
    });
    assert.equal(again.body.router.name, 'r1b');
    assert.equal(again.body.router.external_gateway_info.enable_snat, false);
    assert.equal((await c.call('GET', '/routers?name=r1b')).body.routers.length, 1);
    assert.equal((await c.call('DELETE', `/routers/${router.id}`)).status, 204);
    assertNeutronError(await c.call('GET', `/routers/${router.id}`), 404, 'RouterNotFound');
  });

  it('adds and removes interfaces by subnet and by port, guarding them', async () => {
    const router = await c.create('routers', { name: 'r2' });
    const add = await c.call('PUT', `/routers/${router.id}/add_router_interface`, { subnet_id: subnet.id });
    assert.equal(add.status, 200, JSON.stringify(add.body));
    assert.equal(add.body.id, router.id);
    assert.equal(add.body.subnet_id, subnet.id);
    assert.deepEqual(add.body.subnet_ids, [subnet.id]);
    assert.equal(add.body.network_id, net.id);
    const port = (await c.call('GET', `/ports/${add.body.port_id}`)).body.port;
    assert.equal(port.device_owner, 'network:router_interface');
    assert.equal(port.device_id, router.id);
    assert.deepEqual(port.fixed_ips, [{ subnet_id: subnet.id, ip_address: '192.168.10.1' }]);
    const listed = await c.call('GET', `/ports?device_id=${router.id}&device_owner=network:router_interface`);
    assert.deepEqual(
      listed.body.ports.map((p: { id: string }) => p.id),
      [port.id],
    );

    assertNeutronError(
      await c.call('PUT', `/routers/${router.id}/add_router_interface`, { subnet_id: subnet.id }),
      400,
      'BadRequest',
    );
    assertNeutronError(await c.call('DELETE', `/ports/${port.id}`), 409, 'ServicePortInUse');
    assertNeutronError(await c.call('DELETE', `/routers/${router.id}`), 409, 'RouterInUse');
    assertNeutronError(await c.call('DELETE', `/subnets/${subnet.id}`), 409, 'SubnetInUse');

    const removed = await c.call('PUT', `/routers/${router.id}/remove_router_interface`, {
      subnet_id: subnet.id,
    });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.port_id, port.id);
    assertNeutronError(await c.call('GET', `/ports/${port.id}`), 404, 'PortNotFound');
    assertNeutronError(
      await c.call('PUT', `/routers/${router.id}/remove_router_interface`, { subnet_id: subnet.id }),
      404,
      'RouterInterfaceNotFoundForSubnet',
    );

    // By port: an unbound port of the project becomes the interface.
    const other = await c.create('networks', { name: 'l3-other' });
    const otherSubnet = await c.create('subnets', { network_id: other.id, cidr: '192.168.20.0/24' });
    const own = await c.create('ports', {
      network_id: other.id,
      fixed_ips: [{ subnet_id: otherSubnet.id, ip_address: '192.168.20.9' }],
    });
    const byPort = await c.call('PUT', `/routers/${router.id}/add_router_interface`, { port_id: own.id });
    assert.equal(byPort.status, 200);
    assert.equal(byPort.body.subnet_id, otherSubnet.id);
    assert.equal(
      (await c.call('GET', `/ports/${own.id}`)).body.port.device_owner,
      'network:router_interface',
    );
    const gone = await c.call('PUT', `/routers/${router.id}/remove_router_interface`, { port_id: own.id });
    assert.equal(gone.status, 200);
    assert.equal((await c.call('DELETE', `/routers/${router.id}`)).status, 204);
    assert.equal((await c.call('DELETE', `/networks/${other.id}`)).status, 204);
  });

  it('allocates, associates and disassociates floating IPs through a router', async () => {
    const router = await c.create('routers', { name: 'r3', external_gateway_info: { network_id: publicId } });
    const server = await c.create('ports', { network_id: net.id, name: 'vm' });
    const fip = await c.create('floatingips', { floating_network_id: publicId });
    assert.equal(fip.status, 'DOWN');
    assert.equal(fip.port_id, null);
    assert.equal(fip.router_id, null);
    assert.match(fip.floating_ip_address, /^172\.24\.4\.\d+$/);
    assert.notEqual(fip.floating_ip_address, router.external_gateway_info.external_fixed_ips[0].ip_address);

    // No router joins the subnet to the external network yet.
    assertNeutronError(
      await c.call('PUT', `/floatingips/${fip.id}`, { floatingip: { port_id: server.id } }),
      404,
      'ExternalGatewayForFloatingIPNotFound',
    );
    await c.call('PUT', `/routers/${router.id}/add_router_interface`, { subnet_id: subnet.id });
    const associated = await c.call('PUT', `/floatingips/${fip.id}`, { floatingip: { port_id: server.id } });
    assert.equal(associated.status, 200, JSON.stringify(associated.body));
    assert.equal(associated.body.floatingip.status, 'ACTIVE');
    assert.equal(associated.body.floatingip.port_id, server.id);
    assert.equal(associated.body.floatingip.fixed_ip_address, server.fixed_ips[0].ip_address);
    assert.equal(associated.body.floatingip.router_id, router.id);
    assert.equal((await c.call('GET', `/floatingips?port_id=${server.id}`)).body.floatingips.length, 1);

    // Nova shows it among the server's addresses.
    const binder = networkPorts(c.sandbox.state);
    binder.bind(c.projectId, 'vm-1', { portId: server.id });
    assert.deepEqual(
      binder.addresses('vm-1')['l3-net']!.map((a) => [a.addr, a['OS-EXT-IPS:type']]),
      [
        [server.fixed_ips[0].ip_address, 'fixed'],
        [fip.floating_ip_address, 'floating'],
      ],
    );
    binder.unbindAll('vm-1');

    assertNeutronError(
      await c.call('PUT', `/routers/${router.id}/remove_router_interface`, { subnet_id: subnet.id }),
      409,
      'RouterInterfaceInUseByFloatingIP',
    );
    const off = await c.call('PUT', `/floatingips/${fip.id}`, { floatingip: { port_id: null } });
    assert.equal(off.body.floatingip.status, 'DOWN');
    assert.equal(off.body.floatingip.fixed_ip_address, null);

    // Created associated; deleting the port disassociates it.
    const second = await c.create('floatingips', { floating_network_id: publicId, port_id: server.id });
    assert.equal(second.status, 'ACTIVE');
    assert.equal((await c.call('DELETE', `/ports/${server.id}`)).status, 204);
    const after = (await c.call('GET', `/floatingips/${second.id}`)).body.floatingip;
    assert.equal(after.port_id, null);
    assert.equal(after.status, 'DOWN');

    assertNeutronError(
      await c.call('POST', '/floatingips', { floatingip: { floating_network_id: net.id } }),
      400,
      'BadRequest',
    );
    const taken = await c.call('POST', '/floatingips', {
      floatingip: { floating_network_id: publicId, floating_ip_address: fip.floating_ip_address },
    });
    assertNeutronError(taken, 409, 'IpAddressAlreadyAllocated');
    for (const f of [fip, second]) assert.equal((await c.call('DELETE', `/floatingips/${f.id}`)).status, 204);
    assertNeutronError(await c.call('GET', `/floatingips/${fip.id}`), 404, 'FloatingIPNotFound');
    await c.call('PUT', `/routers/${router.id}/remove_router_interface`, { subnet_id: subnet.id });
    assert.equal((await c.call('DELETE', `/routers/${router.id}`)).status, 204);
  });

  it('lets only an admin choose distributed or ha, and keeps a floating IP’s DNS name', async () => {
    assertNeutronError(
      await c.call('POST', '/routers', { router: { name: 'dvr', distributed: true } }),
      403,
      'PolicyNotAuthorized',
    );
    assertNeutronError(
      await c.call('POST', '/routers', { router: { name: 'ha', ha: false } }),
      403,
      'PolicyNotAuthorized',
    );
    const made = await c.call('POST', '/routers', { router: { name: 'ha', ha: true } }, c.adminToken);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.router.ha, true);
    assert.equal(made.body.router.distributed, false);
    assert.equal(
      (await c.call('DELETE', `/routers/${made.body.router.id}`, undefined, c.adminToken)).status,
      204,
    );

    const fip = await c.create('floatingips', {
      floating_network_id: publicId,
      dns_name: 'web',
      dns_domain: 'example.org.',
    });
    assert.equal(fip.dns_name, 'web');
    assert.equal(fip.dns_domain, 'example.org.');
    assert.equal((await c.call('DELETE', `/floatingips/${fip.id}`)).status, 204);
  });

  it('refuses routers and floating IPs past their quotas', async () => {
    const q = await networkClient({ noise: { quotas: { router: 0, floatingip: 0 } } });
    try {
      const pub = (await q.call('GET', '/networks?name=public')).body.networks[0].id;
      assertNeutronError(await q.call('POST', '/routers', { router: { name: 'r' } }), 409, 'OverQuota');
      assertNeutronError(
        await q.call('POST', '/floatingips', { floatingip: { floating_network_id: pub } }),
        409,
        'OverQuota',
      );
    } finally {
      await q.app.close();
    }
  });
});

describe('sandbox Neutron: security groups and rules', () => {
  let c: NetworkClient;
  before(async () => {
    c = await networkClient();
  });
  after(() => c.app.close());

  it('creates the default group lazily with its four rules', async () => {
    const r = await c.call('GET', '/security-groups');
    assert.equal(r.body.security_groups.length, 1);
    const group = r.body.security_groups[0];
    assert.equal(group.name, 'default');
    const rules = group.security_group_rules.map(
      (x: Answer) => `${x.direction}/${x.ethertype}/${x.remote_group_id ? 'self' : '-'}`,
    );
    assert.deepEqual(rules.sort(), [
      'egress/IPv4/-',
      'egress/IPv6/-',
      'ingress/IPv4/self',
      'ingress/IPv6/self',
    ]);
    // Listing again makes no second one.
    assert.equal((await c.call('GET', '/security-groups')).body.security_groups.length, 1);
    assertNeutronError(
      await c.call('POST', '/security-groups', { security_group: { name: 'default' } }),
      409,
      'SecurityGroupDefaultAlreadyExists',
    );
  });

  it('creates rules, refuses duplicates and bad ones, and deletes them', async () => {
    const group = await c.create('security-groups', { name: 'web', description: 'http' });
    assert.equal(group.security_group_rules.length, 2);
    const rule = await c.create('security-group-rules', {
      security_group_id: group.id,
      direction: 'ingress',
      protocol: 'tcp',
      port_range_min: 80,
      port_range_max: 80,
      remote_ip_prefix: '0.0.0.0/0',
    });
    assert.equal(rule.ethertype, 'IPv4');
    assert.equal(rule.protocol, 'tcp');
    assert.equal(rule.port_range_min, 80);
    assert.equal(rule.remote_ip_prefix, '0.0.0.0/0');
    assert.equal(rule.security_group_id, group.id);
    const dup = await c.call('POST', '/security-group-rules', {
      security_group_rule: {
        security_group_id: group.id,
        direction: 'ingress',
        protocol: 'tcp',
        port_range_min: 80,
        port_range_max: 80,
        remote_ip_prefix: '0.0.0.0/0',
      },
    });
    assertNeutronError(dup, 409, 'SecurityGroupRuleExists');
    const bad = (fields: Record<string, unknown>) =>
      c.call('POST', '/security-group-rules', {
        security_group_rule: { security_group_id: group.id, ...fields },
      });
    assertNeutronError(await bad({ direction: 'sideways' }), 400, 'InvalidInput');
    assertNeutronError(
      await bad({ direction: 'ingress', port_range_min: 22 }),
      400,
      'SecurityGroupProtocolRequiredWithPorts',
    );
    assertNeutronError(
      await bad({ direction: 'ingress', protocol: 'tcp', port_range_min: 90, port_range_max: 80 }),
      400,
      'SecurityGroupInvalidPortRange',
    );
    assertNeutronError(
      await bad({ direction: 'ingress', protocol: 'bogus' }),
      400,
      'SecurityGroupRuleInvalidProtocol',
    );
    const icmp = await c.create('security-group-rules', {
      security_group_id: group.id,
      direction: 'ingress',
      protocol: 'icmp',
      remote_group_id: group.id,
    });
    assert.equal(icmp.remote_group_id, group.id);

    const shown = (await c.call('GET', `/security-groups/${group.id}`)).body.security_group;
    assert.equal(shown.security_group_rules.length, 4);
    const byGroup = await c.call(
      'GET',
      `/security-group-rules?security_group_id=${group.id}&direction=ingress`,
    );
    assert.equal(byGroup.body.security_group_rules.length, 2);
    assert.equal((await c.call('DELETE', `/security-group-rules/${rule.id}`)).status, 204);
    assertNeutronError(
      await c.call('GET', `/security-group-rules/${rule.id}`),
      404,
      'SecurityGroupRuleNotFound',
    );
    const renamed = await c.call('PUT', `/security-groups/${group.id}`, { security_group: { name: 'www' } });
    assert.equal(renamed.body.security_group.name, 'www');
    assert.equal((await c.call('DELETE', `/security-groups/${group.id}`)).status, 204);
    assertNeutronError(await c.call('GET', `/security-groups/${group.id}`), 404, 'SecurityGroupNotFound');
  });

  it('makes a stateless group when asked, and finds groups by tag and description', async () => {
    const group = await c.create('security-groups', { name: 'udp-only', stateful: false, description: 'm' });
    assert.equal(group.stateful, false);
    assert.equal((await c.call('GET', `/security-groups/${group.id}`)).body.security_group.stateful, false);
    await c.call('PUT', `/security-groups/${group.id}/tags`, { tags: ['hearth:k1'] });
    const tagged = await c.call('GET', '/security-groups?tags=hearth%3Ak1');
    assert.deepEqual(
      tagged.body.security_groups.map((g: { id: string }) => g.id),
      [group.id],
    );
    const described = await c.call('GET', '/security-groups?description=m');
    assert.deepEqual(
      described.body.security_groups.map((g: { id: string }) => g.id),
      [group.id],
    );
    assert.equal((await c.call('DELETE', `/security-groups/${group.id}`)).status, 204);
  });

  it('refuses a group past the quota', async () => {
    // The default group counts against the quota, as in Neutron.
    const q = await networkClient({ noise: { quotas: { security_group: 1 } } });
    try {
      assertNeutronError(
        await q.call('POST', '/security-groups', { security_group: { name: 'x' } }),
        409,
        'OverQuota',
      );
    } finally {
      await q.app.close();
    }
  });
});
