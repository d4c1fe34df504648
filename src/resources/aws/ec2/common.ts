import type { Value } from '../../../template/functions/types.js';
import { P, type ListPropertySchema } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import { ResourceFailure, type PluginContext, type RealityState } from '../../contract.js';
import { type NeutronCollection, realityOf } from '../../openstack/common.js';

/**
 * What Heat's AWS::EC2 types share: the `Tags` list of Key/Value maps, properties Heat declares
 * but has not implemented, the external network, and a VPC's router (found by the VPC network's
 * name, as Heat finds it).
 */

export const NETWORKS: NeutronCollection = { path: '/networks', key: 'network', what: 'the network' };
export const SUBNETS: NeutronCollection = { path: '/subnets', key: 'subnet', what: 'the subnet' };
export const PORTS: NeutronCollection = { path: '/ports', key: 'port', what: 'the port' };
export { ROUTERS } from '../../openstack/neutron/router.js';

/** A `Tags` property: a list of `{Key, Value}` maps. */
export function tagsProperty(
  options: {
    description?: string;
    itemDescription?: string;
    updateAllowed?: boolean;
    immutable?: boolean;
  } = {},
): ListPropertySchema {
  const { itemDescription, ...rest } = options;
  return P.list({
    ...rest,
    items: P.map({
      ...(itemDescription === undefined ? {} : { description: itemDescription }),
      schema: { Key: P.string({ required: true }), Value: P.string({ required: true }) },
    }),
  });
}

/** `Tags` as the map Nova's metadata or Cinder's takes; null when none are given. */
export function tagMap(tags: Value | undefined): Record<string, string> | null {
  if (tags === null || tags === undefined) return null;
  const out: Record<string, string> = {};
  for (const tag of tags as JsonObject[]) out[String(tag.Key)] = String(tag.Value);
  return out;
}

/** A live map back in the template's `Tags` terms: the template's own value while they agree. */
export function liveTags(stored: Value | undefined, live: Record<string, string>): Value {
  const wanted = tagMap(stored) ?? {};
  const keys = Object.keys(live);
  const same = keys.length === Object.keys(wanted).length && keys.every((k) => wanted[k] === live[k]);
  if (same) return stored ?? null;
  return keys.map((Key) => ({ Key, Value: live[Key]! }));
}

/** The one external network (Heat's InternetGateway.get_external_network_id). */
export async function externalNetworkId(ctx: PluginContext): Promise<string> {
  const r = await ctx
    .openstack()
    .request<{ networks: { id: string }[] }>('network', 'GET', '/networks', undefined, {
      query: { 'router:external': 'True' },
    });
  const nets = r.body.networks;
  if (nets.length !== 1) throw new ResourceFailure(`Expected 1 external network, found ${nets.length}`);
  return nets[0]!.id;
}

export type Router = JsonObject & {
  id: string;
  name: string;
  external_gateway_info?: { network_id: string } | null;
};

/**
 * The router of the VPC whose network is `networkId`: the one named as the network (Heat's
 * VPC.router_for_vpc); undefined when there is none. Throws when the network is gone (a 404).
 */
export async function vpcRouter(ctx: PluginContext, networkId: string): Promise<Router | undefined> {
  const cloud = ctx.openstack();
  const net = await cloud.request<{ network: { name: string } }>('network', 'GET', `/networks/${networkId}`);
  const name = net.body.network.name;
  const r = await cloud.request<{ routers: Router[] }>('network', 'GET', '/routers', undefined, {
    query: { name },
  });
  const routers = r.body.routers;
  if (routers.length > 1) throw new ResourceFailure(`Multiple routers found with name ${name}`);
  return routers[0];
}

/** Whether the router has an interface (a port) on the subnet. */
export async function hasInterface(ctx: PluginContext, routerId: string, subnetId: string): Promise<boolean> {
  const r = await ctx
    .openstack()
    .request<{ ports: { fixed_ips: { subnet_id: string }[] }[] }>('network', 'GET', '/ports', undefined, {
      query: { device_id: routerId },
    });
  return r.body.ports.some((p) => p.fixed_ips.some((ip) => ip.subnet_id === subnetId));
}

/** Adds the router's interface on the subnet unless it has one already (a create run again). */
export async function addInterface(ctx: PluginContext, routerId: string, subnetId: string): Promise<void> {
  if (await hasInterface(ctx, routerId, subnetId)) return;
  await ctx
    .openstack()
    .request('network', 'PUT', `/routers/${routerId}/add_router_interface`, { subnet_id: subnetId });
}

/** The context as another type sees it: same resource, `storedProperties` and `physicalId` replaced. */
export function viewOf(
  ctx: PluginContext,
  changes: { storedProperties?: Record<string, Value> | null; physicalId?: string | null },
): PluginContext {
  const fields: PropertyDescriptorMap = {};
  for (const [name, value] of Object.entries(changes)) fields[name] = { value, enumerable: true };
  return Object.create(ctx, fields) as PluginContext;
}

/**
 * The template's own values while the Neutron object at `path` exists, else gone: for the types
 * whose properties Heat never reads back from the cloud.
 */
export async function storedWhileExists(ctx: PluginContext, path: string | null): Promise<RealityState> {
  return realityOf(async () => {
    if (path === null) return undefined;
    await ctx.openstack().request('network', 'GET', path);
    return { ...(ctx.storedProperties ?? {}) };
  });
}
