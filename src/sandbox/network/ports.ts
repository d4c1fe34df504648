import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  applyUpdates,
  baseFields,
  type Body,
  checkQuota,
  type Env,
  collection,
  findOwned,
  owningProject,
  invalid,
  member,
  optBool,
  optString,
  save,
  single,
  visibleTo,
  wire,
} from './common.js';
import {
  addressPick,
  defaultSecurityGroup,
  type FloatingIp,
  KIND,
  macAddress,
  type Network,
  type Port,
  resolveFixedIps,
  ROUTER_INTERFACE,
  type SecurityGroup,
} from './model.js';
import { macValue } from './mac.js';
import { findNetwork } from './networks.js';
import { requestedQosPolicy } from './qos.js';

/** Ports: a network's NICs, with addresses from its subnets' pools and security groups. */

export function renderPort(port: Port): Body {
  return wire(port);
}

function securityGroups(ctx: Env, projectId: string, requested: unknown): string[] {
  if (requested === undefined) return [defaultSecurityGroup(ctx, projectId).id];
  if (!Array.isArray(requested)) throw invalid('security_groups must be a list');
  return requested.map((ref: unknown) => {
    const id = String(ref);
    const group =
      ctx.state.get<SecurityGroup>(KIND.securityGroup, id) ??
      ctx.state.list<SecurityGroup>(KIND.securityGroup, { projectId }).find((g) => g.name === id);
    if (!group || group.project_id !== projectId) {
      throw new ApiError(404, `Security group ${id} does not exist`, 'SecurityGroupNotFound');
    }
    return group.id;
  });
}

function addressPairs(value: unknown): { ip_address: string; mac_address: string | null }[] {
  if (!Array.isArray(value)) throw invalid('allowed_address_pairs must be a list');
  return value.map((p: unknown) => {
    const pair = (p ?? {}) as Body;
    if (typeof pair.ip_address !== 'string')
      throw invalid(`${JSON.stringify(p)} is not a valid address pair`);
    return {
      ip_address: pair.ip_address,
      mac_address: typeof pair.mac_address === 'string' ? pair.mac_address : null,
    };
  });
}

export interface NewPort {
  name?: string;
  fixedIps?: unknown;
  deviceId?: string;
  deviceOwner?: string;
  securityGroups?: unknown;
  extra?: Partial<Port>;
}

/** Makes a port on a network: quota, fixed IPs, MAC, default security group. */
export function createPort(ctx: Env, projectId: string, network: Network, spec: NewPort): Port {
  return ctx.state.transaction(() => {
    checkQuota(ctx, 'port', KIND.port, projectId);
    const securityEnabled = spec.extra?.port_security_enabled ?? network.port_security_enabled ?? true;
    const deviceOwner = spec.deviceOwner ?? '';
    const port: Port = {
      ...baseFields(ctx, projectId),
      name: spec.name ?? '',
      network_id: network.id,
      admin_state_up: true,
      mac_address: macAddress(),
      fixed_ips: resolveFixedIps(ctx.state, network.id, spec.fixedIps, undefined, addressPick(ctx)),
      device_id: spec.deviceId ?? '',
      device_owner: deviceOwner,
      // Router interfaces and unsecured ports carry no groups.
      security_groups:
        securityEnabled && !deviceOwner.startsWith('network:')
          ? securityGroups(ctx, projectId, spec.securityGroups)
          : [],
      allowed_address_pairs: [],
      extra_dhcp_opts: [],
      port_security_enabled: securityEnabled,
      status: spec.deviceId ? 'ACTIVE' : 'DOWN',
      'binding:vnic_type': 'normal',
      'binding:host_id': spec.deviceId ? 'sandbox' : '',
      'binding:vif_type': spec.deviceId ? 'ovs' : 'unbound',
      'binding:vif_details': {},
      'binding:profile': {},
      dns_name: '',
      dns_assignment: [],
      qos_policy_id: null,
      propagate_uplink_status: false,
      ...spec.extra,
    };
    if (spec.deviceId) port.status = 'ACTIVE';
    return save(ctx, KIND.port, port, false);
  });
}

/** Deletes a port: its addresses are freed, floating IPs on it disassociated. */
export function deletePort(ctx: Env, port: Port): void {
  ctx.state.transaction(() => {
    for (const fip of ctx.state.list<FloatingIp>(KIND.floatingip)) {
      if (fip.port_id !== port.id) continue;
      save(ctx, KIND.floatingip, {
        ...fip,
        port_id: null,
        fixed_ip_address: null,
        router_id: null,
        status: 'DOWN',
      });
    }
    ctx.state.delete(KIND.port, port.id);
  });
}

/** Changes a port: the fields of a PUT (or of the admin action), fixed IPs reallocated when given. */
export function updatePort(ctx: Env, port: Port, body: Body): Port {
  return ctx.state.transaction(() => {
    const changed = applyUpdates(
      port,
      body,
      ['name', 'description', 'device_id', 'device_owner', 'binding:vnic_type', 'dns_name'],
      ['admin_state_up', 'port_security_enabled', 'propagate_uplink_status'],
    );
    if (body.fixed_ips !== undefined) {
      changed.fixed_ips = resolveFixedIps(
        ctx.state,
        port.network_id,
        body.fixed_ips,
        port.id,
        addressPick(ctx),
      );
    }
    if (body.security_groups !== undefined) {
      changed.security_groups = securityGroups(ctx, port.project_id, body.security_groups);
    }
    if (body.allowed_address_pairs !== undefined)
      changed.allowed_address_pairs = addressPairs(body.allowed_address_pairs);
    if (body.qos_policy_id !== undefined)
      changed.qos_policy_id = (body.qos_policy_id as string | null) ?? null;
    if (body.status !== undefined) changed.status = String(body.status);
    else if (body.device_id !== undefined) changed.status = changed.device_id ? 'ACTIVE' : 'DOWN';
    if (
      changed.port_security_enabled === false &&
      changed.security_groups.length > 0 &&
      body.security_groups === undefined
    ) {
      changed.security_groups = [];
    }
    return save(ctx, KIND.port, changed);
  });
}

function findPort(ctx: SandboxContext, request: FastifyRequest, id: string): Port {
  return findOwned<Port>(ctx, request, KIND.port, 'Port', id);
}

export function registerPorts(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v2.0/ports', async (request) =>
    collection(request, ctx, 'ports', visibleTo<Port>(ctx, request, KIND.port).map(renderPort)),
  );

  app.get<{ Params: { id: string } }>('/v2.0/ports/:id', async (request) =>
    single(request, 'port', renderPort(findPort(ctx, request, request.params.id))),
  );

  app.post('/v2.0/ports', async (request, reply) => {
    const body = member(request, 'port');
    const networkId = optString(body, 'network_id');
    if (networkId === undefined) throw invalid('network_id is required');
    const network = findNetwork(ctx, request, networkId);
    const projectId = owningProject(request, body, 'create_port');
    const extra: Partial<Port> = {};
    const description = optString(body, 'description');
    if (description !== undefined) extra.description = description;
    const admin = optBool(body, 'admin_state_up');
    if (admin !== undefined) extra.admin_state_up = admin;
    const uplink = optBool(body, 'propagate_uplink_status');
    if (uplink !== undefined) extra.propagate_uplink_status = uplink;
    const security = optBool(body, 'port_security_enabled');
    if (security !== undefined) extra.port_security_enabled = security;
    if (security === false && Array.isArray(body.security_groups) && body.security_groups.length > 0) {
      throw new ApiError(
        409,
        'Port has security group associated. Cannot disable port security or ip address until security group is removed.',
        'PortSecurityAndIPRequiredForSecurityGroups',
      );
    }
    if (body.allowed_address_pairs !== undefined)
      extra.allowed_address_pairs = addressPairs(body.allowed_address_pairs);
    const mac = optString(body, 'mac_address');
    if (mac !== undefined) {
      const value = macValue(mac);
      if (value === undefined) throw invalid(`'${mac}' is not a valid MAC address`);
      const taken = ctx.state
        .list<Port>(KIND.port)
        .some((p) => p.network_id === network.id && macValue(p.mac_address) === value);
      if (taken)
        throw new ApiError(
          409,
          `Unable to complete operation for network ${network.id}. The mac address ${mac} is in use.`,
          'MacAddressInUse',
        );
      extra.mac_address = mac;
    }
    for (const key of ['binding:vnic_type', 'dns_name'] as const) {
      const value = optString(body, key);
      if (value !== undefined) extra[key] = value;
    }
    if (Array.isArray(body.tags)) extra.tags = body.tags.map(String);
    const policy = requestedQosPolicy(ctx, request, body);
    if (policy !== undefined) extra.qos_policy_id = policy;
    const port = createPort(ctx, projectId, network, {
      name: optString(body, 'name') ?? '',
      fixedIps: body.fixed_ips,
      deviceId: optString(body, 'device_id') ?? '',
      deviceOwner: optString(body, 'device_owner') ?? '',
      securityGroups: body.security_groups,
      extra,
    });
    return reply.code(201).send({ port: renderPort(port) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/ports/:id', async (request) => {
    const port = findPort(ctx, request, request.params.id);
    const body = member(request, 'port');
    for (const fixed of ['network_id', 'mac_address']) {
      if (body[fixed] !== undefined && body[fixed] !== port[fixed])
        throw invalid(`Cannot update read-only attribute ${fixed}`);
    }
    requestedQosPolicy(ctx, request, body);
    return { port: renderPort(updatePort(ctx, port, body)) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/ports/:id', async (request, reply) => {
    const port = findPort(ctx, request, request.params.id);
    if (port.device_owner === ROUTER_INTERFACE) {
      throw new ApiError(
        409,
        `Port ${port.id} cannot be deleted directly via the port API: has device owner ${ROUTER_INTERFACE}.`,
        'ServicePortInUse',
      );
    }
    deletePort(ctx, port);
    return reply.code(204).send();
  });
}
