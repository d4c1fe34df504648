import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPENSTACK_CLIENT_SKIP, openstackClient, sandboxCloud } from '../sandbox/support.js';
import { loadCloudSettings, openCloud } from '../../src/openstack/index.js';
import { sandboxClientEnv } from '../../src/sandbox/index.js';
import { Workdir } from './workdir.js';

// OS::Neutron::Net's and Port's QoS policies, zone hints, DHCP agents and segments, and
// OS::Neutron::Subnet's segment, through `hearth` against the sandbox cloud, with the policies and
// segments made by an administrator with the real openstack client.

const QOS = (netPolicy: string, portPolicy: string) => `heat_template_version: 2018-08-31
resources:
  net:
    type: OS::Neutron::Net
    properties:
      availability_zone_hints: [nova]
${netPolicy}
  port:
    type: OS::Neutron::Port
    properties:
      network: {get_resource: net}
${portPolicy}
outputs:
  net_qos: {value: {get_attr: [net, qos_policy_id]}}
  port_qos: {value: {get_attr: [port, qos_policy_id]}}
`;

const DHCP_A = 'a0d1c6e0-0000-4000-8000-000000000003';
const DHCP_B = 'a0d1c6e0-0000-4000-8000-000000000004';

const ROUTED = (agent: string, segment: string) => `heat_template_version: 2018-08-31
resources:
  net:
    type: OS::Neutron::Net
    properties:
      dhcp_agent_ids: [${agent}]
  subnet:
    type: OS::Neutron::Subnet
    properties:
      network: {get_resource: net}
      cidr: 10.60.0.0/24
${segment}
  routed_subnet:
    type: OS::Neutron::Subnet
    properties: {network: routed, cidr: 10.61.0.0/24, segment: rack-1}
outputs:
  segments: {value: {get_attr: [net, segments]}}
  l2: {value: {get_attr: [net, l2_adjacency]}}
`;

type Network = { id: string; name: string; qos_policy_id: string | null; _dhcp_agents?: string[] };
type Subnet = { id: string; cidr: string; segment_id: string | null };

describe(
  'QoS policies and zone hints of networks and ports through the CLI',
  { skip: OPENSTACK_CLIENT_SKIP },
  () => {
    const cloud = sandboxCloud();

    it('attaches policies by name, detaches a removed one, and refuses an unknown policy or a non-admin scheduling', async () => {
      const admin = openstackClient(cloud.address, 'admin');
      const policy = async (...args: string[]) =>
        (
          JSON.parse(await admin('network', 'qos', 'policy', 'create', ...args, '-f', 'json')) as {
            id: string;
          }
        ).id;
      const gold = await policy('gold', '--project', 'demo');
      const silver = await policy('silver', '--share');

      const w = new Workdir({
        'v1.yaml': QOS('      qos_policy: gold', '      qos_policy: silver'),
        'v2.yaml': QOS('', `      qos_policy: ${gold}`),
        'bad.yaml': QOS('      qos_policy: nope', ''),
        'dhcp.yaml': `heat_template_version: 2018-08-31
resources:
  net:
    type: OS::Neutron::Net
    properties: {dhcp_agent_ids: [${DHCP_A}]}
`,
      });
      await w.ok(['stack', 'create', 'q', '-t', 'v1.yaml', '--wait']);
      const net = () => cloud.state.list<Network>('network').find((n) => n.name.startsWith('q-net'))!;
      const port = () => cloud.state.list<{ id: string; qos_policy_id: string | null }>('port')[0]!;
      assert.equal(net().qos_policy_id, gold);
      assert.equal(port().qos_policy_id, silver);
      assert.deepEqual(await w.outputs('q'), { net_qos: gold, port_qos: silver });
      const shown = JSON.parse(
        await openstackClient(cloud.address)('network', 'show', net().id, '-f', 'json'),
      ) as {
        availability_zone_hints: string[];
        availability_zones: string[];
      };
      assert.deepEqual([shown.availability_zone_hints, shown.availability_zones], [['nova'], ['nova']]);

      const ids = [net().id, port().id];
      await w.ok(['stack', 'update', 'q', '-t', 'v2.yaml', '--wait']);
      assert.equal(net().qos_policy_id, null, 'a policy removed from the template is detached');
      assert.equal(port().qos_policy_id, gold);
      assert.deepEqual([net().id, port().id], ids, 'updated in place');
      const outputs = await w.outputs('q');
      assert.equal(outputs.net_qos, null);
      assert.equal(outputs.port_qos, gold);

      const bad = await w.run(['stack', 'create', 'bad', '-t', 'bad.yaml', '--wait']);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr + bad.stdout, /Unable to find policy with name or id 'nope'/);

      const refused = await w.run(['stack', 'create', 'd', '-t', 'dhcp.yaml', '--wait']);
      assert.notEqual(refused.code, 0);
      assert.equal(await w.status('d'), 'CREATE_FAILED');
      const reasons = (await w.events('d')).map((e) => e.resource_status_reason).join('\n');
      assert.match(
        reasons,
        /Forbidden: resources\.net: \(rule:get_dhcp-agents\) is disallowed by policy \(scheduling the network on its DHCP agents;/,
      );
    });
  },
);

describe(
  'DHCP agents and segments of networks and subnets through the CLI, as an admin',
  { skip: OPENSTACK_CLIENT_SKIP },
  () => {
    const cloud = sandboxCloud({}, { OS_USERNAME: 'admin', OS_PASSWORD: 'admin', OS_PROJECT_NAME: 'admin' });

    it('schedules the network on the agents named, puts subnets on segments, and refuses moving one', async () => {
      const admin = openstackClient(cloud.address, 'admin');
      await admin('network', 'create', 'routed');
      const rack1 = JSON.parse(
        await admin(
          'network',
          'segment',
          'create',
          '--network',
          'routed',
          '--network-type',
          'vlan',
          '--physical-network',
          'physnet1',
          'rack-1',
          '-f',
          'json',
        ),
      ) as { id: string; segmentation_id: number };
      assert.equal(rack1.segmentation_id, 1);

      const w = new Workdir({
        'v1.yaml': ROUTED(DHCP_A, ''),
        'v2.yaml': ROUTED(DHCP_B, '      segment: {get_attr: [net, segments, 0, id]}'),
        'v3.yaml': ROUTED(DHCP_B, '      segment: rack-1'),
      });
      await w.ok(['stack', 'create', 'r', '-t', 'v1.yaml', '--wait']);
      const net = () => cloud.state.list<Network>('network').find((n) => n.name.startsWith('r-net'))!;
      const subnet = (cidr: string) => cloud.state.list<Subnet>('subnet').find((s) => s.cidr === cidr)!;
      assert.deepEqual(net()._dhcp_agents, [DHCP_A]);
      assert.equal(subnet('10.61.0.0/24').segment_id, rack1.id, 'the subnet is on the segment named');
      const v1 = await w.outputs('r');
      const segments = v1.segments as { id: string; network_id: string; network_type: string }[];
      assert.equal(segments.length, 1);
      assert.equal(segments[0]!.network_id, net().id);
      assert.equal(segments[0]!.network_type, 'geneve');
      assert.equal(v1.l2, true);

      const subnetId = subnet('10.60.0.0/24').id;
      await w.ok(['stack', 'update', 'r', '-t', 'v2.yaml', '--wait']);
      assert.deepEqual(net()._dhcp_agents, [DHCP_B], 'moved from one agent to the other');
      assert.equal(subnet('10.60.0.0/24').id, subnetId, 'updated in place');
      assert.equal(subnet('10.60.0.0/24').segment_id, segments[0]!.id, 'put on the segment from none');
      const live = await openCloud(
        loadCloudSettings({ env: sandboxClientEnv(cloud.address, 'admin'), searchPath: [] }),
      ).request<{ network: { l2_adjacency: boolean } }>('network', 'GET', `/networks/${net().id}`);
      assert.equal(live.body.network.l2_adjacency, false, 'a routed network is not L2 adjacent');

      const moved = await w.run(['stack', 'update', 'r', '-t', 'v3.yaml', '--wait']);
      assert.notEqual(moved.code, 0);
      assert.equal(await w.status('r'), 'UPDATE_FAILED');
      const reasons = (await w.events('r')).map((e) => e.resource_status_reason).join('\n');
      assert.match(
        reasons,
        /Updating the subnet segment assciation only allowed when the current segment_id is None/,
      );
      assert.equal(subnet('10.60.0.0/24').segment_id, segments[0]!.id, 'the subnet stays on its segment');

      await w.ok(['stack', 'delete', 'r', '--yes', '--wait']);
      assert.equal(
        cloud.state
          .list<{ id: string; network_id: string }>('segment')
          .filter((s) => s.network_id === segments[0]!.network_id).length,
        0,
        "the network's segment went with it",
      );
    });
  },
);
