import { ApiError } from '../errors.js';
import { defaultNoise, type Noise, type Random } from '../noise.js';
import type { SandboxState } from '../state.js';
import type { NicRequest, PortBinder, ServerAddress } from '../bindings.js';
import { type Env, save } from './common.js';
import {
  defaultSecurityGroup,
  type FloatingIp,
  KIND,
  type Network,
  type Port,
  type SecurityGroup,
  subnetsOf,
} from './model.js';
import { createPort, deletePort } from './ports.js';

/**
 * Neutron's side of Nova's server NICs: binding ports to servers, and the addresses Nova shows.
 * Errors are Nova's answers (the compute API throws them to its client).
 */

export interface BinderClock {
  /** The sandbox clock (timestamps); default Date.now. */
  now?: () => number;
  /** The noise knobs (port quotas, address allocation); default: no quotas. */
  noise?: () => Noise;
  /** The noise's random draws (a random address); default Math.random. */
  random?: Random;
}

export function networkPorts(state: SandboxState, clock: BinderClock = {}): PortBinder {
  const env: Env = {
    state,
    now: () => (clock.now ?? Date.now)(),
    noise: () => (clock.noise ?? defaultNoise)(),
    ...(clock.random ? { random: clock.random } : {}),
  };

  /**
   * The server's ports: those naming it as their device, of the server's project (as Nova lists
   * an instance's ports by device_id and tenant): anyone may set a port's device_id, and another
   * project's port must not show among the server's addresses nor be unbound with it.
   */
  const serverPorts = (serverId: string) => {
    const projectId = state.owner('server', serverId);
    // Filtered by SQLite first: a server list (every server's addresses) would parse every port each.
    return state
      .list<Port>(KIND.port, { equal: { device_id: [serverId] } })
      .filter(
        (p) =>
          p.device_id === serverId &&
          p.device_owner.startsWith('compute:') &&
          (projectId === undefined || projectId === null || p.project_id === projectId),
      )
      .sort((a, b) => (a._boundOrder ?? 0) - (b._boundOrder ?? 0));
  };

  const nextOrder = (serverId: string) =>
    serverPorts(serverId).reduce((max, p) => Math.max(max, p._boundOrder ?? 0), 0) + 1;

  const usable = (projectId: string, network: Network | undefined) =>
    network !== undefined &&
    (network.project_id === projectId || network.project_id === '' || network.shared);

  /** A port off its server: deleted when Nova made it, else unbound. */
  const release = (port: Port) => {
    if (port._novaCreated) {
      deletePort(env, port);
      return;
    }
    const { _boundOrder: _, ...rest } = port;
    save(env, KIND.port, {
      ...rest,
      device_id: '',
      device_owner: '',
      status: 'DOWN',
      'binding:host_id': '',
      'binding:vif_type': 'unbound',
    });
  };

  return {
    bind(projectId: string, serverId: string, nic: NicRequest) {
      return state.transaction(() => {
        if (nic.portId !== undefined) {
          const port = state.get<Port>(KIND.port, nic.portId);
          if (!port || port.project_id !== projectId) {
            throw new ApiError(404, `Port ${nic.portId} could not be found.`);
          }
          if (port.device_id !== '' && port.device_id !== serverId) {
            throw new ApiError(409, `Port ${port.id} is still in use.`);
          }
          save(env, KIND.port, {
            ...port,
            device_id: serverId,
            device_owner: 'compute:nova',
            status: 'ACTIVE',
            'binding:host_id': 'sandbox',
            'binding:vif_type': 'ovs',
            _boundOrder: nextOrder(serverId),
          });
          return { portId: port.id };
        }
        if (nic.networkId === undefined) throw new ApiError(400, 'A network or a port is required.');
        const network = state.get<Network>(KIND.network, nic.networkId);
        if (!usable(projectId, network)) {
          throw new ApiError(400, `Network ${nic.networkId} could not be found.`);
        }
        const fixedIps = nic.fixedIp === undefined ? undefined : [{ ip_address: nic.fixedIp }];
        try {
          const port = createPort(env, projectId, network!, {
            fixedIps,
            ...(nic.securityGroups ? { securityGroups: nic.securityGroups } : {}),
            deviceId: serverId,
            deviceOwner: 'compute:nova',
            extra: { _novaCreated: true, _boundOrder: nextOrder(serverId) },
          });
          return { portId: port.id };
        } catch (error) {
          // Nova's words for Neutron's refusals.
          if (error instanceof ApiError && error.type === 'IpAddressAlreadyAllocated') {
            throw new ApiError(
              409,
              `Fixed IP address ${nic.fixedIp} is already in use on instance ${serverId}.`,
            );
          }
          if (error instanceof ApiError && error.type === 'OverQuota') {
            throw new ApiError(403, 'Maximum number of ports exceeded');
          }
          if (error instanceof ApiError && error.status === 409) throw new ApiError(409, error.message);
          if (error instanceof ApiError) throw new ApiError(400, error.message);
          throw error;
        }
      });
    },

    unbind(serverId: string, portId: string) {
      state.transaction(() => {
        const port = serverPorts(serverId).find((p) => p.id === portId);
        if (!port) throw new ApiError(404, `Port ${portId} could not be found.`);
        release(port);
      });
    },

    unbindAll(serverId: string) {
      state.transaction(() => {
        for (const port of serverPorts(serverId)) release(port);
      });
    },

    addresses(serverId: string) {
      const result: Record<string, ServerAddress[]> = {};
      const floating = state.list<FloatingIp>(KIND.floatingip);
      for (const port of serverPorts(serverId)) {
        const network = state.get<Network>(KIND.network, port.network_id);
        const name = network?.name || port.network_id;
        const list = (result[name] ??= []);
        const entry = (addr: string, type: 'fixed' | 'floating'): ServerAddress => ({
          addr,
          version: addr.includes(':') ? 6 : 4,
          'OS-EXT-IPS:type': type,
          'OS-EXT-IPS-MAC:mac_addr': port.mac_address,
        });
        for (const ip of port.fixed_ips) list.push(entry(ip.ip_address, 'fixed'));
        for (const fip of floating)
          if (fip.port_id === port.id) list.push(entry(fip.floating_ip_address, 'floating'));
      }
      return result;
    },

    securityGroupIds(projectId: string, refs: readonly string[]) {
      // Neutron makes a project's default group when it is first needed.
      if (refs.includes('default')) defaultSecurityGroup(env, projectId);
      const groups = state.list<SecurityGroup>(KIND.securityGroup, { projectId });
      return refs.map((ref) => {
        // Nova's order: a name wins over an id; a name two groups have is ambiguous.
        const named = groups.filter((g) => g.name === ref);
        if (named.length > 1) {
          throw new ApiError(
            409,
            `Multiple security groups found matching '${ref}'. Use an ID to be more specific.`,
          );
        }
        const group = named[0] ?? groups.find((g) => g.id === ref);
        if (!group) throw new ApiError(400, `Security group ${ref} not found.`);
        return group.id;
      });
    },

    securityGroupNames(serverId: string) {
      const names: string[] = [];
      for (const port of serverPorts(serverId)) {
        for (const id of port.security_groups) {
          const group = state.get<SecurityGroup>(KIND.securityGroup, id);
          const name = group ? group.name || group.id : undefined;
          if (name !== undefined && !names.includes(name)) names.push(name);
        }
      }
      return names;
    },

    securable(networkId: string) {
      const network = state.get<Network & { port_security_enabled?: boolean }>(KIND.network, networkId);
      if (!network || network.port_security_enabled === false) return true;
      return subnetsOf(state, networkId).length > 0;
    },

    defaultNetwork(projectId: string) {
      const own = state.list<Network>(KIND.network, { projectId }).filter((n) => !n['router:external']);
      return own.length === 1 ? own[0]!.id : undefined;
    },
  };
}
