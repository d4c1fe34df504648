import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { login } from './support.js';

/** A sandbox with a fake clock, logged in as demo and admin, for the Cinder tests. */
export interface Session {
  token: string;
  projectId: string;
}

export interface VolumeCloud {
  app: FastifyInstance;
  ctx: ReturnType<typeof createSandbox>['ctx'];
  demo: Session;
  admin: Session;
  /** Moves the fake clock on. */
  advance(ms: number): void;
  /** A Cinder call as `who` (demo by default) under its project's `/volume/v3/{project_id}`. */
  cinder(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: unknown,
    options?: { as?: Session; version?: string; project?: string },
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function volumeCloud(noise: unknown = { bootDelayMs: 1000 }): Promise<VolumeCloud> {
  let now = Date.parse('2024-05-01T12:00:00Z');
  const { app, ctx } = createSandbox({ now: () => now, noise });
  await app.ready();
  const demo = await login(app, 'demo');
  const admin = await login(app, 'admin');
  return {
    app,
    ctx,
    demo,
    admin,
    advance: (ms) => {
      now += ms;
    },
    cinder(method, path, payload, options = {}) {
      const who = options.as ?? demo;
      return app.inject({
        method,
        url: `/volume/v3/${options.project ?? who.projectId}${path}`,
        headers: {
          'x-auth-token': who.token,
          ...(options.version ? { 'openstack-api-version': `volume ${options.version}` } : {}),
        },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
    },
    close: () => app.close(),
  };
}
