import type { FastifyInstance } from 'fastify';
import { type AdminAction, adminService } from './admin.js';
import { buildSandbox, type SandboxContext, type ServiceModule } from './app.js';
import { identityService, seedIdentity, tokenResolver } from './identity.js';
import { imageService } from './image.js';
import type { Random } from './noise.js';
import { SandboxState } from './state.js';
import { volumeAdminActions, volumeService } from './volume/index.js';

export { SandboxState } from './state.js';
export { type Noise, defaultNoise } from './noise.js';
export { createAppCredential } from './identity.js';

/** The APIs the sandbox serves besides identity, each with its out-of-band admin actions. */
const SERVICES: { service: ServiceModule; admin: readonly AdminAction[] }[] = [
  { service: imageService, admin: [] },
  { service: volumeService, admin: volumeAdminActions },
];

export interface SandboxServerOptions {
  /** The state file (default: in memory). */
  file?: string;
  noise?: unknown;
  random?: Random;
  now?: () => number;
  publicUrl?: string;
}

/** A sandbox cloud ready to listen: seeded with its users (and each service's defaults). */
export function createSandbox(options: SandboxServerOptions = {}): {
  app: FastifyInstance;
  ctx: SandboxContext;
  state: SandboxState;
} {
  const state = new SandboxState(options.file);
  seedIdentity(state);
  const { app, ctx } = buildSandbox({
    state,
    services: [
      identityService,
      ...SERVICES.map((s) => s.service),
      adminService(SERVICES.flatMap((s) => s.admin)),
    ],
    tokens: tokenResolver,
    ...(options.noise !== undefined ? { noise: options.noise } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
  app.addHook('onClose', async () => state.close());
  return { app, ctx, state };
}
