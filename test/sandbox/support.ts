import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../src/openstack/index.js';
import { createSandbox, sandboxClientEnv, type SandboxServerOptions } from '../../src/sandbox/index.js';
import type { SandboxState } from '../../src/sandbox/state.js';

/** What the sandbox tests share: logging in, and the real openstack client pointed at a sandbox. */

/** A project-scoped token of a seeded user (whose password is its name), and its project. */
export async function login(
  app: FastifyInstance,
  name: string,
): Promise<{ token: string; projectId: string }> {
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
  assert.equal(r.statusCode, 201, `login ${name}: ${r.body}`);
  return { token: r.headers['x-subject-token'] as string, projectId: r.json().token.project.id as string };
}

const run = promisify(execFile);
export { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';

/** The OS_* variables that make a client user demo of the sandbox at `address` (its URL). */
export function sandboxEnv(address: string): Record<string, string> {
  return sandboxClientEnv(address);
}

/** The real openstack client as a user (demo unless named) of the sandbox at `address`, with a HOME of its own. */
export function openstackClient(address: string, user = 'demo'): (...args: string[]) => Promise<string> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: mkdtempSync(join(tmpdir(), 'hearth-openstack-client-')),
    ...sandboxClientEnv(address, user),
    OS_IDENTITY_API_VERSION: '3',
  };
  return async (...args) => {
    try {
      return (await run('openstack', args, { env, timeout: 60_000 })).stdout;
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      return assert.fail(
        `openstack ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}\n${e.stdout ?? ''}`,
      );
    }
  };
}

/** A sandbox cloud started for the tests of one describe(): its app and state once before() ran. */
export interface SandboxCloud {
  app: FastifyInstance;
  state: SandboxState;
  /** Its URL, e.g. http://127.0.0.1:40123. */
  address: string;
}

/**
 * Starts a sandbox cloud before the tests of the calling describe() and points the OS_* variables
 * at it (`hearth` children inherit them, as they would a user's openrc); restores the environment
 * and stops the cloud after them.
 */
export function sandboxCloud(
  options: SandboxServerOptions = {},
  env: Record<string, string> = {},
): SandboxCloud {
  const cloud = {} as SandboxCloud;
  const saved = { ...process.env };
  before(async () => {
    const { app, state } = createSandbox(options);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    Object.assign(cloud, { app, state, address: `http://127.0.0.1:${port}` });
    Object.assign(process.env, sandboxEnv(cloud.address), env);
  });
  after(async () => {
    process.env = saved;
    await cloud.app?.close();
  });
  return cloud;
}

/** A sandbox listening on a free port, and sessions of its seeded users (password = name) over HTTP. */
export interface ListeningSandbox {
  app: FastifyInstance;
  state: SandboxState;
  /** The OS_* variables of user demo. */
  env: Record<string, string>;
  /** A new session of a seeded user (demo, admin...). */
  open(user: string): Cloud;
}

export async function listeningSandbox(options: SandboxServerOptions = {}): Promise<ListeningSandbox> {
  const { app, state } = createSandbox(options);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const env = sandboxClientEnv(url);
  const open = (user: string) =>
    openCloud(loadCloudSettings({ env: sandboxClientEnv(url, user), searchPath: [] }));
  return { app, state, env, open };
}
