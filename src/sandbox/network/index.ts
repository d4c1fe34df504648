import { registerAgents } from './agents.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from '../app.js';
import { ApiError } from '../errors.js';
import { baseFields, save } from './common.js';
import { cidrText, defaultPools, formatIp, hostRange, parseCidr } from './ip-allocation.js';
import { KIND, type Network, type Subnet } from './model.js';
import { newNetwork, registerNetworks } from './networks.js';
import { registerFloatingIps } from './floating-ips.js';
import { registerPorts } from './ports.js';
import { registerQosPolicies } from './qos.js';
import { addImplicitSegment, registerSegments } from './segments.js';
import { registerRouters } from './routers.js';
import { registerSecurityGroups } from './security-groups.js';
import { registerSubnets } from './subnets.js';
import { registerTags } from './tags.js';

/**
 * Neutron v2.0 in the sandbox: networks, subnets, ports (with IP allocation), routers, floating
 * IPs, security groups, QoS policies, segments and agents, at `/network/v2.0`. Every project sees the seeded external network
 * `public` (subnet `public-subnet`, 172.24.4.0/24) for router gateways and floating IPs.
 */

export { networkPorts } from './binder.js';
export { networkAdminActions } from './admin.js';

export const PUBLIC_NETWORK = 'public';
export const PUBLIC_CIDR = '172.24.4.0/24';

/** The shared external network, made once per state file. */
export function seedNetworks(ctx: SandboxContext): void {
  ctx.state.transaction(() => {
    const exists = ctx.state
      .list<Network>(KIND.network)
      .some((n) => n.name === PUBLIC_NETWORK && n['router:external']);
    if (exists) return;
    const network = save(
      ctx,
      KIND.network,
      newNetwork(ctx, '', { name: PUBLIC_NETWORK, shared: false, 'router:external': true, mtu: 1500 }),
      false,
    );
    addImplicitSegment(ctx, network);
    const cidr = parseCidr(PUBLIC_CIDR);
    const gateway = hostRange(cidr).first;
    const subnet: Subnet = {
      ...baseFields(ctx, ''),
      name: 'public-subnet',
      network_id: network.id,
      cidr: cidrText(cidr),
      ip_version: 4,
      gateway_ip: formatIp(gateway),
      allocation_pools: defaultPools(cidr, gateway),
      enable_dhcp: false,
      dns_nameservers: [],
      host_routes: [],
      ipv6_ra_mode: null,
      ipv6_address_mode: null,
      subnetpool_id: null,
      service_types: [],
      segment_id: null,
      dns_publish_fixed_ip: false,
    };
    save(ctx, KIND.subnet, subnet, false);
  });
}

const RESOURCES = [
  'network',
  'subnet',
  'port',
  'router',
  'floatingip',
  'security_group',
  'security_group_rule',
  'segment',
];

/** The extensions the sandbox implements (clients check some before using a feature). */
const EXTENSIONS: [alias: string, name: string][] = [
  ['external-net', 'Neutron external network'],
  ['router', 'Neutron L3 Router'],
  ['ext-gw-mode', 'Neutron L3 Configurable external gateway mode'],
  ['security-group', 'security-group'],
  ['port-security', 'Port Security'],
  ['allowed-address-pairs', 'Allowed Address Pairs'],
  ['binding', 'Port Binding'],
  ['quotas', 'Quota management support'],
  ['standard-attr-description', 'standard-attr-description'],
  ['standard-attr-timestamp', 'Resource timestamps'],
  ['standard-attr-revisions', 'Resource revision numbers'],
  [
    'standard-attr-tag',
    'Tag support for resources with standard attribute: subnet, trunk, network_segment_range, router, network, policy, subnetpool, port, security_group, floatingip',
  ],
  ['net-mtu', 'Network MTU'],
  ['project-id', 'project_id field enabled'],
  ['agent', 'agent'],
  ['l3_agent_scheduler', 'L3 Agent Scheduler'],
  ['router_availability_zone', 'Router Availability Zone'],
  ['uplink-status-propagation', 'Uplink status propagation extension'],
  ['dhcp_agent_scheduler', 'DHCP Agent Scheduler'],
  ['availability_zone', 'Availability Zone'],
  ['network_availability_zone', 'Network Availability Zone'],
  ['qos', 'Quality of Service'],
  ['segment', 'Segment'],
  ['subnet-segmentid-writable', 'Subnet SegmentID (writable)'],
  ['l2_adjacency', 'L2 Adjacency'],
];

function version(request: FastifyRequest, ctx: SandboxContext) {
  return {
    id: 'v2.0',
    status: 'CURRENT',
    links: [{ href: `${ctx.baseUrl(request)}/network/v2.0/`, rel: 'self' }],
  };
}

function extension([alias, name]: [string, string]) {
  return { alias, name, description: name, links: [], updated: '2024-01-01T00:00:00-00:00' };
}

function register(app: FastifyInstance, ctx: SandboxContext): void {
  seedNetworks(ctx);
  const discovery = { config: { public: true } };
  app.get('/', discovery, async (request) => ({ versions: [version(request, ctx)] }));
  for (const path of ['/v2.0', '/v2.0/']) {
    app.get(path, discovery, async (request) => ({
      resources: RESOURCES.map((name) => ({
        name,
        collection: `${name}s`,
        links: [{ href: `${ctx.baseUrl(request)}/network/v2.0/${name}s`, rel: 'self' }],
      })),
    }));
  }
  app.get('/v2.0/extensions', async () => ({ extensions: EXTENSIONS.map(extension) }));
  app.get<{ Params: { alias: string } }>('/v2.0/extensions/:alias', async (request) => {
    const found = EXTENSIONS.find(([alias]) => alias === request.params.alias);
    if (!found)
      throw new ApiError(
        404,
        `Extension with alias ${request.params.alias} does not exist`,
        'ExtensionNotFound',
      );
    return { extension: extension(found) };
  });
  registerNetworks(app, ctx);
  registerSubnets(app, ctx);
  registerPorts(app, ctx);
  registerSecurityGroups(app, ctx);
  registerRouters(app, ctx);
  registerFloatingIps(app, ctx);
  registerTags(app, ctx);
  registerAgents(app, ctx);
  registerQosPolicies(app, ctx);
  registerSegments(app, ctx);
}

export const networkService: ServiceModule = {
  name: 'network',
  prefix: '/network',
  authenticated: true,
  noisy: true,
  register,
};
