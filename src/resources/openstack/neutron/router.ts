import { type DocPath, TemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../catalog.js';
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
      ['admin_state_up', 'distributed', 'ha'].filter((n) => names.includes(n)),
    ),
  };
  if (names.includes('name')) body.name = (properties.name as string | null) ?? physicalResourceName(ctx);
  if (names.includes('external_gateway_info')) {
    // null clears the gateway (an update); a create leaves it out.
    body.external_gateway_info = await gatewayBody(ctx, properties.external_gateway_info ?? null);
  }
  return body;
}

const CREATE_FIELDS = ['name', 'value_specs', 'admin_state_up', 'distributed', 'ha', 'external_gateway_info'];

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
    if (properties.distributed === true && properties.ha === true) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: distributed, ha.',
        path,
      );
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
    // Heat waits for the router to be ACTIVE (a driver may build it in the background).
    return { physicalId: id, progress: {}, pollAfterMs: 500 };
  },

  async checkCreateComplete(ctx) {
    try {
      const router = await showNeutronObject(ctx, ROUTERS);
      if (router.status === 'ACTIVE') return { done: true };
      if (router.status === 'ERROR') throw new ResourceInError('The router went to status ERROR');
      return { done: false, pollAfterMs: 1000 };
    } catch (error) {
      throw failure('creating the router', error);
    }
  },

  async update(ctx, properties, _previous, changed) {
    try {
      const fields = changed.filter((name) => name !== 'tags');
      if (fields.length > 0) {
        await ctx.openstack().request('network', 'PUT', `/routers/${ctx.physicalId}`, {
          router: await requestBody(ctx, properties, fields),
        });
      }
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
