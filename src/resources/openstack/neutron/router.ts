import { type DocPath, TemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, ResourceInError } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import {
  createNeutronObject,
  failure,
  type NeutronCollection,
  present,
  realityOf,
  setNeutronTags,
  showNeutronObject,
  neutronDeletion,
} from '../common.js';
import { gatewaySubnets } from './implicit.js';
import { liveFixedIps, liveRef, NETWORK_REFS } from './live-refs.js';

/** A Neutron router, as OS::Neutron::Router (its gateway set in `external_gateway_info`). */

type Gateway = { network: string; enable_snat: boolean | null; external_fixed_ips: JsonObject[] | null };
type LiveGateway = {
  network_id: string;
  enable_snat?: boolean;
  external_fixed_ips?: { subnet_id?: string; ip_address?: string }[];
};

export const ROUTERS: NeutronCollection = { path: '/routers', key: 'router', what: 'the router' };

/** The gateway as Neutron takes it: the network and fixed IPs' subnets by id, unset keys left out. */
async function gatewayBody(ctx: PluginContext, gateway: Value): Promise<Json> {
  if (gateway === null || gateway === undefined) return null;
  const g = gateway as Gateway;
  const cloud = ctx.openstack();
  const body: JsonObject = {
    network_id: (await cloud.findByNameOrId('network', '/networks', 'networks', g.network)).id,
  };
  if (g.enable_snat !== null && g.enable_snat !== undefined) body.enable_snat = g.enable_snat;
  if (g.external_fixed_ips) {
    body.external_fixed_ips = await Promise.all(
      g.external_fixed_ips.map(async (ip) => ({
        ...(ip.ip_address ? { ip_address: ip.ip_address } : {}),
        ...(ip.subnet
          ? {
              subnet_id: (await cloud.findByNameOrId('network', '/subnets', 'subnets', String(ip.subnet))).id,
            }
          : {}),
      })),
    );
  }
  return body;
}

/**
 * The live gateway in the template's terms: what it left unset (SNAT, the addresses) is
 * Neutron's choice, not drift, so only what it set is shown.
 */
async function liveGateway(ctx: PluginContext, live: LiveGateway | null): Promise<Value> {
  if (!live) return null;
  const stored = (ctx.storedProperties?.external_gateway_info ?? null) as Partial<Gateway> | null;
  const out: Record<string, Value> = {
    network: await liveRef(ctx, stored?.network, live.network_id, NETWORK_REFS),
  };
  if ((stored?.enable_snat ?? null) !== null) out.enable_snat = live.enable_snat ?? null;
  if ((stored?.external_fixed_ips ?? null) !== null) {
    out.external_fixed_ips = await liveFixedIps(
      ctx,
      stored!.external_fixed_ips as Value,
      live.external_fixed_ips ?? [],
    );
  }
  return out;
}

/** The request's fields for the properties named (all of them on create). */
async function requestBody(
  ctx: PluginContext,
  properties: Record<string, Value>,
  names: readonly string[],
): Promise<JsonObject> {
  const body: JsonObject = {
    ...(names.includes('value_specs') ? ((properties.value_specs ?? {}) as JsonObject) : {}),
    ...present(
      properties,
      ['admin_state_up', 'distributed', 'ha', 'availability_zone_hints'].filter((n) => names.includes(n)),
    ),
  };
  if (names.includes('name')) body.name = (properties.name as string | null) ?? physicalResourceName(ctx);
  if (names.includes('external_gateway_info')) {
    // null clears the gateway (an update); a create leaves it out.
    body.external_gateway_info = await gatewayBody(ctx, properties.external_gateway_info ?? null);
  }
  return body;
}

const CREATE_FIELDS = [
  'name',
  'value_specs',
  'admin_state_up',
  'distributed',
  'ha',
  'external_gateway_info',
  'availability_zone_hints',
];
/** Set through the L3 agent scheduler, not the router's own fields. */
const AGENT_FIELDS = ['l3_agent_ids', 'l3_agent_id'];

/** The L3 agents wanted: `l3_agent_ids`, or the older single `l3_agent_id`; null: Neutron's choice. */
function agentIds(properties: Record<string, Value>): string[] | null {
  const ids = properties.l3_agent_ids as string[] | null | undefined;
  if (ids) return ids;
  const id = properties.l3_agent_id as string | null | undefined;
  return id ? [id] : null;
}

/** As Heat: the router's agents are removed, then the wanted ones added (admin only in Neutron). */
async function replaceAgents(ctx: PluginContext, routerId: string, wanted: string[] | null): Promise<void> {
  const cloud = ctx.openstack();
  const hosting = await cloud.request<{ agents: { id: string }[] }>(
    'network',
    'GET',
    `/routers/${routerId}/l3-agents`,
  );
  for (const agent of hosting.body.agents)
    await cloud.request('network', 'DELETE', `/agents/${agent.id}/l3-routers/${routerId}`);
  for (const id of wanted ?? [])
    await cloud.request('network', 'POST', `/agents/${id}/l3-routers`, { router_id: routerId });
}

/** The agents hosting the router, in the template's terms (only read when it chose them). */
async function liveAgents(ctx: PluginContext): Promise<Record<string, Value>> {
  const r = await ctx
    .openstack()
    .request<{ agents: { id: string }[] }>('network', 'GET', `/routers/${ctx.physicalId}/l3-agents`);
  const ids = r.body.agents.map((a) => a.id);
  return ctx.storedProperties?.l3_agent_ids ? { l3_agent_ids: ids } : { l3_agent_id: ids[0] ?? null };
}

export const neutronRouterPlugin: CatalogPlugin = {
  type: 'OS::Neutron::Router',
  implicitDependencies: [gatewaySubnets],
  description:
    'A resource that implements Neutron router. Router is a physical or virtual network device that passes network traffic between different networks.',
  properties: {
    name: P.string({ description: 'The name of the router.', updateAllowed: true }),
    external_gateway_info: P.map({
      description: 'External network gateway configuration for a router.',
      updateAllowed: true,
      schema: {
        network: P.string({
          description: 'ID or name of the external network for the gateway.',
          required: true,
          updateAllowed: true,
        }),
        enable_snat: P.boolean({
          description:
            'Enables Source NAT on the router gateway. NOTE: The default policy setting in Neutron restricts usage of this property to administrative users only.',
          updateAllowed: true,
        }),
        external_fixed_ips: P.list({
          description: 'External fixed IP addresses for the gateway.',
          updateAllowed: true,
          supportStatus: { version: '6.0.0' },
          items: P.map({
            schema: {
              ip_address: P.string({
                description: 'External fixed IP address.',
                constraints: [C.custom('ip_addr')],
              }),
              subnet: P.string({
                description: 'Subnet of external fixed IP address.',
                constraints: [C.custom('neutron.subnet')],
              }),
            },
          }),
        }),
      },
    }),
    value_specs: P.map({
      description: 'Extra parameters to include in the creation request.',
      default: {},
      updateAllowed: true,
    }),
    admin_state_up: P.boolean({
      description: 'The administrative state of the router.',
      default: true,
      updateAllowed: true,
    }),
    distributed: P.boolean({
      description:
        'Indicates whether or not to create a distributed router. NOTE: The default policy setting in Neutron restricts usage of this property to administrative users only. This property can not be used in conjunction with the L3 agent ID.',
      supportStatus: { version: '2015.1' },
    }),
    ha: P.boolean({
      description:
        'Indicates whether or not to create a highly available router. NOTE: The default policy setting in Neutron restricts usage of this property to administrative users only. And now neutron do not support distributed and ha at the same time.',
      supportStatus: { version: '2015.1' },
    }),
    l3_agent_id: P.string({
      description: 'The L3 agent to host the router (admin only in Neutron).',
      updateAllowed: true,
      supportStatus: {
        status: 'HIDDEN',
        version: '6.0.0',
        message: 'Use property l3_agent_ids.',
        previousStatus: { status: 'DEPRECATED', version: '2015.1', previousStatus: { version: '2014.1' } },
      },
    }),
    l3_agent_ids: P.list({
      description: 'The L3 agents to host the router; several only for an HA router (admin only in Neutron).',
      items: P.string(),
      updateAllowed: true,
      supportStatus: { version: '2015.1' },
    }),
    availability_zone_hints: P.list({
      description: 'Availability zones the router may be scheduled in.',
      updateAllowed: true,
      supportStatus: { version: '7.0.0' },
    }),
    tags: P.list({
      description: 'The tags to be added to the router.',
      items: P.string(),
      updateAllowed: true,
      supportStatus: { version: '9.0.0' },
    }),
  },
  attributes: {
    status: attr('The status of the router.', 'string'),
    external_gateway_info: attr('Gateway network for the router.', 'map'),
    name: attr('Friendly name of the router.', 'string'),
    admin_state_up: attr('Administrative state of the router.', 'string'),
    tenant_id: attr('Tenant owning the router.', 'string'),
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    const conflict = (a: string, b: string) =>
      new TemplateError(
        'property',
        `Cannot define the following properties at the same time: ${a}, ${b}.`,
        path,
      );
    const given = (name: string) => properties[name] !== null && properties[name] !== undefined;
    const ids = properties.l3_agent_ids;
    const agents =
      (given('l3_agent_id') && properties.l3_agent_id !== '') || (Array.isArray(ids) && ids.length > 0);
    if (given('l3_agent_id') && given('l3_agent_ids')) throw conflict('l3_agent_id', 'l3_agent_ids');
    if (properties.distributed === true && agents) throw conflict('distributed', 'l3_agent_id/l3_agent_ids');
    if (properties.distributed === true && properties.ha === true) throw conflict('distributed', 'ha');
    if (properties.ha !== true && Array.isArray(ids) && ids.length > 1) {
      throw new TemplateError('property', 'Non HA routers can only have one L3 agent.', path);
    }
  },

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      ROUTERS,
      async () => {
        const body = await requestBody(ctx, properties, CREATE_FIELDS);
        if (body.external_gateway_info === null) delete body.external_gateway_info;
        return body;
      },
      (properties.tags as string[] | null) ?? [],
    );
    const agents = agentIds(properties);
    if (agents) {
      try {
        await replaceAgents(ctx, id, agents);
      } catch (error) {
        throw failure('scheduling the router on its L3 agents', error);
      }
    }
    // Heat waits for the router to be ACTIVE (a driver may build it in the background).
    return { physicalId: id, progress: {}, pollAfterMs: 500 };
  },

  async checkCreateComplete(ctx) {
    try {
      const router = await showNeutronObject(ctx, ROUTERS);
      if (router.status === 'ACTIVE') return { done: true };
      if (router.status === 'ERROR') {
        throw new ResourceInError(`Went to status ERROR due to "Unknown" (router ${router.id})`);
      }
      return { done: false, pollAfterMs: 1000 };
    } catch (error) {
      throw failure('creating the router', error);
    }
  },

  async update(ctx, properties, _previous, changed) {
    try {
      const fields = changed.filter((name) => name !== 'tags' && !AGENT_FIELDS.includes(name));
      if (fields.length > 0) {
        await ctx.openstack().request('network', 'PUT', `/routers/${ctx.physicalId}`, {
          router: await requestBody(ctx, properties, fields),
        });
      }
      if (changed.some((name) => AGENT_FIELDS.includes(name)))
        await replaceAgents(ctx, ctx.physicalId!, agentIds(properties));
      if (changed.includes('tags')) {
        await setNeutronTags(ctx, ROUTERS, ctx.physicalId!, (properties.tags as string[] | null) ?? []);
      }
      return {};
    } catch (error) {
      throw failure('updating the router', error);
    }
  },

  // A router with interfaces is refused (409) until they are removed: polled by deleteOrRetry.
  ...neutronDeletion(ROUTERS),

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const r = await showNeutronObject(ctx, ROUTERS);
      return {
        name: r.name as string,
        admin_state_up: r.admin_state_up as boolean,
        external_gateway_info: await liveGateway(ctx, r.external_gateway_info as LiveGateway | null),
        distributed: (r.distributed as boolean | undefined) ?? null,
        ha: (r.ha as boolean | undefined) ?? null,
        tags: (r.tags as string[] | undefined) ?? [],
        ...(agentIds(ctx.storedProperties ?? {}) ? await liveAgents(ctx) : {}),
      };
    });
  },

  async attribute(ctx, name) {
    const r = await showNeutronObject(ctx, ROUTERS);
    if (name === 'show') return r as Value;
    if (name === 'tenant_id') return (r.tenant_id ?? r.project_id ?? null) as Value;
    return (r[name] ?? null) as Value;
  },
};
