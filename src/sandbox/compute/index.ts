import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from '../app.js';
import type { AgentBinder, PortBinder, VolumeBinder } from '../bindings.js';
import { type Compute, COMPUTE_PREFIX } from './common.js';
import { registerFlavorAccess } from './flavor-access.js';
import { registerFlavors } from './flavors.js';
import { registerKeypairs } from './keypairs.js';
import { registerLimits } from './limits.js';
import { registerMetadata } from './metadata.js';
import { MAX_VERSION, MIN_VERSION, negotiateMicroversions } from './microversion.js';
import { registerServerActions } from './server-actions.js';
import { registerRemoteConsoles } from './remote-consoles.js';
import { registerInterfaces } from './server-interfaces.js';
import { registerTags } from './server-tags.js';
import { registerServers } from './servers.js';
import { registerVolumeAttachments } from './volume-attachments.js';

/**
 * Nova v2.1 in the sandbox: flavors (and who may use private ones), key pairs, servers (with a lifecycle computed from
 * timestamps), their actions, metadata, tags, remote consoles, interfaces and volume attachments. Ports and volumes are
 * Neutron's and Cinder's: this module reaches them only through the binders it is given.
 */

export { computeAdminActions } from './admin-actions.js';

function version(ctx: SandboxContext, request: FastifyRequest) {
  return {
    id: 'v2.1',
    status: 'CURRENT',
    version: MAX_VERSION,
    min_version: MIN_VERSION,
    updated: '2013-07-23T11:33:21Z',
    links: [
      { rel: 'self', href: `${ctx.baseUrl(request)}${COMPUTE_PREFIX}/` },
      { rel: 'describedby', type: 'text/html', href: 'http://docs.openstack.org/' },
    ],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.compute+json;version=2.1' }],
  };
}

export function computeService(bindings: {
  ports: PortBinder;
  volumes: VolumeBinder;
  agents?: AgentBinder;
}): ServiceModule {
  return {
    name: 'compute',
    prefix: COMPUTE_PREFIX,
    authenticated: true,
    noisy: true,
    register(app: FastifyInstance, ctx: SandboxContext) {
      const compute: Compute = { ctx, ...bindings };
      negotiateMicroversions(app);
      app.get('/', { config: { public: true } }, async (request) => ({ version: version(ctx, request) }));
      registerFlavors(app, ctx);
      registerFlavorAccess(app, ctx);
      registerKeypairs(app, ctx);
      registerServers(app, compute);
      registerServerActions(app, compute);
      registerInterfaces(app, compute);
      registerMetadata(app, compute);
      registerTags(app, compute);
      registerRemoteConsoles(app, compute);
      registerVolumeAttachments(app, compute);
      registerLimits(app, compute);
    },
  };
}
