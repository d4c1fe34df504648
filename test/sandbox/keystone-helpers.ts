import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** Calls to a sandbox's Keystone (and other APIs) as a token holder, for the identity tests. */

export type Call = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  token?: string,
  payload?: unknown,
) => Promise<LightMyRequestResponse>;

export function caller(app: FastifyInstance): Call {
  return (method, url, token, payload) =>
    app.inject({
      method,
      url,
      headers: token ? { 'x-auth-token': token } : {},
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
}

export const passwordAuth = (name: string, password = name) => ({
  methods: ['password'],
  password: { user: { name, domain: { name: 'Default' }, password } },
});

/** A trust-scoped token for `trustee` (by password), or the refusal's response. */
export async function trustLogin(app: FastifyInstance, trustee: string, trustId: string, status = 201) {
  const r = await app.inject({
    method: 'POST',
    url: '/identity/v3/auth/tokens',
    payload: { auth: { identity: passwordAuth(trustee), scope: { 'OS-TRUST:trust': { id: trustId } } } },
  });
  assert.equal(r.statusCode, status, r.body);
  return { response: r, token: r.headers['x-subject-token'] as string };
}

/** The user id of a seeded user, as admin sees it. */
export async function userId(app: FastifyInstance, adminToken: string, name: string): Promise<string> {
  const r = await caller(app)('GET', `/identity/v3/users?name=${name}`, adminToken);
  assert.equal(r.statusCode, 200, r.body);
  const [user] = r.json().users as { id: string }[];
  assert.ok(user, `no user ${name}`);
  return user.id;
}
