import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, type RealityState, ResourceFailure } from '../../contract.js';
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
import { liveRef, NETWORK_REFS, SEGMENT_REFS } from './live-refs.js';
import { networkRef } from './network-ref.js';

/** A Neutron subnet, as OS::Neutron::Subnet. */

type Subnet = JsonObject & { id: string; name: string };

/** Properties sent as they are on create and update (the network and the name are handled apart). */
const UPDATABLE = [
  'enable_dhcp',
  'gateway_ip',
  'allocation_pools',
  'dns_nameservers',
  'host_routes',
] as const;
const CREATE_ONLY = [
  'cidr',
  'ip_version',
  'subnetpool',
  'prefixlen',
  'ipv6_ra_mode',
  'ipv6_address_mode',
] as const;

async function show(ctx: PluginContext): Promise<Subnet> {
  const r = await ctx.openstack().request<{ subnet: Subnet }>('network', 'GET', `/subnets/${ctx.physicalId}`);
  return r.body.subnet;
}

function updatable(ctx: PluginContext, properties: Record<string, Value>): JsonObject {
  const body: JsonObject = {
    ...((properties.value_specs ?? {}) as JsonObject),
    ...present(properties, UPDATABLE),
    name: (properties.name as string | null) ?? physicalResourceName(ctx),
  };
  // Heat's _normalize_gateway_ip: "" means no gateway (null to Neutron), "auto" lets Neutron choose.
  if (body.gateway_ip === '') body.gateway_ip = null;
  if (body.gateway_ip === 'auto') delete body.gateway_ip;
  return body;
}

/**
 * The update's body. As Heat's handle_update: a gateway_ip removed from the template is detached
 * (null), removed allocation_pools are none ([]), and "auto" cannot change an existing gateway.
 */
function updateBody(
  ctx: PluginContext,
  properties: Record<string, Value>,
  changed: readonly string[],
): JsonObject {
  const body = updatable(ctx, properties);
  if (changed.includes('gateway_ip')) {
    if (properties.gateway_ip === 'auto') {
      throw new ResourceFailure(
        'ResourceActionNotSupported: The value "auto" for gateway_ip cannot be used to update an existing subnet. It is only supported during subnet creation. is not supported for resource.',
      );
    }
    if (!('gateway_ip' in body)) body.gateway_ip = null;
  }
  if (changed.includes('allocation_pools') && !('allocation_pools' in body)) body.allocation_pools = [];
  return body;
}

/** The id of the segment `ref` names (segments are read by admins only, in Neutron). */
const segmentId = async (ctx: PluginContext, ref: string) =>
  (await ctx.openstack().findByNameOrId('network', SEGMENT_REFS.path, SEGMENT_REFS.list, ref)).id;

/**
 * A changed `segment`, as Heat 19: a subnet on no segment may be put on one (a network migrating
 * to a routed one); one already on a segment cannot change it.
 */
async function segmentUpdate(
  ctx: PluginContext,
  properties: Record<string, Value>,
  previous: Record<string, Value>,
): Promise<JsonObject> {
  if ((previous.segment ?? null) !== null) {
    throw new ResourceFailure(
      'ResourceActionNotSupported: Updating the subnet segment assciation only allowed when the current segment_id is None. The subnet is currently associated with segment. In this state update is not supported for resource.',
    );
  }
  const ref = properties.segment as string | null | undefined;
  return ref ? { segment_id: await segmentId(ctx, ref) } : {};
}

const IP_POOL = P.map({
  schema: {
    start: P.string({
      description: 'Start address for the allocation pool.',
      required: true,
      constraints: [C.custom('ip_addr')],
    }),
    end: P.string({
      description: 'End address for the allocation pool.',
      required: true,
      constraints: [C.custom('ip_addr')],
    }),
  },
});
const ROUTE = P.map({
  schema: {
    destination: P.string({
      description: 'The destination for static route.',
      required: true,
      constraints: [C.custom('net_cidr')],
    }),
    nexthop: P.string({
      description: 'The next hop for the destination.',
      required: true,
      constraints: [C.custom('ip_addr')],
    }),
  },
});

const SUBNETS: NeutronCollection = { path: '/subnets', key: 'subnet', what: 'the subnet' };

export const neutronSubnetPlugin: CatalogPlugin = {
  type: 'OS::Neutron::Subnet',
  description:
    'A resource for managing Neutron subnets. A subnet represents an IP address block of a network.',
  properties: {
    network: P.string({
      description: 'The ID or name of the network to associate this subnet with.',
      required: true,
      constraints: [C.custom('neutron.network')],
    }),
    network_id: P.string({
      description: 'ID of the network to associate this subnet with.',
      replaces: 'network',
      supportStatus: { status: 'HIDDEN', version: '5.0.0', message: 'Use property network.' },
    }),
    cidr: P.string({ description: 'The CIDR.', constraints: [C.custom('net_cidr')] }),
    ip_version: P.integer({
      description: 'The IP version, which is 4 or 6.',
      default: 4,
      constraints: [C.allowedValues([4, 6])],
    }),
    name: P.string({ description: 'The name of the subnet.', updateAllowed: true }),
    enable_dhcp: P.boolean({
      description: 'Set to true if DHCP is enabled and false if DHCP is disabled.',
      default: true,
      updateAllowed: true,
    }),
    gateway_ip: P.string({
      description:
        'The gateway IP address. Set to any of [ null | ~ | "" ] to create/update a subnet without a gateway. If omitted when creation, neutron will assign the first free IP address within the subnet to the gateway automatically. If remove this from template when update, the old gateway IP address will be detached.',
      updateAllowed: true,
    }),
    allocation_pools: P.list({
      description: 'The start and end addresses for the allocation pools.',
      items: IP_POOL,
      updateAllowed: true,
    }),
    dns_nameservers: P.list({
      description: 'A specified set of DNS name servers to be used.',
      default: [],
      updateAllowed: true,
    }),
    host_routes: P.list({
      description: 'A list of host route dictionaries for the subnet.',
      items: ROUTE,
      updateAllowed: true,
    }),
    value_specs: P.map({
      description: 'Extra parameters to include in the request.',
      default: {},
      updateAllowed: true,
    }),
    tenant_id: P.string({
      description:
        'The ID of the tenant who owns the network. Only administrative users can specify a tenant ID other than their own.',
    }),
    subnetpool: P.string({
      description: 'The name or ID of the subnet pool.',
      constraints: [C.custom('neutron.subnetpool')],
    }),
    prefixlen: P.integer({
      description: 'Prefix length for subnet allocation from subnet pool.',
      constraints: [C.range({ min: 0 })],
    }),
    ipv6_ra_mode: P.string({
      description: 'IPv6 RA (Router Advertisement) mode.',
      constraints: [C.allowedValues(['dhcpv6-stateful', 'dhcpv6-stateless', 'slaac'])],
    }),
    ipv6_address_mode: P.string({
      description: 'IPv6 address mode.',
      constraints: [C.allowedValues(['dhcpv6-stateful', 'dhcpv6-stateless', 'slaac'])],
    }),
    tags: P.list({
      description: 'The tags to be added to the subnet.',
      items: P.string(),
      updateAllowed: true,
    }),
    segment: P.string({
      description: 'The name or ID of the network segment to put the subnet on (a routed network).',
      updateAllowed: true,
      constraints: [C.custom('neutron.segment')],
    }),
  },
  attributes: {
    name: attr('Friendly name of the subnet.', 'string'),
    network_id: attr('Parent network of the subnet.', 'string'),
    tenant_id: attr('Tenant owning the subnet.', 'string'),
    allocation_pools: attr('Ip allocation pools and their ranges.', 'list'),
    gateway_ip: attr('Ip of the subnet’s gateway.', 'string'),
    host_routes: attr('Additional routes for this subnet.', 'list'),
    ip_version: attr('Ip version for the subnet.', 'string'),
    cidr: attr('CIDR block notation for this subnet.', 'string'),
    dns_nameservers: attr('List of dns nameservers.', 'list'),
    enable_dhcp: attr('"true" if DHCP is enabled for this subnet; "false" otherwise.', 'string'),
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    const { cidr, subnetpool, prefixlen } = properties;
    if (cidr === UNKNOWN || subnetpool === UNKNOWN) return;
    if ((cidr ?? null) === null && (subnetpool ?? null) === null) {
      throw new TemplateError('property', 'Either subnetpool or cidr must be provided.', path);
    }
    // Heat's Subnet.validate: a pool allocates the CIDR (an empty cidr counts as none).
    if ((subnetpool ?? null) !== null && cidr) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: subnetpool, cidr.',
        path,
      );
    }
    if (prefixlen !== UNKNOWN && prefixlen && cidr) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: prefixlen, cidr.',
        path,
      );
    }
  },

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      SUBNETS,
      async () => ({
        ...updatable(ctx, properties),
        ...present(properties, CREATE_ONLY),
        network_id: (
          await ctx
            .openstack()
            .findByNameOrId('network', NETWORK_REFS.path, NETWORK_REFS.list, networkRef(properties))
        ).id,
        ...(properties.segment ? { segment_id: await segmentId(ctx, properties.segment as string) } : {}),
        ...(properties.tenant_id ? { tenant_id: properties.tenant_id as string } : {}),
      }),
      (properties.tags as string[] | null) ?? [],
    );
    return { physicalId: id };
  },

  async update(ctx, properties, previous, changed) {
    const cloud = ctx.openstack();
    try {
      if (changed.some((name) => name !== 'tags')) {
        await cloud.request('network', 'PUT', `/subnets/${ctx.physicalId}`, {
          subnet: {
            ...updateBody(ctx, properties, changed),
            ...(changed.includes('segment') ? await segmentUpdate(ctx, properties, previous) : {}),
          },
        });
      }
      if (changed.includes('tags')) {
        await setNeutronTags(ctx, SUBNETS, ctx.physicalId!, (properties.tags as string[] | null) ?? []);
      }
      return {};
    } catch (error) {
      throw failure('updating the subnet', error);
    }
  },

  ...neutronDeletion(SUBNETS),

  async getReality(ctx): Promise<RealityState> {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const s = await show(ctx);
      const network = await liveRef(ctx, ctx.storedProperties?.network, s.network_id as string, NETWORK_REFS);
      const segment = await liveRef(
        ctx,
        ctx.storedProperties?.segment,
        s.segment_id as string | null,
        SEGMENT_REFS,
      );
      const properties: Record<string, Value> = { name: s.name, network, segment };
      for (const key of [...UPDATABLE, 'cidr', 'ip_version', 'tags'] as const)
        properties[key] = (s[key] ?? null) as Value;
      return properties;
    });
  },

  async attribute(ctx, name) {
    const s = await show(ctx);
    if (name === 'show') return s as Value;
    if (name === 'tenant_id') return (s.tenant_id ?? s.project_id ?? null) as Value;
    if (name === 'enable_dhcp') return String(s.enable_dhcp);
    if (name === 'ip_version') return String(s.ip_version);
    return (s[name] ?? null) as Value;
  },
};
