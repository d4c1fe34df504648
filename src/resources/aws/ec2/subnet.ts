import { isNotFound, OpenStackError } from '../../../openstack/index.js';
import { attr, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, PollResult } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import {
  createNeutronObject,
  deleteNeutronObject,
  failure,
  pollingAction,
  realityOf,
  showNeutronObject,
} from '../../openstack/common.js';
import { addInterface, SUBNETS, tagsProperty, vpcRouter } from './common.js';

/**
 * AWS::EC2::Subnet: an IPv4 Neutron subnet on the VPC's network, with an interface on the VPC's
 * router (when the VPC has one). The physical id is the subnet's.
 */

/** Removes the VPC router's interface on the subnet (gone already is done), then deletes the subnet. */
async function remove(ctx: PluginContext, attempt = 1): Promise<PollResult> {
  const network = ctx.storedProperties?.VpcId as string | undefined;
  if (ctx.physicalId && network && attempt === 1) {
    try {
      const router = await vpcRouter(ctx, network);
      if (router) {
        await ctx.openstack().request('network', 'PUT', `/routers/${router.id}/remove_router_interface`, {
          subnet_id: ctx.physicalId,
        });
      }
    } catch (error) {
      // Not found: the network, the router or the interface is gone already. Not on the router
      // (a route table holds it): Neutron answers 404 too.
      if (!isNotFound(error) && !(error instanceof OpenStackError && error.status === 400)) {
        throw failure('removing the subnet from the VPC router', error);
      }
    }
  }
  return deleteNeutronObject(ctx, SUBNETS, attempt);
}

export const ec2SubnetPlugin: CatalogPlugin = {
  type: 'AWS::EC2::Subnet',
  description: "A subnet of a VPC: a Neutron subnet on the VPC's network, routed by the VPC's router.",
  properties: {
    AvailabilityZone: P.string({ description: 'Availability zone in which you want the subnet.' }),
    CidrBlock: P.string({ description: 'CIDR block to apply to subnet.', required: true }),
    VpcId: P.string({
      description: 'Ref structure that contains the ID of the VPC on which you want to create the subnet.',
      required: true,
    }),
    Tags: tagsProperty({ itemDescription: 'List of tags to attach to this resource.' }),
  },
  attributes: {
    AvailabilityZone: attr('Availability Zone of the subnet.', 'string'),
  },

  async create(ctx, properties) {
    const network = properties.VpcId as string;
    const id = await createNeutronObject(
      ctx,
      SUBNETS,
      async () => ({
        network_id: network,
        cidr: properties.CidrBlock as string,
        name: physicalResourceName(ctx),
        ip_version: 4,
      }),
      [],
    );
    try {
      const router = await vpcRouter(ctx, network);
      if (router) await addInterface(ctx, router.id, id);
    } catch (error) {
      throw failure('adding the subnet to the VPC router', error);
    }
    return { physicalId: id };
  },

  async delete(ctx) {
    return pollingAction(await remove(ctx));
  },

  async checkDeleteComplete(ctx, progress) {
    return remove(ctx, (progress as { attempt: number }).attempt);
  },

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const s = await showNeutronObject<JsonObject & { cidr: string; network_id: string }>(ctx, SUBNETS);
      return { ...(ctx.storedProperties ?? {}), CidrBlock: s.cidr, VpcId: s.network_id };
    });
  },

  // Heat shows the property as given.
  async attribute(_ctx, name, properties) {
    return name === 'AvailabilityZone' ? (properties.AvailabilityZone ?? null) : null;
  },
};
