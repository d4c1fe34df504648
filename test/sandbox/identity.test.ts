import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAppCredential, createSandbox } from '../../src/sandbox/index.js';

const login = (user: string, password: string, project?: string) => ({
  auth: {
    identity: {
      methods: ['password'],
      password: { user: { name: user, domain: { name: 'Default' }, password } },
    },
    ...(project ? { scope: { project: { name: project, domain: { name: 'Default' } } } } : {}),
  },
});

describe('sandbox identity (Keystone v3)', () => {
  let app: FastifyInstance;
  let state: ReturnType<typeof createSandbox>['state'];

  before(async () => {
    ({ app, state } = createSandbox());
    await app.ready();
  });
  after(() => app.close());

  it('discovers v3', async () => {
    const root = await app.inject({ method: 'GET', url: '/identity', headers: { host: 'cloud:1' } });
    assert.equal(root.statusCode, 300);
    assert.equal(root.json().versions.values[0].links[0].href, 'http://cloud:1/identity/v3/');
    const v3 = await app.inject({ method: 'GET', url: '/identity/v3' });
    assert.equal(v3.json().version.id, 'v3.14');
  });

  it('issues a scoped token with a catalog of every API, and validates it', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/identity/v3/auth/tokens',
      headers: { host: 'cloud:1' },
      payload: login('demo', 'demo', 'demo'),
    });
    assert.equal(r.statusCode, 201, r.body);
    const token = r.headers['x-subject-token'] as string;
    assert.ok(token.length > 20);
    const body = r.json().token;
    assert.equal(body.project.name, 'demo');
    assert.deepEqual(body.catalog.map((s: { type: string }) => s.type).sort(), [
      'alarming',
      'block-storage',
      'compute',
      'identity',
      'image',
      'network',
      'object-store',
      'volumev3',
    ]);
    const compute = body.catalog.find((s: { type: string }) => s.type === 'compute');
    assert.equal(compute.endpoints[0].url, 'http://cloud:1/compute/v2.1');
    const volume = body.catalog.find((s: { type: string }) => s.type === 'volumev3');
    assert.equal(volume.endpoints[0].url, `http://cloud:1/volume/v3/${body.project.id}`);

    const check = await app.inject({
      method: 'GET',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-auth-token': token, 'x-subject-token': token },
    });
    assert.equal(check.statusCode, 200);
    assert.equal(check.json().token.user.name, 'demo');

    const revoke = await app.inject({
      method: 'DELETE',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-auth-token': token, 'x-subject-token': token },
    });
    assert.equal(revoke.statusCode, 204);
    // Validated by an admin, the revoked token is not found; by itself, it no longer authenticates.
    const admin = await app.inject({
      method: 'POST',
      url: '/identity/v3/auth/tokens',
      payload: login('admin', 'admin', 'admin'),
    });
    const gone = await app.inject({
      method: 'GET',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-auth-token': admin.headers['x-subject-token'] as string, 'x-subject-token': token },
    });
    assert.equal(gone.statusCode, 404);
    const self = await app.inject({
      method: 'GET',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-auth-token': token, 'x-subject-token': token },
    });
    assert.equal(self.statusCode, 401);
  });

  it('refuses a wrong password and another user’s project with Keystone’s error body', async () => {
    for (const payload of [login('demo', 'nope'), login('demo', 'demo', 'admin'), login('ghost', 'x')]) {
      const r = await app.inject({ method: 'POST', url: '/identity/v3/auth/tokens', payload });
      assert.equal(r.statusCode, 401);
      assert.deepEqual(Object.keys(r.json().error).sort(), ['code', 'message', 'title']);
      assert.equal(r.json().error.code, 401);
    }
  });

  it('logs in with an application credential, scoped to its project', async () => {
    const credential = createAppCredential(state, 'admin', 'ci');
    const r = await app.inject({
      method: 'POST',
      url: '/identity/v3/auth/tokens',
      payload: {
        auth: { identity: { methods: ['application_credential'], application_credential: credential } },
      },
    });
    assert.equal(r.statusCode, 201, r.body);
    assert.equal(r.json().token.project.name, 'admin');
    const wrong = await app.inject({
      method: 'POST',
      url: '/identity/v3/auth/tokens',
      payload: {
        auth: {
          identity: {
            methods: ['application_credential'],
            application_credential: { id: credential.id, secret: 'wrong' },
          },
        },
      },
    });
    assert.equal(wrong.statusCode, 401);
  });
});

describe('sandbox noise knobs', () => {
  it('are read and changed through the admin route, and a bad knob is refused by name', async () => {
    const { app } = createSandbox({ noise: { latencyMs: 5 } });
    try {
      const read = await app.inject({ method: 'GET', url: '/admin/noise' });
      assert.equal(read.json().latencyMs, 5);
      assert.equal(read.json().quotas.instances, -1);
      const changed = await app.inject({
        method: 'PUT',
        url: '/admin/noise',
        payload: { bootFailureRate: 0.1, quotas: { instances: 3 } },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().bootFailureRate, 0.1);
      assert.equal(changed.json().quotas.instances, 3);
      assert.equal(changed.json().quotas.cores, -1);
      assert.equal(changed.json().latencyMs, 5);
      const bad = await app.inject({ method: 'PUT', url: '/admin/noise', payload: { bootFailureRate: 2 } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /bootFailureRate/);
      const unknown = await app.inject({ method: 'PUT', url: '/admin/noise', payload: { frobnicate: 1 } });
      assert.equal(unknown.statusCode, 400);
    } finally {
      await app.close();
    }
  });
});
