import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Answer, assertNeutronError, type NetworkClient, networkClient } from './network-helpers.js';

describe('sandbox Neutron: QoS policies, zone hints, DHCP agent scheduling, segments', () => {
  let c: NetworkClient;
  before(async () => {
    c = await networkClient();
  });
  after(() => c.app.close());

  const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    c.call(method, path, payload, c.adminToken);
  const policy = async (body: Record<string, unknown>): Promise<Answer> => {
    const r = await admin('POST', '/qos/policies', { policy: body });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.policy;
  };

  it('keeps QoS policies: admin writes, projects see their own and shared ones', async () => {
    assertNeutronError(
      await c.call('POST', '/qos/policies', { policy: { name: 'mine' } }),
      403,
      'PolicyNotAuthorized',
    );
    const own = await policy({ name: 'gold', project_id: c.projectId, description: 'fast' });
    assert.equal(own.project_id, c.projectId);
    assert.deepEqual(own.rules, []);
    assert.equal(own.shared, false);
    const shared = await policy({ name: 'bronze', shared: true });
    const hidden = await policy({ name: 'secret' });
    const names = (await c.call('GET', '/qos/policies')).body.policies.map((p: Answer) => p.name);
    assert.ok(names.includes('gold') && names.includes('bronze'), names.join());
    assert.ok(!names.includes('secret'));
    assert.equal((await c.call('GET', `/qos/policies/${shared.id}`)).body.policy.name, 'bronze');
    assertNeutronError(await c.call('GET', `/qos/policies/${hidden.id}`), 404, 'QosPolicyNotFound');
    assert.equal((await c.call('GET', '/qos/policies?name=gold')).body.policies.length, 1);
    const paged = (await c.call('GET', '/qos/policies?limit=1')).body;
    assert.equal(paged.policies.length, 1);
    assert.match(paged.policies_links[0].href, /\/network\/v2\.0\/qos\/policies\?limit=1&marker=/);
    const renamed = await admin('PUT', `/qos/policies/${own.id}`, { policy: { name: 'gold2' } });
    assert.equal(renamed.body.policy.name, 'gold2');
    assertNeutronError(
      await policy({ name: 'd1', project_id: c.projectId, is_default: true }).then(() =>
        admin('POST', '/qos/policies', { policy: { name: 'd2', project_id: c.projectId, is_default: true } }),
      ),
      409,
      'QoSPolicyDefaultAlreadyExists',
    );
    assert.equal((await admin('DELETE', `/qos/policies/${hidden.id}`)).status, 204);
    assertNeutronError(await admin('GET', `/qos/policies/${hidden.id}`), 404, 'QosPolicyNotFound');
  });

  it('attaches policies to networks and ports, clears them with null, and refuses deleting one in use', async () => {
    const p = await policy({ name: 'net-policy', project_id: c.projectId });
    // The project's default policy (made above) is what a network asking for none gets.
    const plain = await c.create('networks', { name: 'qos-default' });
    assert.equal(plain.qos_policy_id, (await c.call('GET', '/qos/policies?name=d1')).body.policies[0].id);
    const net = await c.create('networks', { name: 'qos-net', qos_policy_id: p.id });
    assert.equal(net.qos_policy_id, p.id);
    assertNeutronError(
      await c.call('POST', '/networks', { network: { qos_policy_id: 'nope' } }),
      404,
      'QosPolicyNotFound',
    );
    assertNeutronError(await admin('DELETE', `/qos/policies/${p.id}`), 409, 'QosPolicyInUse');
    const cleared = await c.call('PUT', `/networks/${net.id}`, { network: { qos_policy_id: null } });
    assert.equal(cleared.body.network.qos_policy_id, null);

    const port = await c.create('ports', { network_id: net.id, qos_policy_id: p.id });
    assert.equal(port.qos_policy_id, p.id);
    assertNeutronError(await admin('DELETE', `/qos/policies/${p.id}`), 409, 'QosPolicyInUse');
    const unset = await c.call('PUT', `/ports/${port.id}`, { port: { qos_policy_id: null } });
    assert.equal(unset.body.port.qos_policy_id, null);
    assertNeutronError(
      await c.call('PUT', `/ports/${port.id}`, { port: { qos_policy_id: 'nope' } }),
      404,
      'QosPolicyNotFound',
    );
    assert.equal((await admin('DELETE', `/qos/policies/${p.id}`)).status, 204);
  });

  it('takes zone hints on a network create only, from the zones it has', async () => {
    const net = await c.create('networks', { name: 'az', availability_zone_hints: ['nova'] });
    assert.deepEqual(net.availability_zone_hints, ['nova']);
    assert.deepEqual(net.availability_zones, ['nova']);
    assert.deepEqual((await c.create('networks', { name: 'az0' })).availability_zone_hints, []);
    assertNeutronError(
      await c.call('POST', '/networks', { network: { availability_zone_hints: ['mars'] } }),
      404,
      'AvailabilityZoneNotFound',
    );
    assertNeutronError(
      await c.call('PUT', `/networks/${net.id}`, { network: { availability_zone_hints: ['nova'] } }),
      400,
      'InvalidInput',
    );
  });

  it('schedules networks on DHCP agents, admin only', async () => {
    const net = await c.create('networks', { name: 'dhcp' });
    const agents = (await admin('GET', '/agents')).body.agents as Answer[];
    const [a, b] = agents.filter((x) => x.agent_type === 'DHCP agent').map((x) => x.id as string);
    const l3 = agents.find((x) => x.agent_type === 'L3 agent').id;
    const hosting = async () =>
      (await admin('GET', `/networks/${net.id}/dhcp-agents`)).body.agents.map((x: Answer) => x.id);
    assert.deepEqual(await hosting(), []);
    assertNeutronError(await c.call('GET', `/networks/${net.id}/dhcp-agents`), 403, 'PolicyNotAuthorized');
    assertNeutronError(
      await c.call('POST', `/agents/${a}/dhcp-networks`, { network_id: net.id }),
      403,
      'PolicyNotAuthorized',
    );
    assert.equal((await admin('POST', `/agents/${a}/dhcp-networks`, { network_id: net.id })).status, 201);
    assert.equal((await admin('POST', `/agents/${b}/dhcp-networks`, { network_id: net.id })).status, 201);
    assert.deepEqual((await hosting()).sort(), [a, b].sort());
    assertNeutronError(
      await admin('POST', `/agents/${a}/dhcp-networks`, { network_id: net.id }),
      409,
      'NetworkHostedByDHCPAgent',
    );
    assertNeutronError(
      await admin('POST', `/agents/${l3}/dhcp-networks`, { network_id: net.id }),
      404,
      'InvalidDHCPAgent',
    );
    const onA = (await admin('GET', `/agents/${a}/dhcp-networks`)).body.networks.map((n: Answer) => n.id);
    assert.deepEqual(onA, [net.id]);
    assert.equal((await admin('DELETE', `/agents/${a}/dhcp-networks/${net.id}`)).status, 204);
    assert.deepEqual(await hosting(), [b]);
    assertNeutronError(
      await admin('DELETE', `/agents/${a}/dhcp-networks/${net.id}`),
      409,
      'NetworkNotHostedByDhcpAgent',
    );
    const shown = (await c.call('GET', `/networks/${net.id}`)).body.network;
    assert.ok(!('_dhcp_agents' in shown), 'the scheduling stays private');
  });

  it('gives every network a segment, and lets an admin add segments and tie subnets to them', async () => {
    const net = await c.create('networks', { name: 'routed' });
    assert.equal(net.l2_adjacency, true);
    assertNeutronError(await c.call('GET', `/segments?network_id=${net.id}`), 403, 'PolicyNotAuthorized');
    const implicit = (await admin('GET', `/segments?network_id=${net.id}`)).body.segments as Answer[];
    assert.equal(implicit.length, 1);
    assert.equal(implicit[0].network_id, net.id);
    assert.equal(implicit[0].network_type, 'geneve');
    assert.equal(implicit[0].name, null);
    assert.ok(Number.isInteger(implicit[0].segmentation_id));
    assert.ok(!('project_id' in implicit[0]));

    const made = await admin('POST', '/segments', {
      segment: { network_id: net.id, name: 'rack-2', network_type: 'vlan', physical_network: 'physnet1' },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const rack2 = made.body.segment;
    assert.equal(rack2.segmentation_id, 1);
    assertNeutronError(
      await admin('POST', '/segments', {
        segment: {
          network_id: net.id,
          network_type: 'vlan',
          physical_network: 'physnet1',
          segmentation_id: 1,
        },
      }),
      409,
      'VlanIdInUse',
    );
    assertNeutronError(
      await admin('POST', '/segments', { segment: { network_id: net.id, network_type: 'vlan' } }),
      400,
      'InvalidInput',
    );

    const subnet = await c.create('subnets', {
      network_id: net.id,
      cidr: '10.50.1.0/24',
      segment_id: rack2.id,
    });
    assert.equal(subnet.segment_id, rack2.id);
    assert.equal((await c.call('GET', `/networks/${net.id}`)).body.network.l2_adjacency, false);
    assertNeutronError(
      await c.call('POST', '/subnets', { subnet: { network_id: net.id, cidr: '10.50.2.0/24' } }),
      400,
      'SubnetsNotAllAssociatedWithSegments',
    );
    const other = await c.create('networks', { name: 'other' });
    assertNeutronError(
      await c.call('POST', '/subnets', {
        subnet: { network_id: other.id, cidr: '10.50.3.0/24', segment_id: rack2.id },
      }),
      400,
      'NetworkIdsDontMatch',
    );
    assertNeutronError(
      await c.call('PUT', `/subnets/${subnet.id}`, { subnet: { segment_id: implicit[0].id } }),
      400,
      'SubnetSegmentAssociationChangeNotAllowed',
    );
    assertNeutronError(await admin('DELETE', `/segments/${rack2.id}`), 409, 'SegmentInUse');
    const renamed = await admin('PUT', `/segments/${rack2.id}`, { segment: { name: 'rack-two' } });
    assert.equal(renamed.body.segment.name, 'rack-two');

    // A subnet made without a segment moves onto its network's one segment (routed migration).
    const flat = await c.create('subnets', { network_id: other.id, cidr: '10.50.4.0/24' });
    const [otherSegment] = (await admin('GET', `/segments?network_id=${other.id}`)).body.segments as Answer[];
    const moved = await c.call('PUT', `/subnets/${flat.id}`, { subnet: { segment_id: otherSegment.id } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.subnet.segment_id, otherSegment.id);

    assert.equal((await c.call('DELETE', `/networks/${net.id}`)).status, 204);
    assert.deepEqual((await admin('GET', `/segments?network_id=${net.id}`)).body.segments, []);
  });
});
