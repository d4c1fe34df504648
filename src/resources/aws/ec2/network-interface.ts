import type { Cloud } from '../../../openstack/index.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import {
  createNeutronObject,
  failure,
  neutronDeletion,
  realityOf,
  showNeutronObject,
} from '../../openstack/common.js';
import { oncePerContext } from '../../openstack/polling.js';
import { PORTS, tagsProperty } from './common.js';

/**
 * AWS::EC2::NetworkInterface: a Neutron port on a subnet, with a fixed IP when one is asked for
 * and the security groups of GroupSet (names or ids). The physical id is the port's.
 */

type Port = JsonObject & {
  id: string;
  network_id: string;
  fixed_ips: { subnet_id: string; ip_address: string }[];
  security_groups: string[];
};

/** Security group names or ids as ids (Heat's get_secgroup_uuids). */
export async function securityGroupIds(cloud: Cloud, refs: readonly string[]): Promise<string[]> {
  return Promise.all(
    refs.map(
      async (ref) => (await cloud.findByNameOrId('network', '/security-groups', 'security_groups', ref)).id,
    ),
  );
}

/** The port of a subnet as Heat's AWS types make it (NetworkInterface, an Instance's SubnetId). */
export async function subnetPortBody(
  ctx: PluginContext,
  subnetRef: string,
  fixedIp: string | null,
  groups: readonly string[] | null,
  name?: string,
): Promise<JsonObject> {
  const cloud = ctx.openstack();
  const subnet = await cloud.findByNameOrId('network', '/subnets', 'subnets', subnetRef);
  return {
    ...(name === undefined ? {} : { name }),
    admin_state_up: true,
    network_id: String(subnet.network_id),
    fixed_ips: [{ subnet_id: subnet.id, ...(fixedIp ? { ip_address: fixedIp } : {}) }],
    // No GroupSet: Neutron gives the port the default group; an empty one, none.
    ...(groups === null ? {} : { security_groups: await securityGroupIds(cloud, groups) }),
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

export const ec2NetworkInterfacePlugin: CatalogPlugin = {
  type: 'AWS::EC2::NetworkInterface',
  description: 'A network interface: a Neutron port on a subnet.',
  properties: {
    Description: P.string({ description: 'Description for this interface.' }),
    GroupSet: P.list({
      description: 'List of security group IDs associated with this interface.',
      updateAllowed: true,
    }),
    PrivateIpAddress: P.string(),
    SourceDestCheck: P.boolean({
      description: 'Flag indicating if traffic to or from instance is validated.',
      implemented: false,
    }),
    SubnetId: P.string({
      description: 'Subnet ID to associate with this interface.',
      required: true,
      constraints: [C.custom('neutron.subnet')],
    }),
    Tags: tagsProperty({ itemDescription: 'List of tags associated with this interface.' }),
  },
  attributes: {
    PrivateIpAddress: attr('Private IP address of the network interface.', 'string'),
  },

  async create(ctx, properties) {
    // Heat does not send Description to Neutron: the port's description keeps the create marker.
    const id = await createNeutronObject(
      ctx,
      PORTS,
      () =>
        subnetPortBody(
          ctx,
          properties.SubnetId as string,
          (properties.PrivateIpAddress as string | null) ?? null,
          (properties.GroupSet as string[] | null) ?? null,
          physicalResourceName(ctx),
        ),
      [],
    );
    return { physicalId: id };
  },

  async update(ctx, properties, _previous, changed) {
    if (!changed.includes('GroupSet')) return {};
    try {
      // No GroupSet any more: back to the default group, as a create without one.
      const groups = (properties.GroupSet as string[] | null) ?? ['default'];
      const ids = await securityGroupIds(ctx.openstack(), groups);
      await ctx
        .openstack()
        .request('network', 'PUT', `/ports/${ctx.physicalId}`, { port: { security_groups: ids } });
      return {};
    } catch (error) {
      throw failure('updating the security groups of the port', error);
    }
  },

  ...neutronDeletion(PORTS),

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const port = await showNeutronObject<Port>(ctx, PORTS);
      const stored = ctx.storedProperties ?? {};
      const first = port.fixed_ips[0];
      const storedGroups = stored.GroupSet as string[] | null | undefined;
      const wanted = storedGroups
        ? await securityGroupIds(ctx.openstack(), storedGroups).catch(() => [])
        : null;
      return {
        ...stored,
        PrivateIpAddress: stored.PrivateIpAddress
          ? (first?.ip_address ?? null)
          : (stored.PrivateIpAddress ?? null),
        GroupSet:
          wanted === null || sameSet(wanted, port.security_groups)
            ? (storedGroups ?? null)
            : port.security_groups,
      };
    });
  },

  async attribute(ctx, name) {
    if (name !== 'PrivateIpAddress' || !ctx.physicalId) return null;
    const port = await oncePerContext(ctx, 'port', () => showNeutronObject<Port>(ctx, PORTS));
    return port.fixed_ips[0]?.ip_address ?? null;
  },
};
