import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  applyUpdates,
  baseFields,
  type Body,
  checkQuota,
  collection,
  type Env,
  findOwned,
  invalid,
  isAdmin,
  member,
  optBool,
  optString,
  owningProject,
  save,
  single,
  wire,
} from './common.js';
import {
  checkPools,
  cidrText,
  contains,
  defaultPools,
  formatIp,
  hostRange,
  overlaps,
  parseCidr,
  parseIp,
} from './ip-allocation.js';
import { subnetSegment, updatedSubnetSegment } from './segments.js';
import { KIND, type Port, type Subnet, subnetsOf } from './model.js';
import { findNetwork } from './networks.js';

/** Subnets: an IPv4 range of a network, its gateway and the pools ports get addresses from. */

function stringList(body: Body, key: string): string[] | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw invalid(`${key} must be a list of strings`);
  return value as string[];
}

function hostRoutes(body: Body): { destination: string; nexthop: string }[] | undefined {
  const value = body.host_routes;
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid('host_routes must be a list');
  return value.map((r: unknown) => {
    const route = (r ?? {}) as Body;
    if (
      typeof route.destination !== 'string' ||
      typeof route.nexthop !== 'string' ||
      parseIp(route.nexthop) === undefined
    ) {
      throw invalid(`${JSON.stringify(r)} is not a valid host route`);
    }
    parseCidr(route.destination);
    return { destination: route.destination, nexthop: route.nexthop };
  });
}

/** The gateway of a request: the first host when absent, none when null, else a host of the cidr. */
function gatewayOf(body: Body, cidr: ReturnType<typeof parseCidr>): number | undefined {
  if (body.gateway_ip === null) return undefined;
  if (body.gateway_ip === undefined) return hostRange(cidr).first;
  const ip = typeof body.gateway_ip === 'string' ? parseIp(body.gateway_ip) : undefined;
  if (ip === undefined) throw invalid(`'${String(body.gateway_ip)}' is not a valid IP address`);
  if (!contains(cidr, ip)) {
    throw new ApiError(400, `Gateway IP ${formatIp(ip)} is not in subnet ${cidrText(cidr)}.`, 'InvalidInput');
  }
  return ip;
}

export function registerSubnets(app: FastifyInstance, ctx: SandboxContext): void {
  const visible = (request: Parameters<typeof findNetwork>[1], subnet: Subnet) => {
    try {
      findNetwork(ctx, request, subnet.network_id);
      return true;
    } catch {
      return false;
    }
  };

  app.get('/v2.0/subnets', async (request) => {
    const subnets = ctx.state.list<Subnet>(KIND.subnet).filter((s) => visible(request, s));
    return collection(request, ctx, 'subnets', subnets.map(wire));
  });

  app.get<{ Params: { id: string } }>('/v2.0/subnets/:id', async (request) => {
    const subnet = ctx.state.get<Subnet>(KIND.subnet, request.params.id);
    if (!subnet || !visible(request, subnet)) throw missingSubnet(request.params.id);
    return single(request, 'subnet', wire(subnet));
  });

  app.post('/v2.0/subnets', async (request, reply) => {
    const body = member(request, 'subnet');
    const networkId = optString(body, 'network_id');
    if (networkId === undefined) throw invalid('network_id is required');
    const network = findNetwork(ctx, request, networkId);
    const projectId = owningProject(request, body, 'create_subnet');
    // Only the network's owner (or an admin) adds subnets to it, shared or not.
    if (network.project_id !== projectId && network.project_id !== '' && !isAdmin(request)) {
      throw new ApiError(404, `Network ${networkId} could not be found.`, 'NetworkNotFound');
    }
    const version = body.ip_version === undefined ? 4 : Number(body.ip_version);
    if (version === 6)
      throw new ApiError(400, 'The sandbox serves IPv4 subnets only (ip_version 4).', 'InvalidInput');
    if (version !== 4) throw invalid(`${String(body.ip_version)} is not in [4, 6]`);
    const cidrTextIn = optString(body, 'cidr');
    if (cidrTextIn === undefined) {
      throw new ApiError(
        400,
        'Bad subnets request: a cidr must be specified in the absence of a subnet pool.',
        'BadRequest',
      );
    }
    const cidr = parseCidr(cidrTextIn);
    const gateway = gatewayOf(body, cidr);
    const pools =
      body.allocation_pools === undefined
        ? defaultPools(cidr, gateway)
        : checkPools(cidr, body.allocation_pools, gateway);
    const subnet = ctx.state.transaction(() => {
      for (const other of subnetsOf(ctx.state, network.id)) {
        if (overlaps(parseCidr(other.cidr), cidr)) {
          throw new ApiError(
            400,
            `Invalid input for operation: Requested subnet with cidr: ${cidrText(cidr)} for network: ${network.id} overlaps with another subnet.`,
            'InvalidInput',
          );
        }
      }
      checkQuota(ctx, 'subnet', KIND.subnet, projectId);
      const record: Subnet = {
        ...baseFields(ctx, projectId),
        name: optString(body, 'name') ?? '',
        description: optString(body, 'description') ?? '',
        network_id: network.id,
        cidr: cidrText(cidr),
        ip_version: 4,
        gateway_ip: gateway === undefined ? null : formatIp(gateway),
        allocation_pools: pools,
        enable_dhcp: optBool(body, 'enable_dhcp') ?? true,
        dns_nameservers: stringList(body, 'dns_nameservers') ?? [],
        host_routes: hostRoutes(body) ?? [],
        ipv6_ra_mode: null,
        ipv6_address_mode: null,
        subnetpool_id: null,
        service_types: [],
        segment_id: subnetSegment(ctx, network.id, body.segment_id),
        dns_publish_fixed_ip: false,
      };
      return save(ctx, KIND.subnet, record, false);
    });
    return reply.code(201).send({ subnet: wire(subnet) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/subnets/:id', async (request) => {
    const subnet = findOwned<Subnet>(ctx, request, KIND.subnet, 'Subnet', request.params.id);
    const body = member(request, 'subnet');
    for (const fixed of ['cidr', 'network_id', 'ip_version']) {
      if (body[fixed] !== undefined) throw invalid(`Cannot update read-only attribute ${fixed}`);
    }
    const changed = applyUpdates(subnet, body, ['name', 'description'], ['enable_dhcp']);
    const cidr = parseCidr(subnet.cidr);
    if (body.gateway_ip !== undefined) {
      const gateway = gatewayOf(body, cidr);
      changed.gateway_ip = gateway === undefined ? null : formatIp(gateway);
    }
    // As Neutron: the gateway stays out of the pools, the new ones or (a new gateway) the kept ones.
    if (body.allocation_pools !== undefined || body.gateway_ip !== undefined) {
      const gateway = changed.gateway_ip === null ? undefined : parseIp(changed.gateway_ip);
      const pools = body.allocation_pools === undefined ? subnet.allocation_pools : body.allocation_pools;
      changed.allocation_pools = checkPools(cidr, pools, gateway);
    }
    const dns = stringList(body, 'dns_nameservers');
    if (dns) changed.dns_nameservers = dns;
    const routes = hostRoutes(body);
    if (routes) changed.host_routes = routes;
    if (body.segment_id !== undefined)
      changed.segment_id = updatedSubnetSegment(ctx, subnet, body.segment_id);
    return { subnet: wire(save(ctx, KIND.subnet, changed)) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/subnets/:id', async (request, reply) => {
    const subnet = findOwned<Subnet>(ctx, request, KIND.subnet, 'Subnet', request.params.id);
    deleteSubnet(ctx, subnet);
    return reply.code(204).send();
  });
}

const missingSubnet = (id: string) => new ApiError(404, `Subnet ${id} could not be found.`, 'SubnetNotFound');

/** Deletes a subnet no port has an address on (else 409 SubnetInUse). */
export function deleteSubnet(ctx: Env, subnet: Subnet): void {
  ctx.state.transaction(() => {
    const inUse = ctx.state
      .list<Port>(KIND.port)
      .some((p) => p.device_owner !== 'network:dhcp' && p.fixed_ips.some((ip) => ip.subnet_id === subnet.id));
    if (inUse) {
      throw new ApiError(
        409,
        `Unable to complete operation on subnet ${subnet.id}: One or more ports have an IP allocation from this subnet.`,
        'SubnetInUse',
      );
    }
    ctx.state.delete(KIND.subnet, subnet.id);
  });
}
