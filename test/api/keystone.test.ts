import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keystoneAuthenticator } from '../../src/api/authenticator.js';
import { KeystoneClient } from '../../src/auth/keystone.js';
import { type FakeKeystone, SERVICE, SERVICE_PROJECT_ID, startFakeKeystone } from '../auth/fake-keystone.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';

// The API with --auth keystone: tokens validated by a (fake) Keystone, the project from the token.
describe('API: Keystone authentication', () => {
  let keystone: FakeKeystone;
  let api: TestApi;
  const warnings: string[] = [];

  before(async () => {
    keystone = await startFakeKeystone();
    const client = new KeystoneClient(
      { url: keystone.url, ...SERVICE, cacheMs: 30_000, timeoutMs: 2000 },
      { warn: (m) => warnings.push(m) },
    );
    api = await startApi({
      auth: keystoneAuthenticator(client),
      passwordLogin: (l) => client.passwordLogin(l),
    });
  });
  after(async () => {
    await api.close();
    await keystone.close();
  });

  function assertHeatError(body: HeatError, code: number, type: string): void {
    assert.equal(body.code, code);
    assert.equal(body.error.type, type);
    assert.equal(body.error.traceback, null);
    assert.equal(typeof body.title, 'string');
    assert.equal(typeof body.explanation, 'string');
  }

  it('serves a valid token for its own project: stacks are created in the token’s project', async () => {
    const token = keystone.issue({ projectId: 'p-alpha', roles: ['member'] });
    const created = await api.call('POST', '/v1/p-alpha/stacks', {
      token,
      body: { stack_name: 'ks-one', template: SAMPLE_TEMPLATE },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { stack } = created.json() as { stack: { id: string } };
    await api.settle(stack.id);
    const shown = await api.call('GET', `/v1/p-alpha/stacks/ks-one/${stack.id}`, { token });
    assert.equal(shown.statusCode, 200);
    const parameters = (shown.json() as { stack: { parameters: Record<string, string> } }).stack.parameters;
    assert.equal(parameters['OS::project_id'], 'p-alpha');
    const list = await api.call('GET', '/v1/p-alpha/stacks', { token });
    assert.deepEqual(
      (list.json() as { stacks: { id: string }[] }).stacks.map((s) => s.id),
      [stack.id],
    );
  });

  it('logs the web console in with a user’s password through Keystone (POST /console/login)', async () => {
    const made = await api.call('POST', '/console/login', {
      body: { user: SERVICE.user, password: SERVICE.password, project: SERVICE.project },
    });
    assert.equal(made.statusCode, 200, made.body);
    const { token, project_id: project } = made.json() as { token: string; project_id: string };
    assert.equal(project, SERVICE_PROJECT_ID);
    assert.match(token, /^svc-/);
    assert.equal(made.headers['cache-control'], 'no-store');
    const body = JSON.parse(keystone.requests.at(-1)!.body) as {
      auth: { identity: { password: { user: { domain: { name: string } } } } };
    };
    assert.equal(body.auth.identity.password.user.domain.name, 'Default');
    const refused = await api.call('POST', '/console/login', {
      body: { user: SERVICE.user, password: 'wrong', project: SERVICE.project },
    });
    assert.equal(refused.statusCode, 401);
    assert.ok(!refused.body.includes('wrong'));
    const incomplete = await api.call('POST', '/console/login', { body: { user: SERVICE.user } });
    assert.equal(incomplete.statusCode, 400);
  });

  it('refuses a token for another project’s URL (403), and global_tenant without the admin role', async () => {
    const token = keystone.issue({ projectId: 'p-alpha', roles: ['member'] });
    const other = await api.call('GET', '/v1/p-beta/stacks', { token });
    assert.equal(other.statusCode, 403);
    assertHeatError(other.json() as HeatError, 403, 'Forbidden');
    const global = await api.call('GET', '/v1/p-alpha/stacks?global_tenant=true', { token });
    assert.equal(global.statusCode, 403);
    assertHeatError(global.json() as HeatError, 403, 'Forbidden');
  });

  it('lets a token with Keystone’s admin role list every project’s stacks', async () => {
    const admin = keystone.issue({ projectId: 'p-admin', roles: ['reader', 'admin'] });
    const res = await api.call('GET', '/v1/p-admin/stacks?global_tenant=true', { token: admin });
    assert.equal(res.statusCode, 200, res.body);
    const names = (res.json() as { stacks: { stack_name: string; project: string }[] }).stacks.map(
      (s) => `${s.project}/${s.stack_name}`,
    );
    assert.ok(names.includes('p-alpha/ks-one'), names.join());
  });

  it('answers a missing, unknown, expired or unscoped token with 401 and Heat’s body', async () => {
    const missing = await api.call('GET', '/v1/p-alpha/stacks');
    assert.equal(missing.statusCode, 401);
    assertHeatError(missing.json() as HeatError, 401, 'HTTPUnauthorized');
    const expired = keystone.issue({ projectId: 'p-alpha', expiresAt: Date.now() - 1000 });
    const unscoped = keystone.issue({ projectId: null });
    for (const token of ['ks-never-issued', expired, unscoped]) {
      const res = await api.call('GET', '/v1/p-alpha/stacks', { token });
      assert.equal(res.statusCode, 401, token);
      const body = res.json() as HeatError;
      assertHeatError(body, 401, 'HTTPUnauthorized');
      assert.equal(body.title, 'Unauthorized');
      assert.ok(!res.body.includes(token), 'the token is not echoed');
    }
  });

  it('answers 503 with Heat’s body when Keystone fails, while cached tokens keep working', async () => {
    const cached = keystone.issue({ projectId: 'p-alpha' });
    assert.equal((await api.call('GET', '/v1/p-alpha/stacks', { token: cached })).statusCode, 200);
    const fresh = keystone.issue({ projectId: 'p-alpha' });
    keystone.behaviour = 'failing';
    try {
      const res = await api.call('GET', '/v1/p-alpha/stacks', { token: fresh });
      assert.equal(res.statusCode, 503);
      const body = res.json() as HeatError;
      assertHeatError(body, 503, 'HTTPServiceUnavailable');
      assert.equal(body.title, 'Service Unavailable');
      assert.ok(!res.body.includes(keystone.url), 'the client is not told where Keystone is');
      assert.equal((await api.call('GET', '/v1/p-alpha/stacks', { token: cached })).statusCode, 200);
    } finally {
      keystone.behaviour = 'normal';
    }
    assert.equal((await api.call('GET', '/v1/p-alpha/stacks', { token: fresh })).statusCode, 200);
    assert.ok(warnings.some((w) => /HTTP 500/.test(w)));
  });

  it('answers 503 when Keystone cannot be reached at all', async () => {
    const token = keystone.issue({ projectId: 'p-alpha' });
    await keystone.close();
    const res = await api.call('GET', '/v1/p-alpha/stacks', { token });
    assert.equal(res.statusCode, 503);
    assertHeatError(res.json() as HeatError, 503, 'HTTPServiceUnavailable');
  });
});
