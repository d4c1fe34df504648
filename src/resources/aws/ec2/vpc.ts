import { isNotFound } from '../../../openstack/index.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, PollResult } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import {
  createNeutronObject,
  deleteNeutronObject,
  deleteOrRetry,
  failure,
  pollingAction,
} from '../../openstack/common.js';
import { NETWORKS, storedWhileExists, ROUTERS, tagsProperty, vpcRouter } from './common.js';

/**
 * AWS::EC2::VPC: a Neutron network and a router of the same name (how Heat ties them together;
 * the VPC's subnets get interfaces on that router). The physical id is the network's.
 */

type Progress = { phase: 'router' | 'network'; attempt: number };

/** Deletes the router, then the network; each "in use" answer is polled again for a while. */
async function remove(ctx: PluginContext, p: Progress): Promise<PollResult> {
  if (!ctx.physicalId) return { done: true };
  if (p.phase === 'router') {
    let router;
    try {
      router = await vpcRouter(ctx, ctx.physicalId);
    } catch (error) {
      if (!isNotFound(error)) throw failure('finding the router of the VPC', error);
    }
    if (router) {
      const id = router.id;
      const r = await deleteOrRetry(
        () => ctx.openstack().request('network', 'DELETE', `/routers/${id}`),
        'the router of the VPC',
        p.attempt,
      );
      if (!r.done) return { ...r, progress: { phase: 'router', ...(r.progress as { attempt: number }) } };
    }
  }
  const r = await deleteNeutronObject(ctx, NETWORKS, p.phase === 'network' ? p.attempt : 1);
  if (r.done) return r;
  return { ...r, progress: { phase: 'network', ...(r.progress as { attempt: number }) } };
}

export const ec2VpcPlugin: CatalogPlugin = {
  type: 'AWS::EC2::VPC',
  description: 'A virtual private cloud: a Neutron network with a router of the same name.',
  properties: {
    CidrBlock: P.string({ description: 'CIDR block to apply to the VPC.' }),
    InstanceTenancy: P.string({
      description:
        'Allowed tenancy of instances launched in the VPC (not implemented: instances are placed as Nova chooses).',
      default: 'default',
      implemented: false,
      constraints: [C.allowedValues(['default', 'dedicated'])],
    }),
    Tags: tagsProperty({ itemDescription: 'List of tags to attach to the instance.' }),
  },
  attributes: {},

  async create(ctx) {
    const name = physicalResourceName(ctx);
    const id = await createNeutronObject(ctx, NETWORKS, async () => ({ name }), []);
    // The router is found by the network's name: made once, whichever run of the create gets here.
    try {
      if ((await vpcRouter(ctx, id)) === undefined) {
        await createNeutronObject(ctx, ROUTERS, async () => ({ name }), []);
      }
    } catch (error) {
      throw failure('creating the router of the VPC', error);
    }
    return { physicalId: id };
  },

  async delete(ctx) {
    return pollingAction(await remove(ctx, { phase: 'router', attempt: 1 }));
  },

  async checkDeleteComplete(ctx, progress) {
    return remove(ctx, progress as Progress);
  },

  async getReality(ctx) {
    // Heat reads none of the VPC's properties back: the network existing is all there is.
    return storedWhileExists(ctx, ctx.physicalId ? `/networks/${ctx.physicalId}` : null);
  },

  async attribute() {
    return null;
  },
};
