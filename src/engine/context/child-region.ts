import { regionConnectionFailure, stackRegionProblem } from '../../resources/heat/stack-region.js';
import { type EngineDeps, openstackFor, type StackOwner } from '../core/deps.js';

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

/**
 * Whether a child stack is where its parent now wants it. A child made before regions were
 * recorded has none: it is in the owner's default region (the cloud's `region_name`, else the
 * catalog's first), so naming that region does not replace it.
 */
export async function inWantedRegion(
  deps: EngineDeps,
  owner: StackOwner,
  recorded: string | undefined,
  wanted: string | undefined,
): Promise<boolean> {
  if (recorded === wanted) return true;
  if (recorded !== undefined || wanted === undefined) return false;
  try {
    const { region: _parentRegion, ...credentials } = owner.credentials;
    const cloud = await openstackFor(deps, { projectId: owner.projectId, credentials });
    const regions = await cloud.regions();
    return (cloud.settings.regionName ?? regions[0]) === wanted;
  } catch {
    // Not reachable now: leave the child where it is rather than replace it on a guess.
    return true;
  }
}
