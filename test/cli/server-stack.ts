/**
 * The smallest stack that boots a server on the sandbox cloud: a network (named `net`), its
 * subnet and a server on it. `serverLines` adds properties to the server (indented as they are),
 * `more` resources or outputs after it (from column 0, e.g. `outputs:` or `  marker: ...`).
 */
export function serverStack(net: string, cidr: string, { serverLines = '', more = '' } = {}): string {
  return `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: ${net}}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: ${cidr}}
  server:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
${serverLines}${more}`;
}
