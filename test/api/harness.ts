import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  type Authenticator,
  noauthAuthenticator,
  standaloneAuthenticator,
} from '../../src/api/authenticator.js';
import type { ApiDeps, ApiLimits } from '../../src/api/deps.js';
import type { Api } from '../../src/api/context.js';
import { buildServer } from '../../src/api/server.js';
import { AgentSigner } from '../../src/auth/agent-credentials.js';
import { StackUserKeys } from '../../src/auth/stack-user-keys.js';
import { createProject, createToken, createUser, SignalSigner } from '../../src/auth/index.js';
import { defaultConfig } from '../../src/config/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { openEngine } from '../../src/cli/embedded.js';
import type { StackRecord } from '../../src/store/contract.js';

/**
 * An API server in this process (requests through Fastify's inject: the whole HTTP stack but the
 * socket) on a fresh SQLite file. Nothing runs work in the background: `settle` runs the engine
 * until a stack's operation has ended, so tests are deterministic.
 */
export interface TestApi {
  app: Api;
  engine: Engine;
  /** The SQLite file of its state. */
  dbFile: string;
  /** A request; `token` goes in X-Auth-Token, `body` is sent as JSON (a string is sent as is). */
  call(
    method: InjectOptions['method'],
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  settle(stackId: string): Promise<StackRecord | undefined>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  auth?: 'noauth' | 'standalone' | Authenticator;
  limits?: Partial<ApiLimits>;
  /** A logger for the server's request logs (none by default). */
  logger?: FastifyBaseLogger;
  /** The server's monotonic clock in ms (the write rate limit's); real time by default. */
  now?: () => number;
  /** The console's password login (keystone mode's). */
  passwordLogin?: ApiDeps['passwordLogin'];
}

export async function startApi(options: TestApiOptions = {}): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-api-'));
  const config = { ...defaultConfig(), database: join(dir, 'state.db'), action_retry_limit: 0 };
  const engine = await openEngine(config);
  await engine.deps.store.migrate();
  const auth = options.auth ?? 'noauth';
  const authenticator =
    auth === 'noauth'
      ? noauthAuthenticator()
      : auth === 'standalone'
        ? standaloneAuthenticator(engine.deps.store)
        : auth;
  const limits: ApiLimits = { ...config, ...options.limits };
  const signer = await SignalSigner.load(engine.deps.store, '');
  const agentSigner = await AgentSigner.load(engine.deps.store, '');
  const stackUserKeys = await StackUserKeys.load(engine.deps.store, '');
  const app = await buildServer(
    {
      engine,
      authenticator,
      limits,
      signer,
      agentSigner,
      stackUserKeys,
      ...(options.passwordLogin ? { passwordLogin: options.passwordLogin } : {}),
    },
    { ...(options.logger ? { logger: options.logger } : {}), ...(options.now ? { now: options.now } : {}) },
  );
  return {
    app,
    engine,
    dbFile: config.database,
    call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers['x-auth-token'] = opts.token;
      const body = opts.body;
      if (body !== undefined && headers['content-type'] === undefined)
        headers['content-type'] = 'application/json';
      return app.inject({
        method,
        url,
        headers,
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    },
    settle: (stackId) => engine.waitForStack(stackId),
    async close() {
      await app.close();
      await engine.stop();
      await engine.deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A project with one user and a token for it (standalone auth). */
export async function tenant(
  api: TestApi,
  name: string,
  roles: string[] = ['member'],
): Promise<{ projectId: string; token: string }> {
  const store = api.engine.deps.store;
  const project = await createProject(store, name);
  await createUser(store, project.id, `${name}-user`, roles);
  const { token } = await createToken(store, project.id, `${name}-user`);
  return { projectId: project.id, token };
}

/** Heat's error body, as every 4xx and 5xx answer carries it. */
export interface HeatError {
  code: number;
  title: string;
  explanation: string;
  error: { message: string; type: string; traceback: null };
}

export const SAMPLE_TEMPLATE = {
  heat_template_version: '2018-08-31',
  description: 'a sample',
  parameters: {
    v: { type: 'string', default: 'one' },
    secret: { type: 'string', default: 's3cr3t', hidden: true },
  },
  resources: {
    r1: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'v' } } },
    r2: { type: 'OS::Heat::TestResource', properties: { value: { get_attr: ['r1', 'output'] } } },
  },
  outputs: { out: { description: 'r2 output', value: { get_attr: ['r2', 'output'] } } },
};
