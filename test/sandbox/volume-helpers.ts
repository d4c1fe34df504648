import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';

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

async function login(app: FastifyInstance, name: string): Promise<Session> {
  const r = await app.inject({
    method: 'POST',
    url: '/identity/v3/auth/tokens',
    payload: {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name, domain: { name: 'Default' }, password: name } },
        },
        scope: { project: { name, domain: { name: 'Default' } } },
      },
    },
  });
  if (r.statusCode !== 201) throw new Error(`login ${name}: ${r.statusCode} ${r.body}`);
  return { token: r.headers['x-subject-token'] as string, projectId: r.json().token.project.id as string };
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
