import { isNotFound } from '../../../openstack/index.js';
import { P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { failure, realityOf } from '../../openstack/common.js';
import { externalNetworkId, type Router } from './common.js';
import { routeTablesOf } from './route-table.js';

/**
 * AWS::EC2::VPCGatewayAttachment: every route table of the VPC gets a gateway on the external
 * network (Heat attaches route tables only, not the VPC's own router). It depends on the
 * template's route tables of the same VPC, as in Heat, so they exist first. Its reference is its
 * physical name; the physical id names the VPC.
 */

export const ec2VpcGatewayAttachmentPlugin: CatalogPlugin = {
  type: 'AWS::EC2::VPCGatewayAttachment',
  description: "Connects a VPC's route tables to the external network (an InternetGateway).",
  implicitDependencies: [
    {
      on: ['AWS::EC2::RouteTable'],
      applies: (self, table) => {
        const vpc = self.identity('VpcId');
        return vpc !== undefined && vpc === table.identity('VpcId');
      },
    },
  ],
  properties: {
    VpcId: P.string({ description: 'VPC ID for this gateway association.', required: true }),
    InternetGatewayId: P.string({ description: 'ID of the InternetGateway.' }),
    VpnGatewayId: P.string({ description: 'ID of the VPNGateway to attach to the VPC.', implemented: false }),
  },
  attributes: {},

  async create(ctx, properties) {
    const vpc = properties.VpcId as string;
    try {
      const external = await externalNetworkId(ctx);
      for (const router of await routeTablesOf(ctx, vpc)) {
        await ctx.openstack().request('network', 'PUT', `/routers/${router}`, {
          router: { external_gateway_info: { network_id: external } },
        });
      }
      return { physicalId: `vpc:${vpc}` };
    } catch (error) {
      throw failure('attaching the gateway to the route tables', error);
    }
  },

  async delete(ctx) {
    const vpc = ctx.storedProperties?.VpcId as string | undefined;
    if (!vpc) return {};
    try {
      for (const router of await routeTablesOf(ctx, vpc)) {
        await ctx
          .openstack()
          .request('network', 'PUT', `/routers/${router}`, { router: { external_gateway_info: null } })
          .catch((error: unknown) => {
            if (!isNotFound(error)) throw error;
          });
      }
      return {};
    } catch (error) {
      throw failure('detaching the gateway from the route tables', error);
    }
  },

  async getReality(ctx) {
    // Present while every route table of the VPC still has its gateway.
    return realityOf(async () => {
      const vpc = ctx.storedProperties?.VpcId as string | undefined;
      if (!ctx.physicalId || !vpc) return undefined;
      const cloud = ctx.openstack();
      for (const id of await routeTablesOf(ctx, vpc)) {
        const r = await cloud.request<{ router: Router }>('network', 'GET', `/routers/${id}`);
        if (!r.body.router.external_gateway_info) return undefined;
      }
      return { ...(ctx.storedProperties ?? {}) };
    });
  },

  async attribute() {
    return null;
  },

  referenceId: (ctx) => physicalResourceName(ctx),
};
