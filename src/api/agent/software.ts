import type { Engine } from '../../engine/engine.js';
import type { SoftwareService } from '../../software/contract.js';
import { softwareService } from '../../software/service.js';

/**
 * The software service of one project, for the agent routes: a server's `deployments` metadata,
 * and which server a signalled deployment is for.
 */
export function softwareFor(
  engine: Engine,
  projectId: string,
): Pick<SoftwareService, 'serverDeployments' | 'getDeployment'> {
  const { store, clock } = engine.deps;
  return softwareService(store, { projectId, now: () => clock.now() });
}
