import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import { parseEnvironment } from '../../src/template/environment/index.js';
import { defineStackFromText } from '../../src/template/stack-definition.js';
import { CORPUS } from '../support/shared.js';

const types = pluginCatalog(builtinPlugins()).typeCatalog;
const requiresOf = (text: string, parameters: Record<string, string> = {}) => {
  const stack = defineStackFromText('t.yaml', text, {
    types,
    environment: parseEnvironment('env.yaml', JSON.stringify({ parameters })),
  });
  return (name: string) => [...stack.resources.get(name)!.requires].sort();
};

// Heat's add_dependencies: edges the cloud needs that templates do not write.
describe('implicit dependencies of the OpenStack types', () => {
  it('orders the corpus’s floating IPs after the router and the interface on their port’s subnet', () => {
    const text = readFileSync(join(CORPUS, 'hot/servers_in_new_neutron_net.yaml'), 'utf8');
    const requires = requiresOf(text, { public_net: 'public' });
    assert.deepEqual(requires('server1_floating_ip'), ['router', 'router_interface', 'server1_port']);
    assert.deepEqual(requires('server2_floating_ip'), ['router', 'router_interface', 'server2_port']);
    // Written already: the port names its subnet, the interface its router and subnet.
    assert.deepEqual(requires('server1_port'), ['private_net', 'private_subnet']);
  });

  it('makes ports and servers on a network wait for its subnets, never in a loop', () => {
    const requires = requiresOf(`heat_template_version: 2018-08-31
parameters:
  ext: {type: string, default: public}
resources:
  net: {type: OS::Neutron::Net}
  other: {type: OS::Neutron::Net}
  subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}
  other_subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: other}, cidr: 10.1.0.0/24}}
  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: m1.tiny, networks: [{network: {get_resource: net}}]}
  router:
    type: OS::Neutron::Router
    properties: {external_gateway_info: {network: {get_param: ext}}}
  fip:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public, port_id: {get_resource: port}}
  # A subnet that depends on the port: the port must not also wait for it.
  late:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.2.0.0/24}
    depends_on: [port]
`);
    assert.deepEqual(requires('port'), ['net', 'subnet']);
    assert.deepEqual(requires('server'), ['late', 'net', 'subnet']);
    // The router's gateway network and the floating IP's are the same value, written differently.
    assert.deepEqual(requires('fip'), ['port', 'router']);
  });

  it('reads a CloudFormation Ref to a resource as get_resource, one to a parameter as a value', () => {
    const requires = requiresOf(`AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  Net: {Type: String, Default: net}
Resources:
  net: {Type: OS::Neutron::Net}
  subnet: {Type: OS::Neutron::Subnet, Properties: {network: {Ref: net}, cidr: 10.0.0.0/24}}
  port: {Type: OS::Neutron::Port, Properties: {network: {Ref: net}}}
  byName: {Type: OS::Neutron::Port, Properties: {network: {Ref: Net}}}
`);
    assert.deepEqual(requires('port'), ['net', 'subnet']);
    assert.deepEqual(requires('byName'), []);
  });
});
