import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Cloud } from '../../../src/openstack/index.js';
import { CLOUD_CONSTRAINTS } from '../../../src/resources/openstack/constraints.js';
import { neutronNetPlugin } from '../../../src/resources/openstack/neutron/net.js';
import { neutronPortPlugin } from '../../../src/resources/openstack/neutron/port.js';
import { neutronSubnetPlugin } from '../../../src/resources/openstack/neutron/subnet.js';
import { type ListeningSandbox, listeningSandbox } from '../../sandbox/support.js';
import { FakeResource } from '../helpers.js';

// OS::Neutron::Net's QoS policy, DHCP agents and segments, and OS::Neutron::Subnet's segment,
// against the sandbox cloud over HTTP: as an administrator (Neutron's policy for agents and
// segments) and as a project member.

type Answer = Record<string, unknown>;
const DHCP_A = 'a0d1c6e0-0000-4000-8000-000000000003';
const DHCP_B = 'a0d1c6e0-0000-4000-8000-000000000004';

describe('OS::Neutron::Net and Subnet: QoS policies, DHCP agents, segments', () => {
  let sandbox: ListeningSandbox;
  let admin: Cloud;
  let demo: Cloud;
  before(async () => {
    sandbox = await listeningSandbox();
    admin = sandbox.open('admin');
    demo = sandbox.open('demo');
  });
  after(async () => {
    await admin?.close();
    await demo?.close();
    await sandbox?.app.close();
  });

  const get = async (cloud: Cloud, path: string) =>
    (await cloud.request<Answer>('network', 'GET', path)).body;
  const post = async (path: string, body: Answer) =>
    (await admin.request<Answer>('network', 'POST', path, body)).body;
  const resource = (plugin: typeof neutronNetPlugin, cloud: Cloud, key: string) => {
    const r = new FakeResource(plugin, { name: 'r', stackName: 'st', key });
    r.cloud = cloud;
    return r;
  };
  const hosting = async (id: string) =>
    ((await get(admin, `/networks/${id}/dhcp-agents`)).agents as Answer[]).map((a) => a.id);

  it('schedules on the agents named (again idempotently), moves them on update, and clears a policy', async () => {
    const gold = (await post('/qos/policies', { policy: { name: 'gold' } })).policy as Answer;
    const net = resource(neutronNetPlugin, admin, 'key-sched');
    await net.create({ name: 'sched', qos_policy: 'gold', dhcp_agent_ids: [DHCP_A] });
    const id = net.physicalId!;
    assert.deepEqual(await hosting(id), [DHCP_A]);
    assert.equal(await net.attribute('qos_policy_id'), gold.id);

    // A create run again after a crash finds the network, and schedules nothing twice.
    const again = resource(neutronNetPlugin, admin, 'key-sched');
    await again.create({ name: 'sched', qos_policy: 'gold', dhcp_agent_ids: [DHCP_A] });
    assert.equal(again.physicalId, id);
    assert.deepEqual(await hosting(id), [DHCP_A]);

    const live = await neutronNetPlugin.getReality(net.ctx());
    assert.equal(live.state, 'present');
    if (live.state === 'present') {
      assert.equal(live.properties.qos_policy, 'gold', 'the template named the live policy: no drift');
      assert.deepEqual(live.properties.dhcp_agent_ids, [DHCP_A]);
    }

    // An agent already hosting the network (added behind Heat's back) is no error.
    await post(`/agents/${DHCP_B}/dhcp-networks`, { network_id: id });
    await net.update({ name: 'sched', qos_policy: null, dhcp_agent_ids: [DHCP_B] });
    assert.deepEqual(await hosting(id), [DHCP_B]);
    assert.equal(((await get(admin, `/networks/${id}`)).network as Answer).qos_policy_id, null);
    const port = resource(neutronPortPlugin, admin, 'key-qos-port');
    await port.create({ network: id, qos_policy: 'gold' });
    const portPolicy = async () =>
      ((await get(admin, `/ports/${port.physicalId}`)).port as Answer).qos_policy_id;
    assert.equal(await portPolicy(), gold.id);
    const portLive = await neutronPortPlugin.getReality(port.ctx());
    assert.equal(portLive.state === 'present' && portLive.properties.qos_policy, 'gold');
    await port.update({ network: id, qos_policy: null });
    assert.equal(await portPolicy(), null, "a port's policy removed is detached");
    await port.delete();
    await net.update({ name: 'sched', qos_policy: gold.id as string, dhcp_agent_ids: [] });
    assert.deepEqual(await hosting(id), []);
    assert.equal(await net.attribute('qos_policy_id'), gold.id);
    await net.delete();
  });

  it("reads a network's segments unnamed first, and none for a project member", async () => {
    const net = resource(neutronNetPlugin, admin, 'key-segments');
    await net.create({ name: 'seg' });
    await post('/segments', {
      segment: { network_id: net.physicalId, name: 'rack', network_type: 'vlan', physical_network: 'p1' },
    });
    const segments = (await net.attribute('segments')) as Answer[];
    assert.deepEqual(
      segments.map((s) => [s.name, s.network_type]),
      [
        [null, 'geneve'],
        ['rack', 'vlan'],
      ],
    );
    assert.equal(await net.attribute('l2_adjacency'), true);

    const own = resource(neutronNetPlugin, demo, 'key-demo-segments');
    await own.create({ name: 'mine' });
    assert.equal(await own.attribute('segments'), null, 'Neutron shows segments to admins only');
    await own.delete();
  });

  it('puts a subnet on a segment by name, from none on update, and refuses changing it after', async () => {
    const net = resource(neutronNetPlugin, admin, 'key-routed');
    await net.create({ name: 'routed' });
    const [implicit] = (await get(admin, `/segments?network_id=${net.physicalId}`)).segments as Answer[];
    const subnet = resource(neutronSubnetPlugin, admin, 'key-routed-subnet');
    await subnet.create({ network: 'routed', cidr: '10.90.0.0/24' });
    const shown = async () => (await get(admin, `/subnets/${subnet.physicalId}`)).subnet as Answer;
    assert.equal((await shown()).segment_id, null);
    await subnet.update({ network: 'routed', cidr: '10.90.0.0/24', segment: implicit!.id as string });
    assert.equal((await shown()).segment_id, implicit!.id);
    assert.equal(await net.attribute('l2_adjacency'), false);
    const live = await neutronSubnetPlugin.getReality(subnet.ctx());
    assert.equal(live.state === 'present' && live.properties.segment, implicit!.id);

    const other = (await post('/segments', {
      segment: { network_id: net.physicalId, name: 'rack-9', network_type: 'vxlan' },
    })) as { segment: Answer };
    await assert.rejects(
      subnet.update({ network: 'routed', cidr: '10.90.0.0/24', segment: 'rack-9' }),
      /ResourceActionNotSupported: Updating the subnet segment assciation only allowed when the current segment_id is None/,
    );
    assert.equal((await shown()).segment_id, implicit!.id);

    const named = resource(neutronSubnetPlugin, admin, 'key-on-rack');
    const net2 = resource(neutronNetPlugin, admin, 'key-routed-2');
    await net2.create({ name: 'routed-2' });
    const rack = (await post('/segments', {
      segment: { network_id: net2.physicalId, name: 'rack-2', network_type: 'vxlan' },
    })) as { segment: Answer };
    await named.create({ network: 'routed-2', cidr: '10.91.0.0/24', segment: 'rack-2' });
    assert.equal(
      ((await get(admin, `/subnets/${named.physicalId}`)).subnet as Answer).segment_id,
      rack.segment.id,
    );
    assert.ok(other.segment.id);
  });

  it('checks neutron.qos_policy and neutron.segment in the cloud, in the words of the clients Heat uses', async () => {
    const policy = CLOUD_CONSTRAINTS['neutron.qos_policy']!;
    const segment = CLOUD_CONSTRAINTS['neutron.segment']!;
    assert.equal(await policy(admin, 'gold'), undefined);
    assert.equal(await policy(demo, 'nope'), "Unable to find policy with name or id 'nope'");
    assert.equal(await segment(admin, 'rack-2'), undefined);
    assert.equal(await segment(admin, 'nope'), 'No Segment found for nope');
    await assert.rejects(segment(demo, 'rack-2'), /get_segment\) is disallowed by policy/);
  });
});
