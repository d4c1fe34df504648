import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  applyUpdates,
  baseFields,
  canSee,
  checkQuota,
  collection,
  type Env,
  findOwned,
  member,
  missing,
  optBool,
  optString,
  owningProject,
  adminOnlyFlags,
  save,
  single,
  storedFilters,
  wire,
  zoneHints,
  invalid,
} from './common.js';
import { KIND, type Network, type Port, ROUTER_INTERFACE, type Subnet, subnetsOf } from './model.js';
import { defaultQosPolicy, requestedQosPolicy } from './qos.js';
import { addImplicitSegment, deleteSegmentsOf, l2Adjacent } from './segments.js';

/** Networks: the project's own, the shared ones, and the seeded external `public`. */

export function renderNetwork(ctx: SandboxContext, network: Network, subnets?: Subnet[]) {
  const own = (subnets ?? subnetsOf(ctx.state, network.id)).filter((s) => s.network_id === network.id);
  return { ...wire(network), subnets: own.map((s) => s.id), l2_adjacency: l2Adjacent(own) };
}

/** A network the caller can see (its own, shared, or external), or a 404. */
export function findNetwork(ctx: SandboxContext, request: FastifyRequest, id: string): Network {
  const network = ctx.state.get<Network>(KIND.network, id);
  if (!network || !(canSee(request, network) || network.shared || network['router:external'])) {
    throw missing('Network', id);
  }
  return network;
}

export function newNetwork(ctx: Env, projectId: string, fields: Partial<Network>): Network {
  return {
    ...baseFields(ctx, projectId),
    name: '',
    admin_state_up: true,
    shared: false,
    'router:external': false,
    mtu: 1450,
    status: 'ACTIVE',
    availability_zone_hints: [],
    availability_zones: ['nova'],
    ipv4_address_scope: null,
    ipv6_address_scope: null,
    port_security_enabled: true,
    is_default: false,
    l2_adjacency: true,
    qos_policy_id: null,
    ...fields,
  };
}

/** Deletes a network and its subnets; a port other than a DHCP one keeps it (409 NetworkInUse). */
export function deleteNetwork(ctx: Env, network: Network): void {
  ctx.state.transaction(() => {
    const ports = ctx.state.list<Port>(KIND.port).filter((p) => p.network_id === network.id);
    if (ports.some((p) => p.device_owner !== 'network:dhcp')) {
      throw new ApiError(
        409,
        `Unable to complete operation on network ${network.id}. There are one or more ports still in use on the network.`,
        'NetworkInUse',
      );
    }
    for (const port of ports) ctx.state.delete(KIND.port, port.id);
    for (const subnet of subnetsOf(ctx.state, network.id)) ctx.state.delete(KIND.subnet, subnet.id);
    deleteSegmentsOf(ctx, network.id);
    ctx.state.delete(KIND.network, network.id);
  });
}

export function registerNetworks(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v2.0/networks', async (request) => {
    const subnets = ctx.state.list<Subnet>(KIND.subnet);
    // By name or by description (a create marker, looked up at every create): filtered in SQL.
    const networks = ctx.state
      .list<Network>(KIND.network, { equal: storedFilters(request, ['name', 'description']) })
      .filter((n) => canSee(request, n) || n.shared || n['router:external'])
      .map((n) => renderNetwork(ctx, n, subnets));
    return collection(request, ctx, 'networks', networks);
  });

  app.get<{ Params: { id: string } }>('/v2.0/networks/:id', async (request) =>
    single(request, 'network', renderNetwork(ctx, findNetwork(ctx, request, request.params.id))),
  );

  app.post('/v2.0/networks', async (request, reply) => {
    const body = member(request, 'network');
    const projectId = owningProject(request, body, 'create_network');
    adminOnlyFlags(request, body, ['shared', 'router:external'], 'create_network');
    const fields: Partial<Network> = {};
    for (const key of ['name', 'description'] as const) {
      const value = optString(body, key);
      if (value !== undefined) fields[key] = value;
    }
    for (const key of ['admin_state_up', 'shared', 'router:external', 'port_security_enabled'] as const) {
      const value = optBool(body, key);
      if (value !== undefined) fields[key] = value;
    }
    if (body.mtu !== undefined) {
      if (!Number.isInteger(body.mtu) || (body.mtu as number) < 68) {
        throw new ApiError(
          400,
          `Invalid input for mtu. Reason: '${String(body.mtu)}' is not a valid MTU.`,
          'InvalidInput',
        );
      }
      fields.mtu = body.mtu as number;
    }
    fields.availability_zone_hints = zoneHints(body.availability_zone_hints);
    const network = ctx.state.transaction(() => {
      checkQuota(ctx, 'network', KIND.network, projectId);
      // As Neutron: no policy asked for, the project's default policy (if any).
      fields.qos_policy_id = requestedQosPolicy(ctx, request, body) ?? defaultQosPolicy(ctx, projectId);
      const made = save(ctx, KIND.network, newNetwork(ctx, projectId, fields), false);
      addImplicitSegment(ctx, made);
      return made;
    });
    return reply.code(201).send({ network: renderNetwork(ctx, network, []) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/networks/:id', async (request) => {
    const network = findOwned<Network>(ctx, request, KIND.network, 'Network', request.params.id);
    const body = member(request, 'network');
    adminOnlyFlags(request, body, ['shared', 'router:external'], 'update_network');
    if (body.availability_zone_hints !== undefined)
      throw invalid('Cannot update read-only attribute availability_zone_hints');
    const changed = applyUpdates(
      network,
      body,
      ['name', 'description'],
      ['admin_state_up', 'shared', 'router:external', 'port_security_enabled'],
    );
    if (body.mtu !== undefined) changed.mtu = Number(body.mtu);
    const policy = requestedQosPolicy(ctx, request, body);
    if (policy !== undefined) changed.qos_policy_id = policy;
    return { network: renderNetwork(ctx, save(ctx, KIND.network, changed)) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/networks/:id', async (request, reply) => {
    const network = findOwned<Network>(ctx, request, KIND.network, 'Network', request.params.id);
    deleteNetwork(ctx, network);
    return reply.code(204).send();
  });
}

/** Whether a port is a router's interface (only the router API may remove it). */
export const isRouterPort = (port: Port) => port.device_owner === ROUTER_INTERFACE;
