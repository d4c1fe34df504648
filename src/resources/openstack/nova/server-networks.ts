import { type Cloud, LookupError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import type { JsonObject } from '../../../util/json.js';
import type { Nic } from './server-request.js';

/**
 * A change of a server's `networks` as Heat applies it in place (server_network_mixin): the entries
 * the change leaves alone keep their interfaces; the interfaces of the entries it drops are
 * detached (a port Nova made for a `network`/`subnet`/`fixed_ip` entry is deleted by Nova with the
 * detach, a user's `port` is only unbound); the new entries are attached. The plan is computed from
 * the server's live ports and nothing else, so computing it again after a crash gives the same.
 */

type Entry = Record<string, Value>;

/** A `networks` entry with its names resolved to ids. */
export interface Want extends JsonObject {
  port: string | null;
  network: string | null;
  subnet: string | null;
  fixedIp: string | null;
  floatingIp: string | null;
  tag: string | null;
}

/** One of the server's ports, as Neutron shows it. */
export interface Iface {
  port: string;
  network: string;
  fixedIps: string[];
  subnets: string[];
}

export type DetachStep = JsonObject & {
  op: 'detach';
  port: string;
  floatingIp: string | null;
  sent?: boolean;
  polls?: number;
};

/**
 * An attach: of `want.port`, or of a new port Nova makes on `want.network` (none: on the one network
 * Nova finds for the project). `baseline` is the server's ports before the attach was sent, so a
 * run again after a crash finds the port it made (`attached`) instead of making another.
 */
export type AttachStep = JsonObject & {
  op: 'attach';
  want: Want;
  securityGroups: string[];
  baseline?: string[];
  attached?: string;
  associated?: boolean;
  polls?: number;
};

export type Step = DetachStep | AttachStep;

const text = (value: Value | undefined): string | null =>
  value === null || value === undefined || value === '' ? null : String(value);

/** The allocate_network string ('auto'/'none') of a `networks` list, if it has one. */
export const allocation = (entries: readonly Entry[]): string | null =>
  entries.map((e) => text(e.allocate_network)).find((a) => a !== null) ?? null;

async function lookup(cloud: Cloud, path: string, key: string, ref: string, lenient: boolean) {
  try {
    return await cloud.findByNameOrId('network', path, key, ref);
  } catch (error) {
    // An old entry whose network is gone: its ref is all there is to compare with.
    if (lenient && error instanceof LookupError) return { id: ref } as { id: string; network_id?: string };
    throw error;
  }
}

/**
 * Resolves an entry's port, network and subnet to ids (a subnet entry without a network is on the
 * subnet's network). `known` is where the entry landed when it was applied (no lookups needed).
 */
export async function resolveEntry(
  cloud: Cloud,
  entry: Entry,
  known: Nic | undefined,
  lenient: boolean,
): Promise<Want> {
  const want: Want = {
    port: null,
    network: null,
    subnet: null,
    fixedIp: text(entry.fixed_ip),
    floatingIp: text(entry.floating_ip),
    tag: text(entry.tag),
  };
  const port = text(entry.port);
  if (port !== null) {
    want.port = known?.port ?? (await lookup(cloud, '/ports', 'ports', port, lenient)).id;
    return want;
  }
  // A port's nic is no network entry's (the data of another list of entries): looked up instead.
  if (known?.port) known = undefined;
  const network = text(entry.network ?? entry.uuid);
  if (network !== null) {
    want.network = known?.network ?? (await lookup(cloud, '/networks', 'networks', network, lenient)).id;
  }
  const subnet = text(entry.subnet);
  if (subnet !== null) {
    const found = await lookup(cloud, '/subnets', 'subnets', subnet, lenient);
    want.subnet = found.id;
    want.network ??= known?.network ?? (found.network_id ? String(found.network_id) : null);
  }
  return want;
}

/** Whether the port can be the one of the entry (by port; else by network, fixed IP, subnet). */
function fits(want: Want, iface: Iface, strictSubnet: boolean): boolean {
  if (want.port !== null) return iface.port === want.port;
  if (want.network !== null && iface.network !== want.network) return false;
  if (want.fixedIp !== null && !iface.fixedIps.includes(want.fixedIp)) return false;
  if (strictSubnet && want.subnet !== null && !iface.subnets.includes(want.subnet)) return false;
  return want.network !== null || want.subnet !== null;
}

/**
 * The live port of each entry (Heat's update_networks_matching_iface_port): the most specific
 * entries choose first (a port, then a fixed IP, then a subnet, then a network), each port once. A
 * subnet entry may have got an address of another subnet of its network (Nova chose it).
 */
export function matchPorts(wants: readonly Want[], ifaces: readonly Iface[]): (Iface | undefined)[] {
  const rank = (w: Want) => (w.port ? 0 : w.fixedIp ? 1 : w.subnet ? 2 : 3);
  const order = wants.map((_, i) => i).sort((a, b) => rank(wants[a]!) - rank(wants[b]!) || a - b);
  const free = [...ifaces];
  const out: (Iface | undefined)[] = wants.map(() => undefined);
  for (const strict of [true, false]) {
    for (const i of order) {
      if (out[i]) continue;
      const at = free.findIndex((iface) => fits(wants[i]!, iface, strict));
      if (at >= 0) out[i] = free.splice(at, 1)[0];
    }
  }
  return out;
}

const sameExtras = (a: Want, b: Want) => a.floatingIp === b.floatingIp && a.tag === b.tag;
const sameRefs = (a: Want, b: Want) =>
  a.port === b.port && a.network === b.network && a.subnet === b.subnet && a.fixedIp === b.fixedIp;

/**
 * Whether the new entry is the old one, unchanged (Heat's _exclude_not_updated_networks): the same
 * entry, or one whose every given key the old entry's live port has (naming its network's port by
 * id, say, or writing down the address it got).
 */
function unchanged(next: Want, old: Want, live: Iface | undefined): boolean {
  if (!sameExtras(next, old)) return false;
  if (sameRefs(next, old)) return true;
  return live !== undefined && fits(next, live, true) && (next.port === null || next.port === live.port);
}

/** What an update of `networks` does, in order: detaches first, then attaches (as Heat). */
export function planNetworks(input: {
  oldEntries: readonly Entry[];
  newEntries: readonly Entry[];
  oldWants: readonly Want[];
  newWants: readonly Want[];
  ifaces: readonly Iface[];
  securityGroups: string[];
}): Step[] {
  const { oldEntries, newEntries, oldWants, newWants, ifaces, securityGroups } = input;
  const detach = (iface: Iface, floatingIp: string | null = null): DetachStep => ({
    op: 'detach',
    port: iface.port,
    floatingIp,
  });
  const attach = (want: Want): AttachStep => ({
    op: 'attach',
    want,
    // Nova gives a port it makes the default group: the server's groups are set on it after.
    securityGroups: want.port === null ? securityGroups : [],
  });
  const nowhere: Want = {
    port: null,
    network: null,
    subnet: null,
    fixedIp: null,
    floatingIp: null,
    tag: null,
  };

  const newAllocation = allocation(newEntries);
  if (newAllocation !== null) {
    // "none": no interface; "auto": one on the network Nova finds.
    return [...ifaces.map((i) => detach(i)), ...(newAllocation === 'auto' ? [attach(nowhere)] : [])];
  }
  if (oldEntries.length === 0 && newEntries.length === 0) return [];
  const steps: Step[] = [];
  const kept: boolean[] = newWants.map(() => false);
  if (oldEntries.length === 0 || allocation(oldEntries) !== null) {
    // Nova chose the old interfaces: none of them is the template's.
    steps.push(...ifaces.map((i) => detach(i)));
  } else {
    const live = matchPorts(oldWants, ifaces);
    const oldLeft = oldWants.map((_, i) => i);
    newWants.forEach((next, n) => {
      const at = oldLeft.findIndex((o) => unchanged(next, oldWants[o]!, live[o]));
      if (at < 0) return;
      oldLeft.splice(at, 1);
      kept[n] = true;
    });
    for (const o of oldLeft) {
      // An entry whose port is gone already (detached outside Heat) has nothing left to detach.
      const port = live[o];
      if (port) steps.push(detach(port, oldWants[o]!.floatingIp));
    }
  }
  const added = newWants.filter((_, n) => !kept[n]);
  if (newEntries.length === 0 && !kept.some(Boolean)) return [...steps, attach(nowhere)];
  return [...steps, ...added.map(attach)];
}

/** Where each entry landed, for the resource's data (see Resolved.nics). */
export const nicsOf = (wants: readonly Want[], entries: readonly Entry[]): Nic[] =>
  allocation(entries) !== null
    ? [{ network: null, port: null }]
    : wants.map((w) => ({ network: w.network, port: w.port }));
