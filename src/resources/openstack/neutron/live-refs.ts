import { LookupError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import type { PluginContext } from '../../contract.js';

/**
 * Live values of properties that name Neutron objects (`network: public`, `security_groups:
 * [default]`): Neutron shows only ids, so getReality reports the template's reference while it
 * still names the live object (no drift), and the live id once it does not.
 */

/** A Neutron collection to look references up in: `/networks`, listed under `networks`. */
export interface RefCollection {
  path: string;
  list: string;
}

export const NETWORK_REFS: RefCollection = { path: '/networks', list: 'networks' };
export const SUBNET_REFS: RefCollection = { path: '/subnets', list: 'subnets' };
export const PORT_REFS: RefCollection = { path: '/ports', list: 'ports' };
export const ROUTER_REFS: RefCollection = { path: '/routers', list: 'routers' };
export const SECURITY_GROUP_REFS: RefCollection = { path: '/security-groups', list: 'security_groups' };
export const QOS_POLICY_REFS: RefCollection = { path: '/qos/policies', list: 'policies' };
export const SEGMENT_REFS: RefCollection = { path: '/segments', list: 'segments' };

/** The id `ref` names now; undefined when it names nothing (or several). */
async function idOf(ctx: PluginContext, ref: string, refs: RefCollection): Promise<string | undefined> {
  try {
    return (await ctx.openstack().findByNameOrId('network', refs.path, refs.list, ref)).id;
  } catch (error) {
    if (error instanceof LookupError) return undefined;
    throw error;
  }
}

/** Whether the stored reference names the object whose id is `liveId` (an id needs no lookup). */
export async function names(
  ctx: PluginContext,
  stored: Value | undefined,
  liveId: string | null | undefined,
  refs: RefCollection,
): Promise<boolean> {
  if (typeof stored !== 'string' || !liveId) return false;
  return stored === liveId || (await idOf(ctx, stored, refs)) === liveId;
}

/** The stored reference when it names the live object, else the live id. */
export async function liveRef(
  ctx: PluginContext,
  stored: Value | undefined,
  liveId: string | null | undefined,
  refs: RefCollection,
): Promise<Value> {
  return (await names(ctx, stored, liveId, refs)) ? stored! : (liveId ?? null);
}

/** A list of references (in any order) against the live ids: the stored list when they name the same set. */
export async function liveRefs(
  ctx: PluginContext,
  stored: Value | undefined,
  liveIds: readonly string[],
  refs: RefCollection,
): Promise<Value> {
  if (!Array.isArray(stored) || stored.length !== liveIds.length) return [...liveIds];
  const resolved = await Promise.all(
    stored.map(async (ref) =>
      typeof ref === 'string' && liveIds.includes(ref) ? ref : idOf(ctx, String(ref), refs),
    ),
  );
  const same = [...resolved].sort().join() === [...liveIds].sort().join();
  return same ? stored : [...liveIds];
}

/** A fixed IP as Neutron shows it (a port's, a router gateway's). */
export interface LiveFixedIp {
  subnet_id?: string;
  ip_address?: string;
}

/**
 * Fixed IPs (`[{subnet, ip_address}]`) against the template's: its list while each of its items
 * still holds, in order (its subnet named, its address when it chose one: Neutron picks the
 * others), else the live ones.
 */
export async function liveFixedIps(
  ctx: PluginContext,
  stored: Value | undefined,
  live: readonly LiveFixedIp[],
): Promise<Value> {
  const shown = live.map((ip) => ({ subnet: ip.subnet_id ?? null, ip_address: ip.ip_address ?? null }));
  if (!Array.isArray(stored) || stored.length !== live.length) return shown;
  const holds = await Promise.all(
    stored.map(async (item, i) => {
      const given = (item ?? {}) as Record<string, Value>;
      const subnet = given.subnet ?? given.subnet_id ?? null;
      const address = given.ip_address ?? null;
      if (address !== null && address !== live[i]!.ip_address) return false;
      return subnet === null || names(ctx, subnet, live[i]!.subnet_id, SUBNET_REFS);
    }),
  );
  return holds.every(Boolean) ? stored : shown;
}
