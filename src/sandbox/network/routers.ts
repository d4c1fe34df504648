import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  applyUpdates,
  baseFields,
  type Body,
  checkQuota,
  collection,
  findOwned,
  invalid,
  isAdmin,
  member,
  optBool,
  optString,
  save,
  single,
  visibleTo,
  wire,
  zoneHints,
} from './common.js';
import {
  addressPick,
  type ExternalGateway,
  type FloatingIp,
  KIND,
  type Network,
  type Port,
  resolveFixedIps,
  ROUTER_INTERFACE,
  type Router,
  type Subnet,
} from './model.js';
import { findNetwork } from './networks.js';
import { createPort, deletePort } from './ports.js';

/**
 * Routers: a gateway on an external network (with addresses there) and interfaces on the
 * project's subnets, each a port owned by the router holding the subnet's gateway address.
 */

const badRouter = (message: string) => new ApiError(400, `Bad router request: ${message}.`, 'BadRequest');

export function interfacesOf(ctx: SandboxContext, routerId: string): Port[] {
  return ctx.state
    .list<Port>(KIND.port)
    .filter((p) => p.device_owner === ROUTER_INTERFACE && p.device_id === routerId);
}

/** A gateway from its request: an external network and addresses allocated on it. */
function gateway(ctx: SandboxContext, request: FastifyRequest, body: unknown): ExternalGateway | null {
  if (body === null) return null;
  if (typeof body !== 'object' || Array.isArray(body))
    throw invalid('external_gateway_info must be an object');
  const info = body as Body;
  const networkId = optString(info, 'network_id');
  if (networkId === undefined) throw invalid('external_gateway_info needs a network_id');
  const network: Network = findNetwork(ctx, request, networkId);
  if (!network['router:external']) throw badRouter(`Network ${networkId} is not a valid external network`);
  return {
    network_id: network.id,
    enable_snat: optBool(info, 'enable_snat') ?? true,
    external_fixed_ips: resolveFixedIps(
      ctx.state,
      network.id,
      info.external_fixed_ips,
      undefined,
      addressPick(ctx),
    ),
  };
}

function interfaceInfo(router: Router, port: Port): Body {
  const subnetIds = port.fixed_ips.map((ip) => ip.subnet_id);
  return {
    id: router.id,
    tenant_id: router.project_id,
    project_id: router.project_id,
    port_id: port.id,
    network_id: port.network_id,
    subnet_id: subnetIds[0] ?? null,
    subnet_ids: subnetIds,
  };
}

export function registerRouters(app: FastifyInstance, ctx: SandboxContext): void {
  const find = (request: FastifyRequest, id: string) =>
    findOwned<Router>(ctx, request, KIND.router, 'Router', id);

  app.get('/v2.0/routers', async (request) =>
    collection(request, ctx, 'routers', visibleTo<Router>(ctx, request, KIND.router).map(wire)),
  );

  app.get<{ Params: { id: string } }>('/v2.0/routers/:id', async (request) =>
    single(request, 'router', wire(find(request, request.params.id))),
  );

  app.post('/v2.0/routers', async (request, reply) => {
    const body = member(request, 'router');
    const projectId = request.caller.projectId;
    // Neutron's default policy: only an admin chooses a router's flavour.
    for (const key of ['distributed', 'ha']) {
      if (body[key] !== undefined && !isAdmin(request)) {
        throw new ApiError(403, `(rule:create_router:${key}) is disallowed by policy`, 'PolicyNotAuthorized');
      }
    }
    const router = ctx.state.transaction(() => {
      checkQuota(ctx, 'router', KIND.router, projectId);
      const record: Router = {
        ...baseFields(ctx, projectId),
        name: optString(body, 'name') ?? '',
        description: optString(body, 'description') ?? '',
        admin_state_up: optBool(body, 'admin_state_up') ?? true,
        status: 'ACTIVE',
        external_gateway_info:
          body.external_gateway_info === undefined ? null : gateway(ctx, request, body.external_gateway_info),
        routes: [],
        distributed: optBool(body, 'distributed') ?? false,
        ha: optBool(body, 'ha') ?? false,
        availability_zone_hints: zoneHints(body.availability_zone_hints),
        availability_zones: ['nova'],
        flavor_id: null,
      };
      return save(ctx, KIND.router, record, false);
    });
    return reply.code(201).send({ router: wire(router) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/routers/:id', async (request) => {
    const router = find(request, request.params.id);
    const body = member(request, 'router');
    if (body.availability_zone_hints !== undefined)
      throw invalid('Cannot update read-only attribute availability_zone_hints');
    const changed = ctx.state.transaction(() => {
      const next = applyUpdates(router, body, ['name', 'description'], ['admin_state_up']);
      if (Array.isArray(body.routes)) next.routes = body.routes as Body[] as never;
      if (body.external_gateway_info !== undefined) {
        const used = ctx.state.list<FloatingIp>(KIND.floatingip).some((f) => f.router_id === router.id);
        if (used && body.external_gateway_info === null) {
          throw new ApiError(
            409,
            `Gateway cannot be updated for router ${router.id}, since a gateway to external network ${router.external_gateway_info?.network_id} is required by one or more floating IPs.`,
            'RouterExternalGatewayInUseByFloatingIp',
          );
        }
        // Its own gateway addresses are free to keep while the new ones are chosen.
        save(ctx, KIND.router, { ...router, external_gateway_info: null }, false);
        next.external_gateway_info = gateway(ctx, request, body.external_gateway_info);
      }
      return save(ctx, KIND.router, next);
    });
    return { router: wire(changed) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/routers/:id', async (request, reply) => {
    const router = find(request, request.params.id);
    ctx.state.transaction(() => {
      const inUse =
        interfacesOf(ctx, router.id).length > 0 ||
        ctx.state.list<FloatingIp>(KIND.floatingip).some((f) => f.router_id === router.id);
      if (inUse) {
        throw new ApiError(
          409,
          `Router ${router.id} still has ports: it has interfaces or floating IPs in use.`,
          'RouterInUse',
        );
      }
      ctx.state.delete(KIND.router, router.id);
    });
    return reply.code(204).send();
  });

  app.put<{ Params: { id: string } }>('/v2.0/routers/:id/add_router_interface', async (request) => {
    const router = find(request, request.params.id);
    const body = (request.body ?? {}) as Body;
    const subnetId = optString(body, 'subnet_id');
    const portId = optString(body, 'port_id');
    if ((subnetId === undefined) === (portId === undefined)) {
      throw badRouter('Either subnet_id or port_id must be specified, and not both');
    }
    const port = ctx.state.transaction(() => {
      const existing = interfacesOf(ctx, router.id).flatMap((p) => p.fixed_ips.map((ip) => ip.subnet_id));
      if (portId !== undefined) {
        const given = findOwned<Port>(ctx, request, KIND.port, 'Port', portId);
        if (given.device_id !== '') {
          throw new ApiError(
            409,
            `Unable to complete operation on port ${given.id} for network ${given.network_id}. Port already has an attached device ${given.device_id}.`,
            'PortInUse',
          );
        }
        if (given.fixed_ips.length !== 1) throw badRouter(`Router port must have exactly one fixed IP`);
        if (existing.includes(given.fixed_ips[0]!.subnet_id)) {
          throw badRouter(`Router already has a port on subnet ${given.fixed_ips[0]!.subnet_id}`);
        }
        return save(ctx, KIND.port, {
          ...given,
          device_id: router.id,
          device_owner: ROUTER_INTERFACE,
          security_groups: [],
          status: 'ACTIVE',
        });
      }
      const subnet = findOwned<Subnet>(ctx, request, KIND.subnet, 'Subnet', subnetId!);
      if (subnet.gateway_ip === null) throw badRouter(`Subnet ${subnet.id} does not have a gateway IP`);
      if (existing.includes(subnet.id)) throw badRouter(`Router already has a port on subnet ${subnet.id}`);
      const network = ctx.state.get<Network>(KIND.network, subnet.network_id)!;
      return createPort(ctx, router.project_id, network, {
        fixedIps: [{ subnet_id: subnet.id, ip_address: subnet.gateway_ip }],
        deviceId: router.id,
        deviceOwner: ROUTER_INTERFACE,
      });
    });
    save(ctx, KIND.router, router);
    return interfaceInfo(router, port);
  });

  app.put<{ Params: { id: string } }>('/v2.0/routers/:id/remove_router_interface', async (request) => {
    const router = find(request, request.params.id);
    const body = (request.body ?? {}) as Body;
    const subnetId = optString(body, 'subnet_id');
    const portId = optString(body, 'port_id');
    if (subnetId === undefined && portId === undefined) {
      throw badRouter('Either subnet_id or port_id must be specified');
    }
    const port = ctx.state.transaction(() => {
      const ports = interfacesOf(ctx, router.id);
      const found =
        portId !== undefined
          ? ports.find((p) => p.id === portId)
          : ports.find((p) => p.fixed_ips.some((ip) => ip.subnet_id === subnetId));
      if (!found) {
        throw portId !== undefined
          ? new ApiError(
              404,
              `Router ${router.id} does not have an interface with id ${portId}.`,
              'RouterInterfaceNotFound',
            )
          : new ApiError(
              404,
              `Router ${router.id} has no interface on subnet ${subnetId}.`,
              'RouterInterfaceNotFoundForSubnet',
            );
      }
      const subnets = found.fixed_ips.map((ip) => ip.subnet_id);
      const fips = ctx.state.list<FloatingIp>(KIND.floatingip).filter((f) => f.router_id === router.id);
      for (const fip of fips) {
        const fixedPort = fip.port_id ? ctx.state.get<Port>(KIND.port, fip.port_id) : undefined;
        if (
          fixedPort?.fixed_ips.some(
            (ip) => subnets.includes(ip.subnet_id) && ip.ip_address === fip.fixed_ip_address,
          )
        ) {
          throw new ApiError(
            409,
            `Cannot remove router interface of subnet ${subnets[0]} from router ${router.id}: floating IP ${fip.id} needs it.`,
            'RouterInterfaceInUseByFloatingIP',
          );
        }
      }
      deletePort(ctx, found);
      return found;
    });
    save(ctx, KIND.router, router);
    return interfaceInfo(router, port);
  });
}
