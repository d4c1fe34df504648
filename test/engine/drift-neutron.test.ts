import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { diffOf, type DriftRig, driftRig, statuses } from './drift-support.js';

// The corpus's shapes: the external network and the default security group by name, everything
// else by get_resource.
const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: drift-net}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, name: drift-subnet, cidr: 10.3.0.0/24, dns_nameservers: [8.8.8.8]}
  port:
    type: OS::Neutron::Port
    properties:
      network: {get_resource: net}
      name: drift-port
      fixed_ips: [{subnet: {get_resource: subnet}}]
      security_groups: [{get_resource: sg}]
  port2:
    type: OS::Neutron::Port
    properties: {network: {get_resource: net}, security_groups: [default]}
  router:
    type: OS::Neutron::Router
    properties: {name: drift-router, external_gateway_info: {network: public}}
  router_interface:
    type: OS::Neutron::RouterInterface
    properties: {router: {get_resource: router}, subnet: {get_resource: subnet}}
  sg:
    type: OS::Neutron::SecurityGroup
    properties:
      name: drift-sg
      description: web servers
      rules: [{protocol: tcp, port_range_min: 80, port_range_max: 80}, {remote_mode: remote_group_id}]
  sg_rule:
    type: OS::Neutron::SecurityGroupRule
    properties: {security_group: {get_resource: sg}, port_range_min: 22, port_range_max: 22}
  default_rule:
    type: OS::Neutron::SecurityGroupRule
    properties: {security_group: default, port_range_min: 8080, port_range_max: 8080}
  fip:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public, port_id: {get_resource: port}}
  fip2:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public}
  fip2_association:
    type: OS::Neutron::FloatingIPAssociation
    properties: {floatingip_id: {get_resource: fip2}, port_id: {get_resource: port2}}
  test: {type: OS::Heat::TestResource, properties: {value: original}}
`;

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// One stack of every Neutron type, changed behind the engine's back through Neutron's own API (a
// session of its own, as user demo). The cases run in order on the same stack: the floating IPs
// let go of the port before the router interface they need can be removed.
describe('drift of the Neutron types, on the sandbox cloud', () => {
  let rig: DriftRig;
  let ids: Map<string, string>;
  const neutron = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    (await rig.demo.request<Answer>('network', method, path, body)).body;
  const detect = () => rig.detect('n');

  before(async () => {
    rig = await driftRig();
    await rig.create('n', TEMPLATE);
    ids = await rig.ids('n');
  });
  after(() => rig?.close());

  it('finds every resource untouched IN_SYNC: names, the default group and the cloud’s choices are no drift', async () => {
    const found = await detect();
    assert.deepEqual(
      [...found.values()]
        .filter((r) => r.status !== 'IN_SYNC')
        .map((r) => [r.resourceName, r.diff, r.reason]),
      [],
    );
    assert.deepEqual(Object.keys(statuses(found)), [...ids.keys()].sort());
  });

  it('Net: a rename and admin_state_up turned off are MODIFIED', async () => {
    await neutron('PUT', `/networks/${ids.get('net')}`, {
      network: { name: 'renamed', admin_state_up: false },
    });
    const net = (await detect()).get('net');
    assert.equal(net?.status, 'MODIFIED');
    assert.deepEqual(diffOf(net), [
      { property: 'admin_state_up', expected: true, actual: false },
      { property: 'name', expected: 'drift-net', actual: 'renamed' },
    ]);
  });

  it('Subnet: other name servers and a rename are MODIFIED', async () => {
    await neutron('PUT', `/subnets/${ids.get('subnet')}`, {
      subnet: { name: 'other', dns_nameservers: ['1.1.1.1', '9.9.9.9'] },
    });
    const subnet = (await detect()).get('subnet');
    assert.equal(subnet?.status, 'MODIFIED');
    assert.deepEqual(diffOf(subnet), [
      { property: 'dns_nameservers', expected: ['8.8.8.8'], actual: ['1.1.1.1', '9.9.9.9'] },
      { property: 'name', expected: 'drift-subnet', actual: 'other' },
    ]);
  });

  it('Port: another security group and a rename are MODIFIED (the group by its id)', async () => {
    const defaultGroup = (await neutron('GET', '/security-groups?name=default')).security_groups[0].id;
    await neutron('PUT', `/ports/${ids.get('port')}`, {
      port: { name: 'moved', security_groups: [defaultGroup] },
    });
    const port = (await detect()).get('port');
    assert.equal(port?.status, 'MODIFIED');
    assert.deepEqual(diffOf(port), [
      { property: 'name', expected: 'drift-port', actual: 'moved' },
      { property: 'security_groups', expected: [ids.get('sg')], actual: [defaultGroup] },
    ]);
  });

  it('SecurityGroup: a rule deleted, another added and a new description are MODIFIED', async () => {
    const group = (await neutron('GET', `/security-groups/${ids.get('sg')}`)).security_group;
    const http = group.security_group_rules.find((r: Answer) => r.port_range_min === 80);
    await neutron('DELETE', `/security-group-rules/${http.id}`);
    await neutron('POST', '/security-group-rules', {
      security_group_rule: {
        security_group_id: group.id,
        direction: 'ingress',
        protocol: 'tcp',
        port_range_min: 443,
        port_range_max: 443,
        remote_ip_prefix: '0.0.0.0/0',
      },
    });
    await neutron('PUT', `/security-groups/${group.id}`, { security_group: { description: 'by hand' } });
    const sg = (await detect()).get('sg');
    assert.equal(sg?.status, 'MODIFIED');
    const rule = {
      direction: 'ingress',
      ethertype: 'IPv4',
      protocol: 'tcp',
      remote_mode: 'remote_ip_prefix',
    };
    // The rule on the group itself is still the template's, as the template gives it.
    const self = { direction: 'ingress', ethertype: 'IPv4', remote_mode: 'remote_group_id' };
    assert.deepEqual(diffOf(sg), [
      { property: 'description', expected: 'web servers', actual: 'by hand' },
      {
        property: 'rules',
        expected: [{ ...rule, port_range_min: 80, port_range_max: 80 }, self],
        actual: [self, { ...rule, port_range_min: 443, port_range_max: 443, remote_ip_prefix: '0.0.0.0/0' }],
      },
    ]);
  });

  // Neutron updates no field of a rule: the out-of-band change a rule can have is its deletion.
  it('SecurityGroupRule: deleted is DELETED', async () => {
    await neutron('DELETE', `/security-group-rules/${ids.get('sg_rule')}`);
    const rule = (await detect()).get('sg_rule');
    assert.equal(rule?.status, 'DELETED');
    assert.equal(rule?.physicalId, ids.get('sg_rule'));
  });

  it('FloatingIP: let go of its port is MODIFIED', async () => {
    await neutron('PUT', `/floatingips/${ids.get('fip')}`, { floatingip: { port_id: null } });
    const fip = (await detect()).get('fip');
    assert.equal(fip?.status, 'MODIFIED');
    assert.deepEqual(diffOf(fip), [{ property: 'port_id', expected: ids.get('port'), actual: null }]);
  });

  // An association is the pair itself: a floating IP disassociated (or moved) is the association gone.
  it('FloatingIPAssociation: disassociated is DELETED', async () => {
    await neutron('PUT', `/floatingips/${ids.get('fip2')}`, { floatingip: { port_id: null } });
    const found = await detect();
    assert.equal(found.get('fip2_association')?.status, 'DELETED');
    assert.equal(found.get('fip2')?.status, 'IN_SYNC', 'the template gave fip2 no port');
  });

  // An interface has nothing to change but its existence.
  it('RouterInterface: removed is DELETED', async () => {
    const [router, subnet] = ids.get('router_interface')!.split(':subnet_id=');
    await neutron('PUT', `/routers/${router}/remove_router_interface`, { subnet_id: subnet });
    assert.equal((await detect()).get('router_interface')?.status, 'DELETED');
  });

  it('Router: renamed and its gateway cleared is MODIFIED, then deleted is DELETED', async () => {
    await neutron('PUT', `/routers/${ids.get('router')}`, {
      router: { name: 'by-hand', external_gateway_info: null },
    });
    const renamed = (await detect()).get('router');
    assert.equal(renamed?.status, 'MODIFIED');
    assert.deepEqual(diffOf(renamed), [
      { property: 'external_gateway_info', expected: { network: 'public' }, actual: null },
      { property: 'name', expected: 'drift-router', actual: 'by-hand' },
    ]);
    await neutron('DELETE', `/routers/${ids.get('router')}`);
    assert.equal((await detect()).get('router')?.status, 'DELETED');
  });

  it('FloatingIP and Port: deleted are DELETED', async () => {
    await neutron('DELETE', `/floatingips/${ids.get('fip')}`);
    await neutron('DELETE', `/ports/${ids.get('port2')}`);
    const found = await detect();
    assert.equal(found.get('fip')?.status, 'DELETED');
    assert.equal(found.get('port2')?.status, 'DELETED');
  });

  it('TestResource: its value changed is MODIFIED, deleted is DELETED', async () => {
    const id = ids.get('test')!;
    const object = (await rig.h.reality.get('OS::Heat::TestResource', id))!;
    await rig.h.reality.put({ ...object, properties: { ...object.properties, value: 'changed' } });
    const changed = (await detect()).get('test');
    assert.equal(changed?.status, 'MODIFIED');
    assert.deepEqual(diffOf(changed), [{ property: 'value', expected: 'original', actual: 'changed' }]);
    await rig.h.reality.delete('OS::Heat::TestResource', id);
    assert.equal((await detect()).get('test')?.status, 'DELETED');
  });

  it('the whole stack at the end: every change above, nothing else', async () => {
    assert.deepEqual(statuses(await detect()), {
      default_rule: 'IN_SYNC',
      fip: 'DELETED',
      fip2: 'IN_SYNC',
      fip2_association: 'DELETED',
      net: 'MODIFIED',
      port: 'MODIFIED',
      port2: 'DELETED',
      router: 'DELETED',
      router_interface: 'DELETED',
      sg: 'MODIFIED',
      sg_rule: 'DELETED',
      subnet: 'MODIFIED',
      test: 'DELETED',
    });
  });
});
