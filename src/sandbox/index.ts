import type { FastifyInstance } from 'fastify';
import { type AdminAction, adminService } from './admin.js';
import { agentAdminActions, agentAdminService } from './agent/admin.js';
import { GuestAgents } from './agent/supervisor.js';
import { cfnToolsAdminService } from './cfntools/admin.js';
import { CfnToolsGuests } from './cfntools/supervisor.js';
import type { AgentBinder } from './bindings.js';
import { buildSandbox, registerService, type SandboxContext, type ServiceModule } from './app.js';
import { alarmingService } from './alarming/index.js';
import { computeAdminActions, computeService } from './compute/index.js';
import { identityService, seedIdentity, tokenResolver } from './identity.js';
import { regionPrefix, SECOND_REGION } from './identity/tokens.js';
import { imageService } from './image.js';
import { networkAdminActions, networkPorts, networkService } from './network/index.js';
import { objectStoreService } from './object-store/index.js';
import type { Random } from './noise.js';
import { SandboxState } from './state.js';
import { volumeAdminActions, volumeAttachments, volumeService } from './volume/index.js';

export { sandboxClientEnv } from './client-env.js';
export { SandboxState } from './state.js';
export { FIRST_REGION, SECOND_REGION } from './identity/tokens.js';
export { type Noise, defaultNoise } from './noise.js';
export { createAppCredential } from './identity.js';
export type { CallRecord } from './calls.js';

export interface SandboxServerOptions {
  /** The state file (default: in memory). */
  file?: string;
  noise?: unknown;
  random?: Random;
  now?: () => number;
  publicUrl?: string;
  /**
   * Extra users to seed, each in a project of its own name with roles member and reader, password
   * = name (besides admin, demo and Hearth's service user hearth).
   */
  users?: readonly string[];
}

/** A sandbox cloud ready to listen: seeded with its users (and each service's defaults). */
export function createSandbox(options: SandboxServerOptions = {}): {
  app: FastifyInstance;
  ctx: SandboxContext;
  state: SandboxState;
} {
  const state = new SandboxState(options.file);
  seedIdentity(state, options.users);
  // The binders use the context buildSandbox makes below, once requests arrive.
  const made: { ctx?: SandboxContext } = {};
  const regionState = state.region(SECOND_REGION);
  const regions = new Map([
    [null, state],
    [SECOND_REGION, regionState],
  ]);
  const agents = new GuestAgents(() => made.ctx!, regions, options.file);
  const cfnTools = new CfnToolsGuests(() => made.ctx!, regions, options.file);
  // Nova tells both guests of a new server: its user data says which (if any) it runs.
  const guests = (region: string | null): AgentBinder => ({
    serverCreated: (server) => {
      agents.binder(region).serverCreated(server);
      cfnTools.binder(region).serverCreated(server);
    },
  });
  const services = regionalServices(state, () => made.ctx!, guests(null));
  const built = buildSandbox({
    state,
    services: [
      identityService,
      ...services.map((s) => s.service),
      adminService([...services.flatMap((s) => s.admin), ...agentAdminActions(agents)]),
      agentAdminService(agents),
      cfnToolsAdminService(cfnTools),
    ],
    tokens: tokenResolver,
    ...(options.noise !== undefined ? { noise: options.noise } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
  made.ctx = built.ctx;
  // The other region: the same APIs again under /regions/NAME, on objects of its own.
  const regionCtx: SandboxContext = { ...built.ctx, state: regionState };
  const prefix = regionPrefix(SECOND_REGION);
  for (const { service } of regionalServices(regionState, () => regionCtx, guests(SECOND_REGION))) {
    registerService(built.app, regionCtx, service, prefix);
  }
  built.app.addHook('onClose', async () => {
    await agents.close();
    await cfnTools.close();
    state.close();
  });
  // A state file's guests carry on where they were.
  agents.resume();
  cfnTools.resume();
  return { app: built.app, ctx: built.ctx, state };
}

/**
 * The APIs a region serves besides identity (one Keystone serves every region), each with its
 * out-of-band admin actions; Nova reaches that region's Neutron and Cinder through the binders, as
 * the real services call each other.
 */
function regionalServices(
  state: SandboxState,
  live: () => SandboxContext,
  agents: AgentBinder,
): { service: ServiceModule; admin: readonly AdminAction[] }[] {
  const lateCtx = new Proxy({} as SandboxContext, { get: (_target, name) => Reflect.get(live(), name) });
  const bindings = {
    ports: networkPorts(state, {
      now: () => live().now(),
      noise: () => live().noise(),
      random: () => live().random(),
    }),
    volumes: volumeAttachments(lateCtx),
    agents,
  };
  return [
    { service: imageService, admin: [] },
    { service: networkService, admin: networkAdminActions },
    { service: volumeService, admin: volumeAdminActions },
    { service: computeService(bindings), admin: computeAdminActions(bindings) },
    { service: objectStoreService, admin: [] },
    { service: alarmingService, admin: [] },
  ];
}
