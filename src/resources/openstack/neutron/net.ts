import { OpenStackError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, RealityState } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import {
  createNeutronObject,
  failure,
  type NeutronCollection,
  present,
  setNeutronTags,
  neutronDeletion,
  realityOf,
} from '../common.js';
import { liveRef, QOS_POLICY_REFS } from './live-refs.js';
import { qosPolicyField } from './qos-ref.js';

/**
 * A Neutron network, as OS::Neutron::Net: its QoS policy (by name or id), zone hints, the DHCP
 * agents it is scheduled on (admin only in Neutron) and its segments.
 */

type Network = JsonObject & { id: string; name: string; status: string };

/** Properties sent as they are (name, value_specs and tags are handled apart). */
const PLAIN = ['admin_state_up', 'shared', 'port_security_enabled', 'dns_domain'] as const;

async function show(ctx: PluginContext): Promise<Network> {
  const r = await ctx
    .openstack()
    .request<{ network: Network }>('network', 'GET', `/networks/${ctx.physicalId}`);
  return r.body.network;
}

function requestBody(ctx: PluginContext, properties: Record<string, Value>): JsonObject {
  const specs = (properties.value_specs ?? {}) as JsonObject;
  return {
    ...specs,
    ...present(properties, PLAIN),
    name: (properties.name as string | null) ?? physicalResourceName(ctx),
  };
}

const NETWORKS: NeutronCollection = { path: '/networks', key: 'network', what: 'the network' };

const dhcpAgentsPath = (networkId: string) => `/networks/${networkId}/dhcp-agents`;

/**
 * As Heat's _replace_dhcp_agents: the network is added to the wanted agents it is not on (one
 * already hosting it, 409, is fine) and removed from the others (gone or not hosting: fine).
 * Idempotent, so a create run twice schedules once.
 */
async function replaceDhcpAgents(ctx: PluginContext, networkId: string, wanted: readonly string[]) {
  const cloud = ctx.openstack();
  const hosting = await cloud.request<{ agents: { id: string }[] }>(
    'network',
    'GET',
    dhcpAgentsPath(networkId),
  );
  const old = new Set(hosting.body.agents.map((a) => a.id));
  const tolerate = (statuses: number[]) => (error: unknown) => {
    if (error instanceof OpenStackError && statuses.includes(error.status ?? 0)) return;
    throw error;
  };
  for (const id of new Set(wanted)) {
    if (old.has(id)) continue;
    await cloud
      .request('network', 'POST', `/agents/${id}/dhcp-networks`, { network_id: networkId })
      .catch(tolerate([409]));
  }
  for (const id of old) {
    if (wanted.includes(id)) continue;
    await cloud
      .request('network', 'DELETE', `/agents/${id}/dhcp-networks/${networkId}`)
      .catch(tolerate([404, 409]));
  }
}

/** The agents hosting the network (only read when the template chose them; a 403 reads none). */
async function liveDhcpAgents(ctx: PluginContext): Promise<Record<string, Value>> {
  try {
    const r = await ctx
      .openstack()
      .request<{ agents: { id: string }[] }>('network', 'GET', dhcpAgentsPath(ctx.physicalId!));
    return { dhcp_agent_ids: r.body.agents.map((a) => a.id) };
  } catch (error) {
    if (error instanceof OpenStackError && error.status === 403) return {};
    throw error;
  }
}

/**
 * Heat's segments attribute: the network's segments, those without a name first. Neutron shows
 * segments to admins only: for anyone else it is null (every attribute is read after each
 * operation, and a refusal must not fail the network).
 */
async function segments(ctx: PluginContext): Promise<Value> {
  try {
    const r = await ctx
      .openstack()
      .request<{ segments: JsonObject[] }>('network', 'GET', '/segments', undefined, {
        query: { network_id: ctx.physicalId! },
      });
    const unnamed = (s: JsonObject) => (s.name === null || s.name === undefined ? 0 : 1);
    return [...r.body.segments].sort((a, b) => unnamed(a) - unnamed(b)) as Value;
  } catch (error) {
    if (error instanceof OpenStackError && error.status === 403) return null;
    throw error;
  }
}

export const neutronNetPlugin: CatalogPlugin = {
  type: 'OS::Neutron::Net',
  description:
    'A resource for managing Neutron net. A network is a virtual isolated layer-2 broadcast domain.',
  properties: {
    name: P.string({
      description: 'A string specifying a symbolic name for the network, which is not required to be unique.',
      updateAllowed: true,
    }),
    value_specs: P.map({
      description:
        'Extra parameters to include in the request. Parameters are often specific to installed hardware or extensions.',
      default: {},
      updateAllowed: true,
    }),
    tenant_id: P.string({
      description:
        'The ID of the tenant which will own the network. Only administrative users can set the tenant identifier; this cannot be changed using authorization policies.',
    }),
    admin_state_up: P.boolean({
      description: 'A boolean value specifying the administrative status of the network.',
      default: true,
      updateAllowed: true,
    }),
    shared: P.boolean({
      description: 'Whether this network should be shared across all tenants.',
      default: false,
      updateAllowed: true,
    }),
    port_security_enabled: P.boolean({
      description: 'Flag to enable/disable port security on the network.',
      updateAllowed: true,
    }),
    dns_domain: P.string({
      description: 'DNS domain associated with this network.',
      updateAllowed: true,
      constraints: [C.custom('dns_domain')],
    }),
    tags: P.list({
      description: 'The tags to be added to the network.',
      items: P.string(),
      updateAllowed: true,
    }),
    dhcp_agent_ids: P.list({
      description:
        'The IDs of the DHCP agents to schedule the network on. Neutron lets only administrators do it by default.',
      updateAllowed: true,
    }),
    qos_policy: P.string({
      description: 'The name or ID of the QoS policy to attach to the network.',
      updateAllowed: true,
      constraints: [C.custom('neutron.qos_policy')],
    }),
    availability_zone_hints: P.list({
      description:
        "The availability zones the network may be scheduled in (Neutron's availability_zone extension).",
    }),
  },
  attributes: {
    status: attr('The status of the network.', 'string'),
    name: attr('The name of the network.', 'string'),
    subnets: attr('Subnets of this network.', 'list'),
    admin_state_up: attr('The administrative status of the network.', 'string'),
    tenant_id: attr('The tenant owning this network.', 'string'),
    port_security_enabled: attr('Port security enabled of the network.', 'boolean'),
    mtu: attr('The maximum transmission unit size (in bytes) for the network.', 'integer'),
    qos_policy_id: attr('The ID of the QoS policy attached to the network.', 'string'),
    l2_adjacency: attr(
      'Whether the network gives L2 connectivity throughout (false for a routed network).',
      'boolean',
    ),
    segments: attr('The segments of the network.', 'list'),
    show: attr('Detailed information about resource.', 'map'),
  },

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      NETWORKS,
      async () => ({
        ...requestBody(ctx, properties),
        ...(await qosPolicyField(ctx, properties, false)),
        ...present(properties, ['availability_zone_hints']),
        ...(properties.tenant_id ? { tenant_id: properties.tenant_id as string } : {}),
      }),
      (properties.tags as string[] | null) ?? [],
    );
    const agents = (properties.dhcp_agent_ids as string[] | null) ?? [];
    if (agents.length > 0) {
      try {
        await replaceDhcpAgents(ctx, id, agents);
      } catch (error) {
        throw failure('scheduling the network on its DHCP agents', error);
      }
    }
    return { physicalId: id };
  },

  async update(ctx, properties, _previous, changed) {
    const cloud = ctx.openstack();
    try {
      if (changed.includes('dhcp_agent_ids'))
        await replaceDhcpAgents(ctx, ctx.physicalId!, (properties.dhcp_agent_ids as string[] | null) ?? []);
      const fields = changed.filter((name) => name !== 'tags' && name !== 'dhcp_agent_ids');
      if (fields.length > 0) {
        await cloud.request('network', 'PUT', `/networks/${ctx.physicalId}`, {
          network: {
            ...requestBody(ctx, properties),
            ...(changed.includes('qos_policy') ? await qosPolicyField(ctx, properties, true) : {}),
          },
        });
      }
      if (changed.includes('tags')) {
        await setNeutronTags(ctx, NETWORKS, ctx.physicalId!, (properties.tags as string[] | null) ?? []);
      }
      return {};
    } catch (error) {
      throw failure('updating the network', error);
    }
  },

  ...neutronDeletion(NETWORKS),

  async getReality(ctx): Promise<RealityState> {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const n = await show(ctx);
      const stored = ctx.storedProperties ?? {};
      return {
        name: n.name,
        qos_policy: await liveRef(ctx, stored.qos_policy, n.qos_policy_id as string | null, QOS_POLICY_REFS),
        ...(stored.dhcp_agent_ids ? await liveDhcpAgents(ctx) : {}),
        admin_state_up: n.admin_state_up as boolean,
        shared: n.shared as boolean,
        port_security_enabled: (n.port_security_enabled as boolean | undefined) ?? null,
        dns_domain: (n.dns_domain as string | undefined) ?? null,
        tags: (n.tags as string[] | undefined) ?? [],
      };
    });
  },

  async attribute(ctx, name) {
    if (name === 'segments') return ctx.physicalId ? segments(ctx) : null;
    const n = await show(ctx);
    if (name === 'show') return n as Value;
    if (name === 'tenant_id') return (n.tenant_id ?? n.project_id ?? null) as Json as Value;
    return (n[name] ?? null) as Value;
  },
};
