import type { ImplicitDependencyRule, ImplicitView } from '../../../template/types.js';

/**
 * Heat's implicit dependencies among the Neutron and Nova types (their `add_dependencies`): what a
 * cloud needs made first that templates rarely write down, such as the router interface that makes
 * a floating IP's port reachable. Identities compare properties as written (see
 * template/implicit-dependencies.ts).
 */

const same = (a: string | undefined, b: string | undefined) => a !== undefined && a === b;

const networkOf = (v: ImplicitView) => v.identity('network') ?? v.identity('network_id');

/** Depends on every Subnet of the template on one of the networks `networks` names. */
export function subnetsOf(networks: (self: ImplicitView) => (string | undefined)[]): ImplicitDependencyRule {
  return {
    on: ['OS::Neutron::Subnet'],
    applies: (self, subnet) => networks(self).some((n) => same(n, networkOf(subnet))),
  };
}

/** A port's own network (Port: a port needs the subnets of its network to get an address). */
export const portSubnets = subnetsOf((port) => [networkOf(port)]);

/** The networks of a server's `networks` entries (Server: its NICs need their networks' subnets). */
export const serverSubnets = subnetsOf((server) =>
  Array.from(
    { length: server.count('networks') },
    (_, i) => server.identity('networks', i, 'network') ?? server.identity('networks', i, 'uuid'),
  ),
);

/** A router's gateway network (Router: the gateway needs an address on the external network). */
export const gatewaySubnets = subnetsOf((router) => [router.identity('external_gateway_info', 'network')]);

/**
 * Whether `port` has (or may have) an address on `subnet`. A port without fixed IPs may be on any
 * subnet of its network: it is, unless its network is known and the subnet's is known and differs.
 */
function portOnSubnet(
  port: ImplicitView | undefined,
  subnet: string | undefined,
  lookup: (name: string) => ImplicitView | undefined,
): boolean {
  if (port?.type !== 'OS::Neutron::Port') return false;
  const fixed = port.count('fixed_ips');
  if (fixed === 0) {
    if (subnet === undefined) return true;
    const subnetResource = subnet.startsWith('resource:')
      ? lookup(subnet.slice('resource:'.length))
      : undefined;
    const subnetNetwork = subnetResource ? networkOf(subnetResource) : undefined;
    const portNetwork = networkOf(port);
    return subnetNetwork === undefined || portNetwork === undefined || subnetNetwork === portNetwork;
  }
  for (let i = 0; i < fixed; i++) {
    const on = port.identity('fixed_ips', i, 'subnet') ?? port.identity('fixed_ips', i, 'subnet_id');
    if (same(on, subnet)) return true;
  }
  return false;
}

/** Depends on a router interface on a subnet of a port this resource requires (its port_id). */
export const interfaceOfPortSubnet: ImplicitDependencyRule = {
  on: ['OS::Neutron::RouterInterface'],
  applies: (self, iface, lookup) => {
    const subnet = iface.identity('subnet') ?? iface.identity('subnet_id');
    return self.requires.some((name) => portOnSubnet(lookup(name), subnet, lookup));
  },
};

const floatingNetworkOf = (fip: ImplicitView) =>
  fip.identity('floating_network') ?? fip.identity('floating_network_id');

/**
 * FloatingIP: its network must be reachable (a router with a gateway to it) and its port's subnet
 * routed (an interface on it) before Neutron associates the two.
 */
export const floatingIpRules: readonly ImplicitDependencyRule[] = [
  {
    on: ['OS::Neutron::RouterGateway'],
    applies: (fip, gateway) => same(floatingNetworkOf(fip), networkOf(gateway)),
  },
  {
    on: ['OS::Neutron::Router'],
    applies: (fip, router) =>
      same(floatingNetworkOf(fip), router.identity('external_gateway_info', 'network')),
  },
  interfaceOfPortSubnet,
];
