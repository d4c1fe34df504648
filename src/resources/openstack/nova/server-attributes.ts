import type { Value } from '../../../template/functions/types.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';
import type { Server } from './compute.js';
import type { Nic } from './server-request.js';

/**
 * A server's addresses as Heat's attributes show them (built, as Heat does, from the Neutron
 * ports bound to it), and its NICs mapped back to the template's `networks` entries.
 */

type Port = JsonObject & {
  id: string;
  network_id: string;
  mac_address: string;
  fixed_ips: { ip_address: string; subnet_id: string }[];
};

type Address = JsonObject & { addr: string };

export async function serverPorts(ctx: PluginContext, serverId: string): Promise<Port[]> {
  const r = await ctx
    .openstack()
    .request<{ ports: Port[] }>('network', 'GET', '/ports', undefined, { query: { device_id: serverId } });
  return r.body.ports;
}

/** GETs each object once per attribute read (several addresses share a network or subnet). */
function cached(ctx: PluginContext, path: string, key: string) {
  const seen = new Map<string, Promise<JsonObject>>();
  return (id: string) => {
    let found = seen.get(id);
    if (!found) {
      found = ctx
        .openstack()
        .request<Record<string, JsonObject>>('network', 'GET', `${path}/${id}`)
        .then((r) => r.body[key]!);
      seen.set(id, found);
    }
    return found;
  };
}

/**
 * Heat's `addresses`: by network name, each fixed address with its MAC, port, subnets and
 * network, and the floating addresses on that port; the same lists again under each network's id.
 */
export async function addresses(ctx: PluginContext, serverId: string): Promise<Record<string, Address[]>> {
  const network = cached(ctx, '/networks', 'network');
  const subnet = cached(ctx, '/subnets', 'subnet');
  const byName: Record<string, Address[]> = {};
  const ids = new Map<string, string>();
  for (const port of await serverPorts(ctx, serverId)) {
    const net = await network(port.network_id);
    const name = String(net.name || port.network_id);
    ids.set(name, port.network_id);
    const list = (byName[name] ??= []);
    const subnets = await Promise.all(port.fixed_ips.map((ip) => subnet(ip.subnet_id)));
    const floating = await ctx
      .openstack()
      .request<{ floatingips: { floating_ip_address: string }[] }>(
        'network',
        'GET',
        '/floatingips',
        undefined,
        {
          query: { port_id: port.id },
        },
      );
    for (const ip of port.fixed_ips) {
      const version = ip.ip_address.includes(':') ? 6 : 4;
      const common = { version, 'OS-EXT-IPS-MAC:mac_addr': port.mac_address };
      list.push({
        addr: ip.ip_address,
        ...common,
        'OS-EXT-IPS:type': 'fixed',
        port: port.id,
        subnets,
        network: net,
      });
      for (const fip of floating.body.floatingips) {
        list.push({ addr: fip.floating_ip_address, ...common, 'OS-EXT-IPS:type': 'floating', port: null });
      }
    }
  }
  const all: Record<string, Address[]> = { ...byName };
  for (const [name, id] of ids) all[id] = byName[name]!;
  return all;
}

/** Heat's `networks`: the addresses of each network by name, and again by id. */
export async function networksAttribute(ctx: PluginContext, serverId: string): Promise<JsonObject> {
  const out: JsonObject = {};
  for (const [key, list] of Object.entries(await addresses(ctx, serverId))) {
    out[key] = list.map((a) => a.addr);
  }
  return out;
}

/** Heat's `first_address`: the first address of the network whose name sorts last; '' if none. */
export function firstAddress(server: Server): string {
  const names = Object.keys(server.addresses ?? {}).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  for (const name of names) {
    const first = server.addresses[name]?.[0];
    if (first) return first.addr;
  }
  return '';
}

/**
 * The live NICs as `networks` entries: each template entry its bound port still matches (by port,
 * or by network and fixed IP) as written, then every other port the server has.
 */
export function liveNetworks(entries: readonly Record<string, Value>[], nics: readonly Nic[], ports: Port[]) {
  const left = [...ports];
  const out: Value[] = [];
  entries.forEach((entry, index) => {
    const nic = nics[index];
    if (entry.allocate_network !== null && entry.allocate_network !== undefined) {
      out.push(entry);
      left.length = 0; // Nova chose the ports: they are the entry's.
      return;
    }
    if (!nic) return;
    const fixed = entry.fixed_ip ?? null;
    const at = left.findIndex((p) =>
      nic.port !== null
        ? p.id === nic.port
        : p.network_id === nic.network &&
          (fixed === null || p.fixed_ips.some((ip) => ip.ip_address === fixed)),
    );
    if (at < 0) return;
    left.splice(at, 1);
    out.push(entry);
  });
  for (const port of left) {
    out.push({ network: port.network_id, fixed_ip: port.fixed_ips[0]?.ip_address ?? null, port: port.id });
  }
  return out;
}
