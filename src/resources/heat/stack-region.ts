import type { Cloud } from '../../openstack/index.js';

/**
 * Whether OS::Heat::Stack's `context.region_name` names a region the stack owner's cloud has. Heat
 * makes such a stack through the Heat endpoint of that region; Hearth is that Heat, so the child is
 * a nested stack whose calls use the region's endpoints, and the region must be in the owner's
 * Keystone catalog. The words are Heat's (RemoteStack.validate, over keystoneauth's
 * EndpointNotFound), which clients may match on.
 */

/** The deferred check a create or update runs on a stack resource's region (not a Heat constraint name). */
export const STACK_REGION_CHECK = 'OS::Heat::Stack.context.region_name';

/** Heat's words for a region whose Heat endpoint cannot be reached. */
export function regionConnectionFailure(region: string, reason: string): string {
  return `Cannot establish connection to Heat endpoint at region "${region}" due to "${reason}"`;
}

/** The reason `region` cannot hold a stack of this cloud's owner, or undefined when it can. */
export async function stackRegionProblem(cloud: Cloud, region: string): Promise<string | undefined> {
  let regions: string[];
  try {
    regions = await cloud.regions();
  } catch (error) {
    return regionConnectionFailure(region, (error as Error).message);
  }
  if (regions.includes(region)) return undefined;
  return regionConnectionFailure(
    region,
    `${cloud.settings.interface}URL endpoint for orchestration service in ${region} region not found`,
  );
}

/** Heat's keystone.region constraint: the region is one the catalog lists. */
export async function keystoneRegionProblem(cloud: Cloud, region: string): Promise<string | undefined> {
  const regions = await cloud.regions();
  return regions.includes(region) ? undefined : `The KeystoneRegion (${region}) could not be found.`;
}
