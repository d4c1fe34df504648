import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from '../app.js';
import { ApiError } from '../errors.js';
import { registerActions } from './actions.js';
import { registerBackups } from './backups.js';
import { registerCatalog, registerDiscovery } from './catalog.js';
import { registerMetadata } from './metadata.js';
import { isAdmin, negotiate } from './request.js';
import { registerVolumes } from './volumes.js';

/**
 * Cinder v3: volumes with a lazy lifecycle (creating -> available, extending, deleting -> gone),
 * their actions and metadata, backups (made, restored, a volume made from one), types, limits and quotas; routes under `/volume/v3/{project_id}`.
 * Attachments are made by Nova's module through `volumeAttachments` (the VolumeBinder).
 */

export { volumeAttachments } from './attachments.js';
export { volumeAdminActions } from './admin.js';

function register(app: FastifyInstance, ctx: SandboxContext): void {
  // Every answer names the microversion it was made at, errors included.
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('Vary', 'OpenStack-API-Version');
    if ((request.routeOptions.config as { public?: boolean }).public) return;
    const version = negotiate(request);
    void reply.header('OpenStack-API-Version', `volume ${version}`);
  });
  registerDiscovery(app, ctx);
  void app.register(
    async (project) => {
      project.addHook('preHandler', async (request: FastifyRequest<{ Params: { project_id: string } }>) => {
        // Only an admin may act in a project other than its token's.
        if (request.params.project_id !== request.caller.projectId && !isAdmin(request)) {
          throw new ApiError(403, `Policy doesn't allow access to project ${request.params.project_id}.`);
        }
      });
      registerVolumes(project, ctx);
      registerBackups(project, ctx);
      registerActions(project, ctx);
      registerMetadata(project, ctx);
      registerCatalog(project, ctx);
    },
    { prefix: '/v3/:project_id' },
  );
}

export const volumeService: ServiceModule = {
  name: 'volume',
  prefix: '/volume',
  authenticated: true,
  noisy: true,
  register,
};
