import type { Engine } from '../../engine/engine.js';
import type { SoftwareService } from '../../software/contract.js';

/**
 * The software service of one project, for the agent routes (a server's `deployments` metadata,
 * which deployment a signal is for).
 * TODO(sw-store): until src/software/service.ts is merged, no deployment is found.
 */
export function softwareFor(
  _engine: Engine,
  _projectId: string,
): Pick<SoftwareService, 'serverDeployments' | 'getDeployment'> {
  return {
    serverDeployments: async () => [],
    getDeployment: async () => undefined,
  };
}
