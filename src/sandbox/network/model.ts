import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { SandboxState } from '../state.js';
import { type Body, type Env, invalid, type Stored, timestamp } from './common.js';
import { type AddressPick, contains, freeAddress, parseCidr, parseIp, type Pool } from './ip-allocation.js';

/**
 * The stored shapes of Neutron's objects and what several resources need of each other: which
 * addresses of a subnet are taken, and allocating fixed IPs for a port.
 */

export const KIND = {
  network: 'network',
  subnet: 'subnet',
  port: 'port',
  router: 'router',
  floatingip: 'floatingip',
  securityGroup: 'security_group',
  securityGroupRule: 'security_group_rule',
  qosPolicy: 'qos_policy',
  segment: 'segment',
} as const;

export type Network = Stored & {
  name: string;
  admin_state_up: boolean;
  shared: boolean;
  'router:external': boolean;
  mtu: number;
  status: string;
  qos_policy_id: string | null;
  availability_zone_hints: string[];
  /** The DHCP agents hosting it (agents.ts). */
  _dhcp_agents?: string[];
};

export type Subnet = Stored & {
  name: string;
  network_id: string;
  cidr: string;
  ip_version: number;
  gateway_ip: string | null;
  allocation_pools: Pool[];
  enable_dhcp: boolean;
  segment_id: string | null;
};

export type FixedIp = {
  subnet_id: string;
  ip_address: string;
};

export type Port = Stored & {
  name: string;
  network_id: string;
  fixed_ips: FixedIp[];
  mac_address: string;
  device_id: string;
  device_owner: string;
  security_groups: string[];
  status: string;
  qos_policy_id: string | null;
  /** Nova made this port for a server (and deletes it with the server). */
  _novaCreated?: boolean;
  /** The order Nova bound the server's ports in. */
  _boundOrder?: number;
};

export type ExternalGateway = {
  network_id: string;
  enable_snat: boolean;
  external_fixed_ips: FixedIp[];
};

export type Router = Stored & {
  name: string;
  external_gateway_info: ExternalGateway | null;
  /** The L3 agents hosting it (agents.ts). */
  _l3_agents?: string[];
};

export type FloatingIp = Stored & {
  floating_ip_address: string;
  floating_network_id: string;
  port_id: string | null;
  fixed_ip_address: string | null;
  router_id: string | null;
  status: string;
  _subnet_id: string;
};

export type SecurityGroup = Stored & {
  name: string;
};

export type SecurityGroupRule = Stored & {
  security_group_id: string;
  direction: string;
  ethertype: string;
  protocol: string | null;
  port_range_min: number | null;
  port_range_max: number | null;
  remote_ip_prefix: string | null;
  remote_group_id: string | null;
};

/** A QoS policy (`qos` extension); its rules are kept in `rules`, as Neutron shows them. */
export type QosPolicy = Stored & {
  name: string;
  shared: boolean;
  is_default: boolean;
  rules: Record<string, unknown>[];
};

/**
 * A network segment (`segment` extension). Segments belong to no project in Neutron: stored
 * shared (`project_id` ''), which the wire shape leaves out.
 */
export type Segment = Stored & {
  network_id: string;
  name: string | null;
  network_type: string;
  physical_network: string | null;
  segmentation_id: number | null;
};

export const ROUTER_INTERFACE = 'network:router_interface';

/** Neutron's MAC addresses: the fa:16:3e prefix and three random bytes. */
export function macAddress(): string {
  return ['fa', '16', '3e', ...[...randomBytes(3)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

export function subnetsOf(state: SandboxState, networkId: string): Subnet[] {
  return state.list<Subnet>(KIND.subnet).filter((s) => s.network_id === networkId);
}

/** Every address of the subnet that is taken: ports', routers' gateways', floating IPs'. */
export function usedAddresses(state: SandboxState, subnetId: string, exceptPort?: string): Set<string> {
  const used = new Set<string>();
  for (const port of state.list<Port>(KIND.port)) {
    if (port.id === exceptPort) continue;
    for (const ip of port.fixed_ips) if (ip.subnet_id === subnetId) used.add(ip.ip_address);
  }
  for (const router of state.list<Router>(KIND.router)) {
    for (const ip of router.external_gateway_info?.external_fixed_ips ?? []) {
      if (ip.subnet_id === subnetId) used.add(ip.ip_address);
    }
  }
  for (const fip of state.list<FloatingIp>(KIND.floatingip)) {
    if (fip._subnet_id === subnetId) used.add(fip.floating_ip_address);
  }
  return used;
}

/** How a port's address is chosen when none is asked for (the `ipAllocation` noise knob). */
export function addressPick(ctx: Env): AddressPick | undefined {
  if (ctx.noise().ipAllocation !== 'random') return undefined;
  const random = ctx.random ?? Math.random;
  return (count) => Math.floor(random() * count);
}

/** The next free address of the subnet's pools, or 409 IpAddressGenerationFailure. */
export function allocateFrom(
  state: SandboxState,
  subnet: Subnet,
  exceptPort?: string,
  pick?: AddressPick,
): string {
  const ip = freeAddress(subnet.allocation_pools, usedAddresses(state, subnet.id, exceptPort), pick);
  if (ip === undefined) {
    throw new ApiError(
      409,
      `No more IP addresses available on network ${subnet.network_id}.`,
      'IpAddressGenerationFailure',
    );
  }
  return ip;
}

/** The first subnet of a network with a free address (for a port that asks for none). */
export function allocateOnNetwork(
  state: SandboxState,
  networkId: string,
  exceptPort?: string,
  pick?: AddressPick,
): FixedIp[] {
  const subnets = subnetsOf(state, networkId).filter((s) => s.ip_version === 4);
  if (subnets.length === 0) return [];
  for (const subnet of subnets) {
    const ip = freeAddress(subnet.allocation_pools, usedAddresses(state, subnet.id, exceptPort), pick);
    if (ip !== undefined) return [{ subnet_id: subnet.id, ip_address: ip }];
  }
  throw new ApiError(
    409,
    `No more IP addresses available on network ${networkId}.`,
    'IpAddressGenerationFailure',
  );
}

/**
 * A port's fixed IPs from its request (`[{subnet_id?, ip_address?}]`), or allocated on its
 * network when it asks for none. An explicit address must be in its subnet and free.
 */
export function resolveFixedIps(
  state: SandboxState,
  networkId: string,
  requested: unknown,
  exceptPort?: string,
  pick?: AddressPick,
): FixedIp[] {
  if (requested === undefined) return allocateOnNetwork(state, networkId, exceptPort, pick);
  if (!Array.isArray(requested)) throw invalid('fixed_ips must be a list');
  const subnets = subnetsOf(state, networkId);
  const result: FixedIp[] = [];
  for (const item of requested as unknown[]) {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Body;
    const address = typeof entry.ip_address === 'string' ? entry.ip_address : undefined;
    const subnetId = typeof entry.subnet_id === 'string' ? entry.subnet_id : undefined;
    if (address !== undefined && parseIp(address) === undefined) {
      throw invalid(`'${address}' is not a valid IP address`);
    }
    let subnet: Subnet | undefined;
    if (subnetId !== undefined) {
      subnet = subnets.find((s) => s.id === subnetId);
      if (!subnet) {
        throw new ApiError(
          400,
          `Invalid input for operation: Failed to create port on network ${networkId}, because fixed_ips included invalid subnet ${subnetId}.`,
          'InvalidInput',
        );
      }
    } else if (address !== undefined) {
      subnet = subnets.find((s) => contains(parseCidr(s.cidr), parseIp(address)!));
      if (!subnet) {
        throw new ApiError(
          400,
          `IP address ${address} is not a valid IP for the specified network.`,
          'InvalidIpForNetwork',
        );
      }
    } else {
      throw invalid('each fixed_ips entry needs a subnet_id or an ip_address');
    }
    if (address === undefined) {
      const taken = new Set([
        ...usedAddresses(state, subnet.id, exceptPort),
        ...result.map((r) => r.ip_address),
      ]);
      const ip = freeAddress(subnet.allocation_pools, taken, pick);
      if (ip === undefined) {
        throw new ApiError(
          409,
          `No more IP addresses available on network ${networkId}.`,
          'IpAddressGenerationFailure',
        );
      }
      result.push({ subnet_id: subnet.id, ip_address: ip });
      continue;
    }
    if (!contains(parseCidr(subnet.cidr), parseIp(address)!)) {
      throw new ApiError(
        400,
        `IP address ${address} is not a valid IP for the specified subnet.`,
        'InvalidIpForSubnet',
      );
    }
    if (
      usedAddresses(state, subnet.id, exceptPort).has(address) ||
      result.some((r) => r.ip_address === address)
    ) {
      throw new ApiError(
        409,
        `IP address ${address} already allocated in subnet ${subnet.id}`,
        'IpAddressAlreadyAllocated',
      );
    }
    result.push({ subnet_id: subnet.id, ip_address: address });
  }
  return result;
}

/** The project's `default` security group, created (with Neutron's default rules) on first need. */
export function defaultSecurityGroup(ctx: Env, projectId: string): SecurityGroup {
  const state = ctx.state;
  return state.transaction(() => {
    const found = state
      .list<SecurityGroup>(KIND.securityGroup, { projectId })
      .find((g) => g.name === 'default');
    if (found) return found;
    const group = newSecurityGroup(ctx, projectId, 'default', 'Default security group');
    // The default group also lets in what comes from its own members.
    for (const ethertype of ['IPv4', 'IPv6']) {
      state.put(
        KIND.securityGroupRule,
        projectId,
        ruleRecord(ctx, projectId, group.id, {
          direction: 'ingress',
          ethertype,
          remote_group_id: group.id,
        }),
      );
    }
    return group;
  });
}

/** A new security group with Neutron's two egress rules (anything out, IPv4 and IPv6). */
export function newSecurityGroup(
  ctx: Env,
  projectId: string,
  name: string,
  description: string,
): SecurityGroup {
  const time = timestamp(ctx);
  const group: SecurityGroup = {
    id: randomUUID(),
    name,
    description,
    project_id: projectId,
    tenant_id: projectId,
    stateful: true,
    created_at: time,
    updated_at: time,
    revision_number: 1,
    tags: [],
  };
  ctx.state.put(KIND.securityGroup, projectId, group);
  for (const ethertype of ['IPv4', 'IPv6']) {
    ctx.state.put(
      KIND.securityGroupRule,
      projectId,
      ruleRecord(ctx, projectId, group.id, { direction: 'egress', ethertype }),
    );
  }
  return group;
}

export function ruleRecord(
  ctx: Env,
  projectId: string,
  groupId: string,
  fields: Partial<SecurityGroupRule>,
): SecurityGroupRule {
  const time = timestamp(ctx);
  return {
    id: randomUUID(),
    security_group_id: groupId,
    direction: 'ingress',
    ethertype: 'IPv4',
    protocol: null,
    port_range_min: null,
    port_range_max: null,
    remote_ip_prefix: null,
    remote_group_id: null,
    remote_address_group_id: null,
    normalized_cidr: null,
    description: '',
    ...fields,
    project_id: projectId,
    tenant_id: projectId,
    created_at: time,
    updated_at: time,
    revision_number: 0,
    tags: [],
  };
}
