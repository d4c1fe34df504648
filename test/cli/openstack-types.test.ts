import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

const TEMPLATE = (name: string) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: ${name}}}
  subnet:
    type: OS::Neutron::Subnet
    properties:
      network_id: {get_resource: net}
      cidr: 10.0.0.0/24
      allocation_pools: [{start: 10.0.0.10, end: 10.0.0.20}]
      dns_nameservers: [${name === 'one' ? '8.8.8.8' : '1.1.1.1'}]
outputs:
  status: {value: {get_attr: [net, status]}}
  gateway: {value: {get_attr: [subnet, gateway_ip]}}
`;

// The CLI's embedded engine drives the sandbox cloud through the OS_* variables, as the openstack
// client would be pointed at it.
describe('OpenStack types through the CLI, on the sandbox cloud', () => {
  const cloud = sandboxCloud();

  const networks = () =>
    cloud.state.list<{ id: string; name: string }>('network').filter((n) => n.name !== 'public');
  /** The subnets of the stack's networks (the seeded public one's left out). */
  const subnets = () => {
    const ours = new Set(networks().map((n) => n.id));
    return cloud.state
      .list<{ id: string; network_id: string; dns_nameservers: string[] }>('subnet')
      .filter((s) => ours.has(s.network_id));
  };

  it('creates, updates and deletes a network and subnet stack (the corpus’s network_id form)', async () => {
    const w = new Workdir({ 'v1.yaml': TEMPLATE('one'), 'v2.yaml': TEMPLATE('two') });
    await w.ok(['stack', 'create', 'n', '-t', 'v1.yaml', '--wait']);
    assert.deepEqual(
      networks().map((n) => n.name),
      ['one'],
    );
    assert.deepEqual(await w.outputs('n'), { status: 'ACTIVE', gateway: '10.0.0.1' });
    const id = networks()[0]!.id;
    assert.deepEqual(
      subnets().map((s) => [s.network_id, s.dns_nameservers]),
      [[id, ['8.8.8.8']]],
    );
    const subnetId = subnets()[0]!.id;
    await w.ok(['stack', 'update', 'n', '-t', 'v2.yaml', '--wait']);
    assert.deepEqual(
      networks().map((n) => [n.id, n.name]),
      [[id, 'two']],
      'renamed in place',
    );
    assert.deepEqual(
      subnets().map((s) => [s.id, s.dns_nameservers]),
      [[subnetId, ['1.1.1.1']]],
      'the subnet updated in place',
    );
    await w.ok(['stack', 'delete', 'n', '--yes', '--wait']);
    assert.deepEqual(networks(), []);
    assert.deepEqual(cloud.state.list('subnet').length, 1, 'only the public subnet is left');
  });
});
