import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../catalog.js';
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

/** A Neutron network, as OS::Neutron::Net. */

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
  },
  attributes: {
    status: attr('The status of the network.', 'string'),
    name: attr('The name of the network.', 'string'),
    subnets: attr('Subnets of this network.', 'list'),
    admin_state_up: attr('The administrative status of the network.', 'string'),
    tenant_id: attr('The tenant owning this network.', 'string'),
    port_security_enabled: attr('Port security enabled of the network.', 'boolean'),
    mtu: attr('The maximum transmission unit size (in bytes) for the network.', 'integer'),
    show: attr('Detailed information about resource.', 'map'),
  },

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      NETWORKS,
      async () => ({
        ...requestBody(ctx, properties),
        ...(properties.tenant_id ? { tenant_id: properties.tenant_id as string } : {}),
      }),
      (properties.tags as string[] | null) ?? [],
    );
    return { physicalId: id };
  },

  async update(ctx, properties, _previous, changed) {
    const cloud = ctx.openstack();
    try {
      const fields = changed.filter((name) => name !== 'tags');
      if (fields.length > 0) {
        await cloud.request('network', 'PUT', `/networks/${ctx.physicalId}`, {
          network: requestBody(ctx, properties),
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
      return {
        name: n.name,
        admin_state_up: n.admin_state_up as boolean,
        shared: n.shared as boolean,
        port_security_enabled: (n.port_security_enabled as boolean | undefined) ?? null,
        dns_domain: (n.dns_domain as string | undefined) ?? null,
        tags: (n.tags as string[] | undefined) ?? [],
      };
    });
  },

  async attribute(ctx, name) {
    const n = await show(ctx);
    if (name === 'show') return n as Value;
    if (name === 'tenant_id') return (n.tenant_id ?? n.project_id ?? null) as Json as Value;
    return (n[name] ?? null) as Value;
  },
};
