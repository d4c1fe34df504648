import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { login } from './support.js';

/** A parsed JSON answer, read freely by the tests (its shape is what they assert). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = any;

/** A sandbox and a Neutron client of it for one project, for the network tests. */
export interface NetworkClient {
  app: FastifyInstance;
  sandbox: ReturnType<typeof createSandbox>;
  /** A token of the `demo` project (and `admin`'s, for the other-project checks). */
  token: string;
  adminToken: string;
  projectId: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: unknown,
    token?: string,
  ): Promise<{ status: number; body: Answer; headers: Record<string, unknown> }>;
  /** A create that must answer 201; the created object. */
  create(collection: string, body: Record<string, unknown>): Promise<Answer>;
}

const SINGULAR: Record<string, string> = {
  networks: 'network',
  subnets: 'subnet',
  ports: 'port',
  routers: 'router',
  floatingips: 'floatingip',
  'security-groups': 'security_group',
  'security-group-rules': 'security_group_rule',
};

export async function networkClient(
  options: Parameters<typeof createSandbox>[0] = {},
): Promise<NetworkClient> {
  const sandbox = createSandbox(options);
  const { app } = sandbox;
  await app.ready();
  const demo = await login(app, 'demo');
  const admin = await login(app, 'admin');
  const call: NetworkClient['call'] = async (method, path, payload, token = demo.token) => {
    const r = await app.inject({
      method,
      url: `/network/v2.0${path}`,
      headers: { 'x-auth-token': token, host: 'cloud:1' },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: r.statusCode, body: r.body ? r.json() : undefined, headers: r.headers };
  };
  return {
    app,
    sandbox,
    token: demo.token,
    adminToken: admin.token,
    projectId: demo.projectId,
    call,
    async create(collection, body) {
      const key = SINGULAR[collection]!;
      const r = await call('POST', `/${collection}`, { [key]: body });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body[key];
    },
  };
}

/** Asserts a Neutron error answer: status and NeutronError type, with its three fields. */
export function assertNeutronError(r: { status: number; body: Answer }, status: number, type: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body.NeutronError).sort(), ['detail', 'message', 'type']);
  assert.equal(r.body.NeutronError.type, type, r.body.NeutronError.message);
}
