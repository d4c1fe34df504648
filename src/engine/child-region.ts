import { regionConnectionFailure, stackRegionProblem } from '../resources/heat/stack-region.js';
import { type EngineDeps, openstackFor, type StackOwner } from './deps.js';

/**
 * Checked when a child stack is about to be made in a region of its own (OS::Heat::Stack's
 * `context.region_name`): the region must be in the owner's catalog. The create request checked
 * it already when the value was known then; this covers values known only at run time.
 * Answers Heat's reason, or undefined when the region is there.
 */
export async function regionUnreachable(
  deps: EngineDeps,
  owner: StackOwner,
  region: string,
): Promise<string | undefined> {
  try {
    // The catalog is the login's, whatever region the parent's own calls use.
    const { region: _parentRegion, ...credentials } = owner.credentials;
    const cloud = await openstackFor(deps, { projectId: owner.projectId, credentials });
    return await stackRegionProblem(cloud, region);
  } catch (error) {
    return regionConnectionFailure(region, (error as Error).message);
  }
}
