import { type DocPath, TemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { ActionResult, PluginContext, PollResult } from '../../contract.js';
import {
  associateFloatingIp,
  createNeutronObject,
  failure,
  FLOATING_IPS,
  pollingAction,
  present,
  realityOf,
  showNeutronObject,
  neutronDeletion,
} from '../common.js';
import { floatingIpRules } from './implicit.js';
import { liveRef, NETWORK_REFS } from './live-refs.js';

/**
 * A floating IP of an external network, as OS::Neutron::FloatingIP, associated with `port_id`
 * when given. Allocated first, then associated, so that an association waiting for the router
 * interface that makes the port reachable keeps the address it was given.
 */

/** What an association in progress needs (the properties are stored only once it is done). */
interface Associating {
  port: string;
  fixed: string | null;
  attempt: number;
}

async function associate(ctx: PluginContext, id: string, a: Omit<Associating, 'attempt'>, attempt = 1) {
  const result: PollResult = await associateFloatingIp(ctx, id, a.port, a.fixed, attempt);
  if (result.done) return result;
  return { ...result, progress: { ...a, attempt: (result.progress as { attempt: number }).attempt } };
}

const started = (physicalId: string, result: PollResult): ActionResult => ({
  physicalId,
  ...pollingAction(result),
});

export const neutronFloatingIpPlugin: CatalogPlugin = {
  type: 'OS::Neutron::FloatingIP',
  implicitDependencies: floatingIpRules,
  description:
    'A resource for managing Neutron floating ips. Floating IP addresses can change their association between routers by action of the user. One of the most common use cases for floating IPs is to provide public IP addresses to a private cloud, where there are a limited number of IP addresses available. Another is for a public cloud user to have a "static" IP address that can be reassigned when an instance is upgraded or moved.',
  properties: {
    floating_network_id: P.string({
      replaces: 'floating_network',
      supportStatus: { status: 'HIDDEN', version: '5.0.0', message: 'Use property floating_network.' },
      constraints: [C.custom('neutron.network')],
    }),
    floating_network: P.string({
      description: 'Network to allocate floating IP from.',
      required: true,
      supportStatus: { version: '2014.2' },
      constraints: [C.custom('neutron.network')],
    }),
    floating_subnet: P.string({
      description: 'Subnet to allocate floating IP from.',
      supportStatus: { version: '9.0.0' },
      constraints: [C.custom('neutron.subnet')],
    }),
    value_specs: P.map({
      description:
        'Extra parameters to include in the "floatingip" object in the creation request. Parameters are often specific to installed hardware or extensions.',
      default: {},
    }),
    port_id: P.string({
      description: 'ID of an existing port with at least one IP address to associate with this floating IP.',
      updateAllowed: true,
      constraints: [C.custom('neutron.port')],
    }),
    fixed_ip_address: P.string({
      description: 'IP address to use if the port has multiple addresses.',
      updateAllowed: true,
      constraints: [C.custom('ip_addr')],
    }),
    floating_ip_address: P.string({
      description:
        'IP address of the floating IP. NOTE: The default policy setting in Neutron restricts usage of this property to administrative users only.',
      supportStatus: { version: '5.0.0' },
      constraints: [C.custom('ip_addr')],
    }),
    dns_name: P.string({
      description: 'DNS name associated with floating ip.',
      updateAllowed: true,
      supportStatus: { version: '7.0.0' },
      constraints: [C.custom('rel_dns_name')],
    }),
    dns_domain: P.string({
      description: 'DNS domain associated with floating ip.',
      updateAllowed: true,
      supportStatus: { version: '7.0.0' },
      constraints: [C.custom('dns_domain')],
    }),
  },
  attributes: {
    router_id: attr('ID of the router used as gateway, set when associated with a port.', 'string'),
    tenant_id: attr('The tenant owning this floating IP.', 'string'),
    floating_network_id: attr('ID of the network in which this IP is allocated.', 'string'),
    fixed_ip_address: attr('IP address of the associated port, if specified.', 'string'),
    floating_ip_address: attr('The allocated address of this IP.', 'string'),
    port_id: attr('ID of the port associated with this IP.', 'string'),
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    if ((properties.port_id ?? null) === null && (properties.fixed_ip_address ?? null) !== null) {
      throw new TemplateError('property', 'fixed_ip_address cannot be specified without port_id.', path);
    }
  },

  async create(ctx, properties) {
    const cloud = ctx.openstack();
    const find = async (path: string, key: string, ref: Value) =>
      (await cloud.findByNameOrId('network', path, key, ref as string)).id;
    const id = await createNeutronObject(
      ctx,
      FLOATING_IPS,
      async () => ({
        ...((properties.value_specs ?? {}) as JsonObject),
        ...present(properties, ['floating_ip_address', 'dns_name', 'dns_domain']),
        floating_network_id: await find(
          '/networks',
          'networks',
          properties.floating_network ?? properties.floating_network_id!,
        ),
        ...(properties.floating_subnet
          ? { subnet_id: await find('/subnets', 'subnets', properties.floating_subnet) }
          : {}),
      }),
      [],
    );
    if (!properties.port_id) return { physicalId: id };
    const fixed = (properties.fixed_ip_address as string | null) ?? null;
    return started(id, await associate(ctx, id, { port: properties.port_id as string, fixed }));
  },

  async checkCreateComplete(ctx, progress) {
    const a = progress as unknown as Associating;
    return associate(ctx, ctx.physicalId!, a, a.attempt);
  },

  // Neutron updates only the association; Heat sends nothing else either.
  async update(ctx, properties, _previous, changed) {
    if (!changed.includes('port_id') && !changed.includes('fixed_ip_address')) return {};
    const port = (properties.port_id as string | null) ?? null;
    if (port === null) {
      try {
        await ctx.openstack().request('network', 'PUT', `/floatingips/${ctx.physicalId}`, {
          floatingip: { port_id: null },
        });
        return {};
      } catch (error) {
        throw failure('disassociating the floating IP', error);
      }
    }
    const fixed = (properties.fixed_ip_address as string | null) ?? null;
    return pollingAction(await associate(ctx, ctx.physicalId!, { port, fixed }));
  },

  async checkUpdateComplete(ctx, progress) {
    const a = progress as unknown as Associating;
    return associate(ctx, ctx.physicalId!, a, a.attempt);
  },

  ...neutronDeletion(FLOATING_IPS),

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const f = await showNeutronObject(ctx, FLOATING_IPS);
      return {
        floating_network: await liveRef(
          ctx,
          ctx.storedProperties?.floating_network,
          f.floating_network_id as string,
          NETWORK_REFS,
        ),
        floating_ip_address: f.floating_ip_address as string,
        port_id: (f.port_id as string | null) ?? null,
        fixed_ip_address: (f.fixed_ip_address as string | null) ?? null,
        dns_name: (f.dns_name as string | undefined) || null,
        dns_domain: (f.dns_domain as string | undefined) || null,
      };
    });
  },

  async attribute(ctx, name) {
    const f = await showNeutronObject(ctx, FLOATING_IPS);
    if (name === 'show') return f as Value;
    if (name === 'tenant_id') return (f.tenant_id ?? f.project_id ?? null) as Value;
    return (f[name] ?? null) as Value;
  },
};
