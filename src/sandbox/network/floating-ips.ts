import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  baseFields,
  type Body,
  checkQuota,
  collection,
  findOwned,
  invalid,
  member,
  optString,
  save,
  single,
  visibleTo,
  wire,
} from './common.js';
import {
  addressPick,
  type FloatingIp,
  KIND,
  type Network,
  type Port,
  resolveFixedIps,
  type Router,
} from './model.js';
import { findNetwork } from './networks.js';
import { interfacesOf } from './routers.js';

/**
 * Floating IPs: an address of an external network, associated with a port's fixed address
 * through the project's router that joins the two networks.
 */

function render(ctx: SandboxContext, fip: FloatingIp): Body {
  const port = fip.port_id ? ctx.state.get<Port>(KIND.port, fip.port_id) : undefined;
  return {
    ...wire(fip),
    port_details: port
      ? {
          name: port.name,
          network_id: port.network_id,
          mac_address: port.mac_address,
          admin_state_up: port.admin_state_up,
          status: port.status,
          device_id: port.device_id,
          device_owner: port.device_owner,
        }
      : null,
  };
}

/** The association's fields: the port's fixed address and the router that reaches it, or Neutron's refusal. */
function association(
  ctx: SandboxContext,
  request: FastifyRequest,
  fip: FloatingIp,
  portId: string,
  fixedIp: string | undefined,
): Pick<FloatingIp, 'port_id' | 'fixed_ip_address' | 'router_id' | 'status'> {
  const port = findOwned<Port>(ctx, request, KIND.port, 'Port', portId);
  const fixed =
    fixedIp === undefined
      ? port.fixed_ips.find((ip) => !ip.ip_address.includes(':'))
      : port.fixed_ips.find((ip) => ip.ip_address === fixedIp);
  if (!fixed) {
    throw new ApiError(
      400,
      fixedIp === undefined
        ? `Bad floatingip request: Port ${port.id} does not have any IPv4 address.`
        : `Bad floatingip request: Port ${port.id} does not have fixed ip ${fixedIp}.`,
      'BadRequest',
    );
  }
  const router = ctx.state
    .list<Router>(KIND.router, { projectId: fip.project_id })
    .find(
      (r) =>
        r.external_gateway_info?.network_id === fip.floating_network_id &&
        interfacesOf(ctx, r.id).some((p) => p.fixed_ips.some((ip) => ip.subnet_id === fixed.subnet_id)),
    );
  if (!router) {
    throw new ApiError(
      404,
      `External network ${fip.floating_network_id} is not reachable from subnet ${fixed.subnet_id}. Therefore, cannot associate Port ${port.id} with a Floating IP.`,
      'ExternalGatewayForFloatingIPNotFound',
    );
  }
  const twin = ctx.state
    .list<FloatingIp>(KIND.floatingip)
    .find((f) => f.id !== fip.id && f.port_id === port.id && f.fixed_ip_address === fixed.ip_address);
  if (twin) {
    throw new ApiError(
      409,
      `Cannot associate floating IP ${fip.floating_ip_address} (${fip.id}) with port ${port.id} using fixed IP ${fixed.ip_address}, as that fixed IP already has a floating IP on external network ${fip.floating_network_id}.`,
      'FloatingIPPortAlreadyAssociated',
    );
  }
  return { port_id: port.id, fixed_ip_address: fixed.ip_address, router_id: router.id, status: 'ACTIVE' };
}

const DISASSOCIATED = { port_id: null, fixed_ip_address: null, router_id: null, status: 'DOWN' };

export function registerFloatingIps(app: FastifyInstance, ctx: SandboxContext): void {
  const find = (request: FastifyRequest, id: string) =>
    findOwned<FloatingIp>(ctx, request, KIND.floatingip, 'Floating IP', id);

  app.get('/v2.0/floatingips', async (request) =>
    collection(
      request,
      ctx,
      'floatingips',
      visibleTo<FloatingIp>(ctx, request, KIND.floatingip).map((f) => render(ctx, f)),
    ),
  );

  app.get<{ Params: { id: string } }>('/v2.0/floatingips/:id', async (request) =>
    single(request, 'floatingip', render(ctx, find(request, request.params.id))),
  );

  app.post('/v2.0/floatingips', async (request, reply) => {
    const body = member(request, 'floatingip');
    const networkId = optString(body, 'floating_network_id');
    if (networkId === undefined) throw invalid('floating_network_id is required');
    const network: Network = findNetwork(ctx, request, networkId);
    if (!network['router:external']) {
      throw new ApiError(
        400,
        `Bad floatingip request: Network ${network.id} is not a valid external network.`,
        'BadRequest',
      );
    }
    const projectId = request.caller.projectId;
    const address = optString(body, 'floating_ip_address');
    const subnetId = optString(body, 'subnet_id');
    const portId = optString(body, 'port_id');
    const fip = ctx.state.transaction(() => {
      checkQuota(ctx, 'floatingip', KIND.floatingip, projectId);
      const wanted = address ? [{ ip_address: address }] : subnetId ? [{ subnet_id: subnetId }] : undefined;
      const [ip] = resolveFixedIps(ctx.state, network.id, wanted, undefined, addressPick(ctx));
      if (!ip) {
        throw new ApiError(
          409,
          `No more IP addresses available on network ${network.id}.`,
          'IpAddressGenerationFailure',
        );
      }
      let record: FloatingIp = {
        ...baseFields(ctx, projectId),
        description: optString(body, 'description') ?? '',
        floating_ip_address: ip.ip_address,
        floating_network_id: network.id,
        ...DISASSOCIATED,
        dns_domain: optString(body, 'dns_domain') ?? '',
        dns_name: optString(body, 'dns_name') ?? '',
        qos_policy_id: null,
        port_forwardings: [],
        _subnet_id: ip.subnet_id,
      };
      if (portId !== undefined) {
        record = {
          ...record,
          ...association(ctx, request, record, portId, optString(body, 'fixed_ip_address')),
        };
      }
      return save(ctx, KIND.floatingip, record, false);
    });
    return reply.code(201).send({ floatingip: render(ctx, fip) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/floatingips/:id', async (request) => {
    const fip = find(request, request.params.id);
    const body = member(request, 'floatingip');
    const changed = ctx.state.transaction(() => {
      let next: FloatingIp = { ...fip };
      const description = optString(body, 'description');
      if (description !== undefined) next.description = description;
      if (body.port_id === null) next = { ...next, ...DISASSOCIATED };
      else if (body.port_id !== undefined) {
        next = {
          ...next,
          ...association(ctx, request, fip, String(body.port_id), optString(body, 'fixed_ip_address')),
        };
      }
      return save(ctx, KIND.floatingip, next);
    });
    return { floatingip: render(ctx, changed) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/floatingips/:id', async (request, reply) => {
    const fip = find(request, request.params.id);
    ctx.state.delete(KIND.floatingip, fip.id);
    return reply.code(204).send();
  });
}
