import { P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, PollResult } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { createNeutronObject, deleteNeutronObject, failure, pollingAction } from '../../openstack/common.js';
import { ROUTERS, storedWhileExists, tagsProperty, vpcRouter } from './common.js';

/**
 * AWS::EC2::RouteTable: a Neutron router of its own, which takes the VPC router's gateway when that
 * has one. The router carries the tag `vpc:<VPC network id>`, which a VPCGatewayAttachment finds
 * the VPC's route tables by. The physical id is the router's.
 */

/** The tag that marks a route table's router as one of a VPC's. */
export const vpcTag = (networkId: string) => `vpc:${networkId}`;

async function remove(ctx: PluginContext, attempt = 1): Promise<PollResult> {
  return deleteNeutronObject(ctx, ROUTERS, attempt);
}

export const ec2RouteTablePlugin: CatalogPlugin = {
  type: 'AWS::EC2::RouteTable',
  description: "A route table of a VPC: a Neutron router, connected to the VPC router's external network.",
  supportStatus: { version: '2014.1' },
  properties: {
    VpcId: P.string({ description: 'VPC ID for where the route table is created.', required: true }),
    Tags: tagsProperty({ itemDescription: 'List of tags to be attached to this resource.' }),
  },
  attributes: {},

  async create(ctx, properties) {
    const network = properties.VpcId as string;
    const id = await createNeutronObject(ctx, ROUTERS, async () => ({ name: physicalResourceName(ctx) }), [
      vpcTag(network),
    ]);
    try {
      const gateway = (await vpcRouter(ctx, network))?.external_gateway_info?.network_id;
      if (gateway) {
        await ctx.openstack().request('network', 'PUT', `/routers/${id}`, {
          router: { external_gateway_info: { network_id: gateway } },
        });
      }
    } catch (error) {
      throw failure('connecting the route table to the external network', error);
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
    return storedWhileExists(ctx, ctx.physicalId ? `/routers/${ctx.physicalId}` : null);
  },

  async attribute() {
    return null;
  },
};

/** The routers of the VPC's route tables (their tag), for a gateway attachment. */
export async function routeTablesOf(ctx: PluginContext, networkId: string): Promise<string[]> {
  const r = await ctx
    .openstack()
    .request<{ routers: { id: string }[] }>('network', 'GET', '/routers', undefined, {
      query: { tags: vpcTag(networkId) },
    });
  return r.body.routers.map((router) => router.id);
}
