import { isNotFound, OpenStackError } from '../../../openstack/index.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { failure, realityOf } from '../../openstack/common.js';
import { addInterface, hasInterface, vpcRouter } from './common.js';

/**
 * AWS::EC2::SubnetRouteTableAssociation: the subnet's interface moved from the VPC's router to
 * the route table's; deleting it moves the interface back. Like Heat's, its reference is its
 * physical name; the physical id names the router and the subnet.
 */

type Link = { router: string; subnet: string };

/** Both ids; the subnet's network's router (the VPC's) is found from the subnet. */
async function resolve(ctx: PluginContext, properties: Record<string, unknown>): Promise<Link> {
  const cloud = ctx.openstack();
  const find = async (path: string, key: string, ref: unknown) =>
    (await cloud.findByNameOrId('network', path, key, String(ref))).id;
  return {
    router: await find('/routers', 'routers', properties.RouteTableId),
    subnet: await find('/subnets', 'subnets', properties.SubnetId),
  };
}

async function defaultRouter(ctx: PluginContext, subnet: string) {
  const s = await ctx
    .openstack()
    .request<{ subnet: { network_id: string } }>('network', 'GET', `/subnets/${subnet}`);
  return vpcRouter(ctx, s.body.subnet.network_id);
}

/** Removes the router's interface on the subnet; not there (404, or 400 "no interface") is done. */
async function removeInterface(ctx: PluginContext, router: string, subnet: string) {
  try {
    await ctx
      .openstack()
      .request('network', 'PUT', `/routers/${router}/remove_router_interface`, { subnet_id: subnet });
  } catch (error) {
    if (isNotFound(error) || (error instanceof OpenStackError && error.status === 400)) return;
    throw error;
  }
}

const parse = (physicalId: string): Link => {
  const [router, subnet] = physicalId.split(':subnet_id=') as [string, string];
  return { router, subnet };
};

export const ec2SubnetRouteTableAssociationPlugin: CatalogPlugin = {
  type: 'AWS::EC2::SubnetRouteTableAssociation',
  description: "A subnet routed by a route table instead of its VPC's router.",
  properties: {
    RouteTableId: P.string({ description: 'Route table ID.', required: true }),
    SubnetId: P.string({
      description: 'Subnet ID.',
      required: true,
      constraints: [C.custom('neutron.subnet')],
    }),
  },
  attributes: {},

  async create(ctx, properties) {
    try {
      const link = await resolve(ctx, properties);
      // Each step looks before it acts, so a create run again after a crash completes the move.
      const previous = await defaultRouter(ctx, link.subnet).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (previous && previous.id !== link.router) await removeInterface(ctx, previous.id, link.subnet);
      await addInterface(ctx, link.router, link.subnet);
      return { physicalId: `${link.router}:subnet_id=${link.subnet}` };
    } catch (error) {
      throw failure('associating the subnet with the route table', error);
    }
  },

  async delete(ctx) {
    if (!ctx.physicalId) return {};
    const link = parse(ctx.physicalId);
    try {
      await removeInterface(ctx, link.router, link.subnet);
      const back = await defaultRouter(ctx, link.subnet).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (back && back.id !== link.router) await addInterface(ctx, back.id, link.subnet);
      return {};
    } catch (error) {
      throw failure('moving the subnet back to the VPC router', error);
    }
  },

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const link = parse(ctx.physicalId);
      if (!(await hasInterface(ctx, link.router, link.subnet))) return undefined;
      return { ...(ctx.storedProperties ?? {}) };
    });
  },

  async attribute() {
    return null;
  },

  referenceId: (ctx) => physicalResourceName(ctx),
};
