import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

// The corpus's router shape (servers_in_new_neutron_net.yaml, without the servers): a private
// network joined to `public` by a router, and a floating IP of `public`.
const TEMPLATE = (snat: boolean) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network_id: {get_resource: net}, cidr: 10.0.0.0/24}
  router:
    type: OS::Neutron::Router
    properties:
      external_gateway_info: {network: public, enable_snat: ${snat}}
  router_interface:
    type: OS::Neutron::RouterInterface
    properties:
      router_id: {get_resource: router}
      subnet_id: {get_resource: subnet}
  fip:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public}
outputs:
  address: {value: {get_attr: [fip, floating_ip_address]}}
  router_status: {value: {get_attr: [router, status]}}
  interface: {value: {get_resource: router_interface}}
`;

describe('routers and floating IPs through the CLI, on the sandbox cloud', () => {
  const cloud = sandboxCloud();

  type Router = { id: string; external_gateway_info: { enable_snat: boolean } | null };

  it('creates, updates the gateway in place and deletes a routed network with a floating IP', async () => {
    const w = new Workdir({ 'v1.yaml': TEMPLATE(true), 'v2.yaml': TEMPLATE(false) });
    await w.ok(['stack', 'create', 'l3', '-t', 'v1.yaml', '--wait']);
    const outputs = (await w.outputs('l3')) as Record<string, string>;
    assert.match(outputs.address!, /^172\.24\.4\.\d+$/);
    assert.equal(outputs.router_status, 'ACTIVE');
    const [router] = cloud.state.list<Router>('router');
    assert.equal(
      outputs.interface,
      `${router!.id}:subnet_id=${cloud.state.list<{ id: string; name: string }>('subnet').find((s) => s.name !== 'public-subnet')!.id}`,
    );

    await w.ok(['stack', 'update', 'l3', '-t', 'v2.yaml', '--wait']);
    const after = cloud.state.list<Router>('router');
    assert.deepEqual(
      after.map((r) => [r.id, r.external_gateway_info?.enable_snat]),
      [[router!.id, false]],
      'the same router, its gateway changed in place',
    );

    await w.ok(['stack', 'delete', 'l3', '--yes', '--wait']);
    assert.deepEqual(cloud.state.list('router'), []);
    assert.deepEqual(cloud.state.list('floatingip'), []);
    assert.equal(cloud.state.list('subnet').length, 1, 'only the public subnet is left');
  });
});
