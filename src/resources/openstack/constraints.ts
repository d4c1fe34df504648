import { type Cloud, isNotFound, LookupError } from '../../openstack/index.js';
import { keystoneRegionProblem, STACK_REGION_CHECK, stackRegionProblem } from '../heat/stack-region.js';

/**
 * The custom constraints that look a value up in the cloud (Heat's client plugins' constraints),
 * checked when a stack is created or updated: a mistyped flavor is refused before anything is
 * made, not found when the server is created. Each answers the reason the value fails, or
 * undefined when it names an object the project can use.
 */
export type CloudConstraintCheck = (cloud: Cloud, value: string) => Promise<string | undefined>;

/**
 * Looks `value` up by id, then by name, in a collection; Heat's EntityNotFound wording unless the
 * client Heat uses for the type words it otherwise (`notFound`).
 */
function byNameOrId(
  service: string,
  path: string,
  listKey: string,
  entity: string,
  notFound = (value: string) => `The ${entity} (${value}) could not be found.`,
): CloudConstraintCheck {
  return async (cloud, value) => {
    try {
      await cloud.findByNameOrId(service, path, listKey, value);
      return undefined;
    } catch (error) {
      if (error instanceof LookupError && error.kind === 'many') {
        return `Multiple physical resources were found with name (${value}).`;
      }
      if (isNotFound(error)) return notFound(value);
      throw error;
    }
  };
}

/** Key pairs are found by name only (their name is their id). */
const keypair: CloudConstraintCheck = async (cloud, value) => {
  try {
    await cloud.request('compute', 'GET', `/os-keypairs/${encodeURIComponent(value)}`);
    return undefined;
  } catch (error) {
    if (isNotFound(error)) return `The Key (${value}) could not be found.`;
    throw error;
  }
};

/** Backups are found by id only (Heat's get_volume_backup). */
const backup: CloudConstraintCheck = async (cloud, value) => {
  try {
    await cloud.request('block-storage', 'GET', `/backups/${encodeURIComponent(value)}`);
    return undefined;
  } catch (error) {
    if (isNotFound(error)) return `The Volume backup (${value}) could not be found.`;
    throw error;
  }
};

export const CLOUD_CONSTRAINTS: Readonly<Record<string, CloudConstraintCheck>> = {
  'nova.flavor': byNameOrId('compute', '/flavors', 'flavors', 'Flavor'),
  'nova.keypair': keypair,
  'nova.server': byNameOrId('compute', '/servers', 'servers', 'Server'),
  'glance.image': byNameOrId('image', '/images', 'images', 'Image'),
  'neutron.network': byNameOrId('network', '/networks', 'networks', 'Network'),
  'neutron.subnet': byNameOrId('network', '/subnets', 'subnets', 'Subnet'),
  'neutron.port': byNameOrId('network', '/ports', 'ports', 'Port'),
  'neutron.router': byNameOrId('network', '/routers', 'routers', 'Router'),
  'neutron.security_group': byNameOrId('network', '/security-groups', 'security_groups', 'Security Group'),
  'neutron.subnetpool': byNameOrId('network', '/subnetpools', 'subnetpools', 'Subnet Pool'),
  // Heat finds these through neutronclient and openstacksdk, whose words these are.
  'neutron.qos_policy': byNameOrId(
    'network',
    '/qos/policies',
    'policies',
    'QoS Policy',
    (value) => `Unable to find policy with name or id '${value}'`,
  ),
  'neutron.segment': byNameOrId(
    'network',
    '/segments',
    'segments',
    'Segment',
    (value) => `No Segment found for ${value}`,
  ),
  'cinder.volume': byNameOrId('block-storage', '/volumes', 'volumes', 'Volume'),
  'cinder.snapshot': byNameOrId('block-storage', '/snapshots', 'snapshots', 'VolumeSnapshot'),
  'cinder.backup': backup,
  'cinder.vtype': byNameOrId('block-storage', '/types', 'volume_types', 'Volume Type'),
  'keystone.region': keystoneRegionProblem,
  // Not a constraint a template can name: OS::Heat::Stack's region, checked the same way.
  [STACK_REGION_CHECK]: stackRegionProblem,
};
