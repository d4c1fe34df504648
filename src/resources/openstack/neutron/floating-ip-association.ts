import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, PollResult } from '../../contract.js';
import {
  associateFloatingIp,
  failure,
  FLOATING_IPS,
  pollingAction,
  realityOf,
  showNeutronObject,
} from '../common.js';
import { interfaceOfPortSubnet } from './implicit.js';

/**
 * A floating IP associated with a port, as OS::Neutron::FloatingIPAssociation. Heat's physical id
 * is its own resource row's id; here it is `<floating IP id>:<port id>`, so that a delete knows
 * what to disassociate without the properties. Associating again is harmless: creates are
 * idempotent as they are.
 */

interface Pair {
  floatingIp: string;
  port: string;
}

const pairId = (p: Pair) => `${p.floatingIp}:${p.port}`;

function parse(physicalId: string): Pair {
  const at = physicalId.indexOf(':');
  return { floatingIp: physicalId.slice(0, at), port: physicalId.slice(at + 1) };
}

/** What an association in progress needs: the pair and address (properties are stored once done). */
interface Associating extends Pair {
  fixed: string | null;
  attempt: number;
}

function pairOf(properties: Record<string, Value>): Omit<Associating, 'attempt'> {
  return {
    floatingIp: properties.floatingip_id as string,
    port: properties.port_id as string,
    fixed: (properties.fixed_ip_address as string | null) ?? null,
  };
}

async function associate(
  ctx: PluginContext,
  a: Omit<Associating, 'attempt'>,
  attempt = 1,
): Promise<PollResult> {
  const result = await associateFloatingIp(ctx, a.floatingIp, a.port, a.fixed, attempt);
  if (result.done) return { done: true, physicalId: pairId(a) };
  return { ...result, progress: { ...a, attempt: (result.progress as { attempt: number }).attempt } };
}

/**
 * Disassociates the floating IP if it is still associated with this pair's port: when it was
 * moved to another port meanwhile (a replacing association is created before this one goes),
 * that association is not this resource's to undo. Gone is done.
 */
async function disassociate(ctx: PluginContext, pair: Pair): Promise<void> {
  try {
    const fip = await showNeutronObject(ctx, FLOATING_IPS, pair.floatingIp);
    if (fip.port_id !== pair.port) return;
    await ctx.openstack().request('network', 'PUT', `/floatingips/${pair.floatingIp}`, {
      floatingip: { port_id: null },
    });
  } catch (error) {
    if (isNotFound(error)) return;
    throw failure('disassociating the floating IP', error);
  }
}

export const neutronFloatingIpAssociationPlugin: CatalogPlugin = {
  type: 'OS::Neutron::FloatingIPAssociation',
  implicitDependencies: [interfaceOfPortSubnet],
  description:
    'A resource for associating floating ips and ports. This resource allows associating a floating IP to a port with at least one IP address to associate with this floating IP.',
  properties: {
    floatingip_id: P.string({
      description: 'ID of the floating IP to associate.',
      required: true,
      updateAllowed: true,
    }),
    port_id: P.string({
      description: 'ID of an existing port with at least one IP address to associate with this floating IP.',
      required: true,
      updateAllowed: true,
      constraints: [C.custom('neutron.port')],
    }),
    fixed_ip_address: P.string({
      description: 'IP address to use if the port has multiple addresses.',
      updateAllowed: true,
      constraints: [C.custom('ip_addr')],
    }),
  },
  attributes: {},

  async create(ctx, properties) {
    const a = pairOf(properties);
    return { physicalId: pairId(a), ...pollingAction(await associate(ctx, a)) };
  },

  async checkCreateComplete(ctx, progress) {
    const a = progress as unknown as Associating;
    return associate(ctx, a, a.attempt);
  },

  // Another floating IP: the old one lets go of the port first, as in Heat.
  async update(ctx, properties, _previous, changed) {
    if (changed.includes('floatingip_id') && ctx.physicalId) await disassociate(ctx, parse(ctx.physicalId));
    const a = pairOf(properties);
    return { physicalId: pairId(a), ...pollingAction(await associate(ctx, a)) };
  },

  async checkUpdateComplete(ctx, progress) {
    const a = progress as unknown as Associating;
    return associate(ctx, a, a.attempt);
  },

  async delete(ctx) {
    if (ctx.physicalId) await disassociate(ctx, parse(ctx.physicalId));
    return {};
  },

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const pair = parse(ctx.physicalId);
      const fip = await showNeutronObject(ctx, FLOATING_IPS, pair.floatingIp);
      if (fip.port_id !== pair.port) return undefined;
      return {
        floatingip_id: pair.floatingIp,
        port_id: pair.port,
        fixed_ip_address: (fip.fixed_ip_address as string | null) ?? null,
      };
    });
  },

  async attribute(ctx, name) {
    if (name !== 'show' || !ctx.physicalId) return null;
    try {
      return (await showNeutronObject(ctx, FLOATING_IPS, parse(ctx.physicalId).floatingIp)) as Value;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  },
};
