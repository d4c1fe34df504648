import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, PollResult } from '../../contract.js';
import {
  createNeutronObject,
  failure,
  FLOATING_IPS,
  neutronDeletion,
  realityOf,
} from '../../openstack/common.js';
import { asAction } from '../../openstack/polling.js';
import { externalNetworkId } from './common.js';
import { associateWithServer, deviceOf, dissociate, showFloatingIp } from './floating.js';

/**
 * AWS::EC2::EIP: a Neutron floating IP on the external network, associated with InstanceId's
 * first interface when one is given. Its reference is the address (Heat's); AllocationId is the
 * floating IP's id, the physical id.
 */

type Progress = { server: string; attempt: number };

async function associate(ctx: PluginContext, fip: string, server: string, attempt = 1): Promise<PollResult> {
  try {
    const r = await associateWithServer(ctx, fip, server, attempt);
    if (r.done) return r;
    return { ...r, progress: { server, ...(r.progress as { attempt: number }) } };
  } catch (error) {
    throw failure('associating the EIP with the instance', error);
  }
}

const poll = (ctx: PluginContext, progress: unknown) => {
  const p = progress as Progress;
  return associate(ctx, ctx.physicalId!, p.server, p.attempt);
};

export const ec2EipPlugin: CatalogPlugin = {
  type: 'AWS::EC2::EIP',
  description: 'An elastic IP: a Neutron floating IP on the external network.',
  properties: {
    Domain: P.string({
      description: 'Set to "vpc" to have IP address allocation associated to your VPC.',
      // Deprecated in Heat 9.0.0: a Neutron floating IP needs no domain.
      supportStatus: {
        status: 'DEPRECATED',
        version: '9.0.0',
        message: 'Unused: Neutron floating IPs need no domain.',
      },
      constraints: [C.allowedValues(['vpc'])],
    }),
    InstanceId: P.string({
      description: 'Instance ID to associate with EIP.',
      updateAllowed: true,
      constraints: [C.custom('nova.server')],
    }),
  },
  attributes: {
    AllocationId: attr(
      'ID that AWS assigns to represent the allocation of the address for use with Amazon VPC. Returned only for VPC elastic IP addresses.',
      'string',
    ),
  },

  async create(ctx, properties) {
    let network: string;
    try {
      network = await externalNetworkId(ctx);
    } catch (error) {
      throw failure('finding the external network', error);
    }
    const id = await createNeutronObject(
      ctx,
      FLOATING_IPS,
      async () => ({ floating_network_id: network }),
      [],
    );
    const address = (await showFloatingIp(ctx, id)).floating_ip_address;
    const server = properties.InstanceId as string | null;
    const done = server ? await associate(ctx, id, server) : { done: true };
    return { ...asAction(done), physicalId: id, data: { address } };
  },
  checkCreateComplete: poll,

  async update(ctx, properties) {
    const server = properties.InstanceId as string | null;
    if (server) return asAction(await associate(ctx, ctx.physicalId!, server));
    try {
      await dissociate(ctx, ctx.physicalId!);
    } catch (error) {
      throw failure('dissociating the EIP', error);
    }
    return {};
  },
  checkUpdateComplete: poll,

  // Deleting the floating IP takes it off its port too.
  ...neutronDeletion(FLOATING_IPS),

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const fip = await showFloatingIp(ctx, ctx.physicalId);
      const stored = ctx.storedProperties ?? {};
      const device = await deviceOf(ctx, fip.port_id);
      const same = device === ((stored.InstanceId as string | null) ?? null);
      return { ...stored, InstanceId: (same ? (stored.InstanceId ?? null) : device) as Value };
    });
  },

  async attribute(ctx, name) {
    return name === 'AllocationId' ? ctx.physicalId : null;
  },

  referenceId: (ctx) => (ctx.data.address as string | undefined) ?? ctx.resourceName,
};
