import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

/**
 * A server on a routed network with a floating IP and a user's port on a second network, tagged.
 * v2 changes both network entries and the tags: Heat updates all of it in place.
 */
const TEMPLATE = (tags: string, networks: string) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: fipnet}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.7.0.0/24}
  other: {type: OS::Neutron::Net, properties: {name: othernet}}
  other_subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: other}, cidr: 10.8.0.0/24}
  router:
    type: OS::Neutron::Router
    properties: {external_gateway_info: {network: public}}
  router_interface:
    type: OS::Neutron::RouterInterface
    properties: {router: {get_resource: router}, subnet: {get_resource: subnet}}
  fip:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public}
  user_port:
    type: OS::Neutron::Port
    depends_on: other_subnet
    properties: {network: {get_resource: other}}
  server:
    type: OS::Nova::Server
    depends_on: [router_interface, other_subnet]
    properties:
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      tags: ${tags}
      networks: ${networks}
outputs:
  novnc: {value: {get_attr: [server, console_urls, novnc]}}
  spice: {value: {get_attr: [server, console_urls, spice-html5]}}
  tags: {value: {get_attr: [server, tags]}}
`;

const V1 = TEMPLATE(
  '[web, blue]',
  '[{network: {get_resource: net}, floating_ip: {get_resource: fip}}, {port: {get_resource: user_port}}]',
);
const V2 = TEMPLATE(
  '[green]',
  '[{network: {get_resource: net}, fixed_ip: 10.7.0.99}, {network: {get_resource: other}, fixed_ip: 10.8.0.77}]',
);

type Server = { id: string; tags: string[]; deletedAt: number | null };
type Port = { id: string; device_id: string; fixed_ips: { ip_address: string }[] };
type FloatingIp = { id: string; port_id: string | null };

describe('OS::Nova::Server networks, floating IP, tags and consoles through the CLI', () => {
  const cloud = sandboxCloud();
  const servers = () => cloud.state.list<Server>('server').filter((s) => s.deletedAt === null);
  const portsOf = (server: string) => cloud.state.list<Port>('port').filter((p) => p.device_id === server);

  it('associates the floating IP, shows consoles and tags, then updates networks and tags in place', async () => {
    const w = new Workdir({ 'v1.yaml': V1, 'v2.yaml': V2 });
    assert.equal(await w.finished(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']), 'CREATE_COMPLETE');
    const [server] = servers();
    assert.ok(server);
    assert.deepEqual(server.tags, ['web', 'blue']);
    const ids = await w.ids('s');
    const [fip] = cloud.state.list<FloatingIp>('floatingip');
    const onNet = portsOf(server.id).find((p) => p.id !== ids.user_port);
    assert.ok(onNet, 'Nova made a port on the network entry');
    assert.equal(fip?.port_id, onNet.id, 'the floating IP is on the server’s port on that network');

    const outputs = await w.outputs('s');
    assert.deepEqual(outputs.tags, ['web', 'blue']);
    assert.match(String(outputs.novnc), /^http:\/\/.*vnc_lite\.html\?path=%3Ftoken%3D[0-9a-f-]{36}$/);
    assert.equal(outputs.spice, 'Cannot get console url: Unavailable console type spice-html5.');

    assert.equal(await w.finished(['stack', 'update', 's', '-t', 'v2.yaml', '--wait']), 'UPDATE_COMPLETE');
    const after = servers();
    assert.deepEqual(
      after.map((s) => [s.id, s.tags]),
      [[server.id, ['green']]],
      'the same server, its tags replaced',
    );
    const ips = portsOf(server.id)
      .flatMap((p) => p.fixed_ips.map((ip) => ip.ip_address))
      .sort();
    assert.deepEqual(ips, ['10.7.0.99', '10.8.0.77'], 'the interfaces of the new entries');
    assert.equal(
      cloud.state.list<Port>('port').some((p) => p.id === onNet.id),
      false,
      'the port Nova made for the old entry is gone',
    );
    const user = cloud.state.list<Port>('port').find((p) => p.id === ids.user_port);
    assert.equal(user?.device_id, '', 'the user’s port is kept, detached');
    assert.equal(cloud.state.list<FloatingIp>('floatingip')[0]?.port_id, null, 'the floating IP is off');
    assert.deepEqual((await w.outputs('s')).tags, ['green']);

    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    assert.deepEqual(servers(), []);
    assert.deepEqual(cloud.state.list('floatingip'), []);
  });
});
