import { type DocPath, TemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
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
import { networkRef } from './network-ref.js';
import { portSubnets } from './implicit.js';
import {
  liveFixedIps,
  liveRef,
  liveRefs,
  NETWORK_REFS,
  QOS_POLICY_REFS,
  SECURITY_GROUP_REFS,
} from './live-refs.js';
import { qosPolicyField } from './qos-ref.js';

/** A Neutron port, as OS::Neutron::Port. Neutron makes a port at once: nothing to wait for. */

type Port = JsonObject & { id: string; name: string; network_id: string };
type FixedIp = { subnet?: string; subnet_id?: string; ip_address?: string };
type AddressPair = { ip_address: string; mac_address?: string | null };

/** Properties sent as they are (when set). */
const PLAIN = [
  'admin_state_up',
  'device_id',
  'device_owner',
  'mac_address',
  'binding:vnic_type',
  'port_security_enabled',
  'dns_name',
  'propagate_uplink_status',
] as const;

const PORTS: NeutronCollection = { path: '/ports', key: 'port', what: 'the port' };

async function show(ctx: PluginContext): Promise<Port> {
  const r = await ctx.openstack().request<{ port: Port }>('network', 'GET', `/ports/${ctx.physicalId}`);
  return r.body.port;
}

const findId = async (ctx: PluginContext, path: string, key: string, ref: string) =>
  (await ctx.openstack().findByNameOrId('network', path, key, ref)).id;

/** fixed_ips as Neutron takes them: subnets by id (`subnet`, or the older `subnet_id`), no nulls. */
async function fixedIps(ctx: PluginContext, items: FixedIp[]): Promise<JsonObject[]> {
  return Promise.all(
    items.map(async (item) => {
      const out: JsonObject = {};
      const subnet = item.subnet ?? item.subnet_id;
      if (subnet !== undefined && subnet !== null)
        out.subnet_id = await findId(ctx, '/subnets', 'subnets', subnet);
      if (item.ip_address !== undefined && item.ip_address !== null) out.ip_address = item.ip_address;
      return out;
    }),
  );
}

const securityGroupIds = (ctx: PluginContext, refs: string[]) =>
  Promise.all(refs.map((ref) => findId(ctx, '/security-groups', 'security_groups', ref)));

/**
 * The request fields for the properties `names` (all of them on create, the changed ones on an
 * update), as Heat prepares them: an empty fixed_ips lets Neutron choose on create and keeps the
 * addresses on update; no security_groups means the project's default group.
 */
async function fields(
  ctx: PluginContext,
  properties: Record<string, Value>,
  names: readonly string[],
  previous: Record<string, Value> | null,
): Promise<JsonObject> {
  const has = (name: string) => names.includes(name);
  const specs = (properties.value_specs ?? {}) as JsonObject;
  const before = (previous?.value_specs ?? {}) as JsonObject;
  const out: JsonObject = {};
  if (has('value_specs')) {
    for (const [key, value] of Object.entries(specs))
      if (previous === null || JSON.stringify(value) !== JSON.stringify(before[key])) out[key] = value;
  }
  Object.assign(
    out,
    present(
      properties,
      PLAIN.filter((name) => has(name)),
    ),
  );
  if (has('name')) out.name = (properties.name as string | null) ?? physicalResourceName(ctx);
  if (properties.no_fixed_ips === true && (has('no_fixed_ips') || has('fixed_ips'))) out.fixed_ips = [];
  else if (has('fixed_ips')) {
    const items = (properties.fixed_ips ?? []) as FixedIp[];
    if (items.length > 0) out.fixed_ips = await fixedIps(ctx, items);
  }
  if (has('security_groups')) {
    const refs = properties.security_groups as string[] | null;
    if (refs !== null && refs !== undefined) out.security_groups = await securityGroupIds(ctx, refs);
    else if (previous !== null) out.security_groups = await securityGroupIds(ctx, ['default']);
  }
  if (has('qos_policy')) Object.assign(out, await qosPolicyField(ctx, properties, previous !== null));
  if (has('allowed_address_pairs')) {
    const pairs = (properties.allowed_address_pairs ?? []) as AddressPair[];
    out.allowed_address_pairs = pairs.map((pair): JsonObject =>
      pair.mac_address === undefined || pair.mac_address === null
        ? { ip_address: pair.ip_address }
        : { ip_address: pair.ip_address, mac_address: pair.mac_address },
    );
  }
  return out;
}

const FIXED_IP = P.map({
  schema: {
    subnet_id: P.string({
      replaces: 'subnet',
      supportStatus: {
        status: 'HIDDEN',
        version: '5.0.0',
        message: 'Use property subnet.',
        previousStatus: { status: 'DEPRECATED', version: '2014.2 ' },
      },
      constraints: [C.custom('neutron.subnet')],
    }),
    subnet: P.string({
      description: 'Subnet in which to allocate the IP address for this port.',
      supportStatus: { version: '2014.2' },
      constraints: [C.custom('neutron.subnet')],
    }),
    ip_address: P.string({
      description: 'IP address desired in the subnet for this port.',
      constraints: [C.custom('ip_addr')],
    }),
  },
});

const ADDRESS_PAIR = P.map({
  schema: {
    mac_address: P.string({
      description: 'MAC address to allow through this port.',
      constraints: [C.custom('mac_addr')],
    }),
    ip_address: P.string({
      description: 'IP address to allow through this port.',
      required: true,
      constraints: [C.custom('ip_or_cidr')],
    }),
  },
});

const PROPERTIES: CatalogPlugin['properties'] = {
  name: P.string({ description: 'A symbolic name for this port.', updateAllowed: true }),
  network_id: P.string({
    replaces: 'network',
    supportStatus: {
      status: 'HIDDEN',
      version: '5.0.0',
      message: 'Use property network.',
      previousStatus: { status: 'DEPRECATED', version: '2014.2' },
    },
    constraints: [C.custom('neutron.network')],
  }),
  network: P.string({
    required: true,
    description:
      'Network this port belongs to. If you plan to use current port to assign Floating IP, you should specify fixed_ips with subnet. Note if this changes to a different network update, the port will be replaced.',
    supportStatus: { version: '2014.2' },
    constraints: [C.custom('neutron.network')],
  }),
  device_id: P.string({ description: 'Device ID of this port.', default: '', updateAllowed: true }),
  device_owner: P.string({
    description:
      'Name of the network owning the port. The value is typically network:floatingip or network:router_interface or network:dhcp.',
    default: '',
    updateAllowed: true,
  }),
  fixed_ips: P.list({ description: 'Desired IPs for this port.', items: FIXED_IP, updateAllowed: true }),
  security_groups: P.list({
    description: 'Security group IDs to associate with this port.',
    updateAllowed: true,
  }),
  replacement_policy: P.string({
    description:
      'Policy on how to respond to a stack-update for this resource. REPLACE_ALWAYS will replace the port regardless of any property changes. AUTO will update the existing port for any changed update-allowed property.',
    default: 'AUTO',
    constraints: [C.allowedValues(['REPLACE_ALWAYS', 'AUTO'])],
    updateAllowed: true,
    supportStatus: {
      status: 'HIDDEN',
      version: '9.0.0',
      previousStatus: {
        status: 'DEPRECATED',
        version: '6.0.0',
        message:
          'Replacement policy used to work around flawed nova/neutron port interaction which has been fixed since Liberty.',
        previousStatus: { version: '2014.2' },
      },
    },
  }),
  dns_name: P.string({
    description: 'DNS name associated with the port.',
    updateAllowed: true,
    constraints: [C.custom('dns_name')],
    supportStatus: { version: '7.0.0' },
  }),
  tags: P.list({
    description: 'The tags to be added to the port.',
    items: P.string(),
    updateAllowed: true,
    supportStatus: { version: '9.0.0' },
  }),
  value_specs: P.map({
    description: 'Extra parameters to include in the request.',
    default: {},
    updateAllowed: true,
  }),
  admin_state_up: P.boolean({
    description: 'The administrative state of this port.',
    default: true,
    updateAllowed: true,
  }),
  mac_address: P.string({
    description:
      'MAC address to give to this port. The default update policy of this property in neutron is that allow admin role only.',
    constraints: [C.custom('mac_addr')],
  }),
  allowed_address_pairs: P.list({
    description: 'Additional MAC/IP address pairs allowed to pass through the port.',
    items: ADDRESS_PAIR,
    updateAllowed: true,
  }),
  'binding:vnic_type': P.string({
    description:
      'The vnic type to be bound on the neutron port. To support SR-IOV PCI passthrough networking, you can request that the neutron port to be realized as normal (virtual nic), direct (pci passthrough), or macvtap (virtual interface with a tap-like software interface). Note that this only works for Neutron deployments that support the bindings extension.',
    constraints: [
      C.allowedValues([
        'normal',
        'direct',
        'macvtap',
        'direct-physical',
        'baremetal',
        'virtio-forwarder',
        'smart-nic',
      ]),
    ],
    supportStatus: { version: '2015.1' },
    updateAllowed: true,
    default: 'normal',
  }),
  port_security_enabled: P.boolean({
    description:
      'Flag to enable/disable port security on the port. When disable this feature(set it to False), there will be no packages filtering, like security-group and address-pairs.',
    updateAllowed: true,
    supportStatus: { version: '5.0.0' },
  }),
  propagate_uplink_status: P.boolean({
    description: 'Whether the port follows the status of its uplink (a Neutron extension).',
    updateAllowed: true,
    supportStatus: { version: '15.0.0' },
  }),
  qos_policy: P.string({
    description: 'The name or ID of the QoS policy to attach to the port.',
    updateAllowed: true,
    constraints: [C.custom('neutron.qos_policy')],
    supportStatus: { version: '6.0.0' },
  }),
  no_fixed_ips: P.boolean({
    description: 'Flag to disable all fixed ips on the port.',
    updateAllowed: true,
    supportStatus: { version: '16.0.0' },
    default: false,
  }),
};

export const neutronPortPlugin: CatalogPlugin = {
  type: 'OS::Neutron::Port',
  implicitDependencies: [portSubnets],
  description:
    'A resource for managing Neutron ports. A port represents a virtual switch port on a logical network switch.',
  properties: PROPERTIES,
  attributes: {
    admin_state_up: attr('The administrative state of this port.', 'string'),
    device_id: attr('Unique identifier for the device.', 'string'),
    device_owner: attr('Name of the network owning the port.', 'string'),
    fixed_ips: attr('Fixed IP addresses.', 'list'),
    mac_address: attr('MAC address of the port.', 'string'),
    name: attr('Friendly name of the port.', 'string'),
    network_id: attr('Unique identifier for the network owning the port.', 'string'),
    security_groups: attr('A list of security groups for the port.', 'list'),
    status: attr('The status of the port.', 'string'),
    tenant_id: attr('Tenant owning the port.', 'string'),
    allowed_address_pairs: attr('Additional MAC/IP address pairs allowed to pass through a port.', 'list'),
    subnets: attr('A list of all subnet attributes for the port.', 'list'),
    port_security_enabled: attr('Port security enabled of the port.', 'boolean'),
    qos_policy_id: attr('The QoS policy ID attached to this port.', 'string'),
    dns_assignment: attr('The DNS assigned to this port.', 'map'),
    propagate_uplink_status: attr('Whether the port follows the status of its uplink.', 'boolean'),
    network: attr('The attributes of the network owning the port.', 'map'),
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    const ips = properties.fixed_ips;
    if (properties.no_fixed_ips === true && Array.isArray(ips) && ips.length > 0) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: fixed_ips, no_fixed_ips.',
        path,
      );
    }
  },

  needsReplace(properties) {
    return properties.replacement_policy === 'REPLACE_ALWAYS';
  },

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      PORTS,
      async () => ({
        ...(await fields(ctx, properties, Object.keys(PROPERTIES), null)),
        network_id: await findId(ctx, '/networks', 'networks', networkRef(properties)),
      }),
      (properties.tags as string[] | null) ?? [],
    );
    return { physicalId: id };
  },

  async update(ctx, properties, previous, changed) {
    try {
      const body = await fields(
        ctx,
        properties,
        changed.filter((name) => name !== 'tags'),
        previous,
      );
      if (Object.keys(body).length > 0)
        await ctx.openstack().request('network', 'PUT', `/ports/${ctx.physicalId}`, { port: body });
      if (changed.includes('tags'))
        await setNeutronTags(ctx, PORTS, ctx.physicalId!, (properties.tags as string[] | null) ?? []);
      return {};
    } catch (error) {
      throw failure('updating the port', error);
    }
  },

  ...neutronDeletion(PORTS),

  async getReality(ctx): Promise<RealityState> {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const p = await show(ctx);
      const stored = ctx.storedProperties ?? {};
      const properties: Record<string, Value> = {
        name: p.name,
        network: await liveRef(ctx, stored.network, p.network_id, NETWORK_REFS),
        fixed_ips: await liveFixedIps(ctx, stored.fixed_ips, (p.fixed_ips ?? []) as FixedIp[]),
        security_groups: await liveRefs(
          ctx,
          stored.security_groups,
          (p.security_groups ?? []) as string[],
          SECURITY_GROUP_REFS,
        ),
        tags: (p.tags ?? []) as Value,
        qos_policy: await liveRef(ctx, stored.qos_policy, p.qos_policy_id as string | null, QOS_POLICY_REFS),
      };
      for (const key of [...PLAIN, 'allowed_address_pairs']) properties[key] = (p[key] ?? null) as Value;
      // Left empty, the device is whoever binds the port (Nova for a server, a router): no drift.
      for (const key of ['device_id', 'device_owner']) if (stored[key] === '') properties[key] = '';
      return properties;
    });
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    const p = await show(ctx);
    const cloud = ctx.openstack();
    switch (name) {
      case 'show':
        return p as Value;
      case 'tenant_id':
        return (p.tenant_id ?? p.project_id ?? null) as Value;
      case 'network':
        return (await cloud.request<{ network: JsonObject }>('network', 'GET', `/networks/${p.network_id}`))
          .body.network as Value;
      case 'subnets': {
        const ids = ((p.fixed_ips ?? []) as FixedIp[]).flatMap((ip) => (ip.subnet_id ? [ip.subnet_id] : []));
        const subnets = await Promise.all(
          ids.map((id) => cloud.request<{ subnet: JsonObject }>('network', 'GET', `/subnets/${id}`)),
        );
        return subnets.map((r) => r.body.subnet) as Value;
      }
      default:
        return (p[name] ?? null) as Value;
    }
  },
};
