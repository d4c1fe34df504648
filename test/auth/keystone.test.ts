import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { AuthenticationUnavailableError } from '../../src/auth/identity.js';
import {
  KeystoneClient,
  type KeystoneSettings,
  type TokenCheck,
  v3Endpoint,
} from '../../src/auth/keystone.js';
import { type FakeKeystone, SERVICE, startFakeKeystone } from './fake-keystone.js';

/** A URL on which nothing listens (a port just freed). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v3`;
}

function identityOf(check: TokenCheck) {
  assert.ok('identity' in check, `expected a valid token, got ${JSON.stringify(check)}`);
  return check.identity;
}

describe('Keystone client', () => {
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const now = () => clock;
  let keystone: FakeKeystone;
  /** Everything the client reported: checked at the end for secrets. */
  const warnings: string[] = [];
  const secretsSeen: string[] = [SERVICE.password];

  before(async () => {
    keystone = await startFakeKeystone(now);
  });
  after(async () => {
    await keystone.close();
    for (const message of warnings) {
      for (const secret of secretsSeen)
        assert.ok(!message.includes(secret), `a warning shows a secret: ${message}`);
    }
  });
  beforeEach(() => {
    keystone.behaviour = 'normal';
    keystone.serviceTokenTtlMs = 3_600_000;
  });

  function client(overrides: Partial<KeystoneSettings> = {}, rejectedCacheMs?: number): KeystoneClient {
    const settings: KeystoneSettings = {
      url: keystone.url,
      ...SERVICE,
      cacheMs: 30_000,
      timeoutMs: 2000,
      ...overrides,
    };
    return new KeystoneClient(settings, {
      now,
      warn: (m) => warnings.push(m),
      ...(rejectedCacheMs === undefined ? {} : { rejectedCacheMs }),
    });
  }

  function issue(spec: Parameters<FakeKeystone['issue']>[0] = {}): string {
    const token = keystone.issue(spec);
    secretsSeen.push(token);
    return token;
  }

  it('logs in with the service credentials, then validates a token: project, user and roles', async () => {
    const token = issue({ projectId: 'p-123', roles: ['member', 'admin'], userId: 'u-9', userName: 'bob' });
    const before = keystone.requests.length;
    const identity = identityOf(await client().validate(token));
    assert.deepEqual(identity, {
      projectId: 'p-123',
      userId: 'u-9',
      userName: 'bob',
      roles: ['member', 'admin'],
    });

    const [login, validate] = keystone.requests.slice(before);
    assert.equal(login?.method, 'POST');
    const auth = (JSON.parse(login!.body) as { auth: Record<string, unknown> }).auth;
    assert.deepEqual(auth, {
      identity: {
        methods: ['password'],
        password: { user: { name: SERVICE.user, domain: { name: 'Default' }, password: SERVICE.password } },
      },
      scope: { project: { name: 'service', domain: { name: 'Default' } } },
    });
    assert.equal(validate?.method, 'GET');
    assert.match(validate!.path, /^\/v3\/auth\/tokens/);
    assert.match(String(validate!.headers['x-auth-token']), /^svc-/);
    assert.equal(validate!.headers['x-subject-token'], token);
  });

  it('caches a valid token for cacheMs: Keystone is asked once, then again after the cache time', async () => {
    const keystoneClient = client({ cacheMs: 30_000 });
    const token = issue({ projectId: 'p-cache' });
    const start = { ...keystone.calls };
    for (let i = 0; i < 3; i++) identityOf(await keystoneClient.validate(token));
    assert.equal(keystone.calls.validate - start.validate, 1);
    assert.equal(keystone.calls.login - start.login, 1);
    clock += 29_000;
    identityOf(await keystoneClient.validate(token));
    assert.equal(keystone.calls.validate - start.validate, 1, 'still cached at 29 s');
    clock += 2000;
    identityOf(await keystoneClient.validate(token));
    assert.equal(keystone.calls.validate - start.validate, 2, 'asked again after 30 s');
    assert.equal(keystone.calls.login - start.login, 1, 'the service token is reused');
  });

  it('shares one Keystone call among concurrent requests with the same token', async () => {
    const keystoneClient = client();
    const token = issue();
    const start = keystone.calls.validate;
    const checks = await Promise.all([1, 2, 3, 4].map(() => keystoneClient.validate(token)));
    checks.forEach(identityOf);
    assert.equal(keystone.calls.validate - start, 1);
  });

  it('never trusts a cached token past its expires_at', async () => {
    const keystoneClient = client({ cacheMs: 30_000 });
    const token = issue({ expiresAt: clock + 10_000 });
    identityOf(await keystoneClient.validate(token));
    clock += 9000;
    identityOf(await keystoneClient.validate(token));
    const start = keystone.calls.validate;
    clock += 2000; // 11 s: the token has expired, though the cache time has not
    const check = await keystoneClient.validate(token);
    assert.deepEqual(check, { rejected: 'The token is unknown or has expired' });
    assert.equal(keystone.calls.validate - start, 1, 'Keystone was asked again');
  });

  it('rejects an unknown token, remembers that briefly, and asks again afterwards', async () => {
    const keystoneClient = client({}, 5000);
    const token = 'ks-not-issued-yet';
    secretsSeen.push(token);
    const start = keystone.calls.validate;
    assert.deepEqual(await keystoneClient.validate(token), {
      rejected: 'The token is unknown or has expired',
    });
    assert.deepEqual(await keystoneClient.validate(token), {
      rejected: 'The token is unknown or has expired',
    });
    assert.equal(keystone.calls.validate - start, 1, 'the rejection is cached');
    keystone.issue({ token, projectId: 'p-late' });
    clock += 5001;
    assert.equal(identityOf(await keystoneClient.validate(token)).projectId, 'p-late');
    assert.equal(keystone.calls.validate - start, 2);
  });

  it('asks Keystone every time when the cache time is 0', async () => {
    const keystoneClient = client({ cacheMs: 0 });
    const token = issue();
    const start = keystone.calls.validate;
    identityOf(await keystoneClient.validate(token));
    identityOf(await keystoneClient.validate(token));
    assert.equal(await keystoneClient.validate('ks-bogus').then((c) => 'rejected' in c), true);
    assert.equal(await keystoneClient.validate('ks-bogus').then((c) => 'rejected' in c), true);
    assert.equal(keystone.calls.validate - start, 4);
  });

  it('a revoked token stops working once its cache time has passed', async () => {
    const keystoneClient = client({ cacheMs: 1000 });
    const token = issue();
    identityOf(await keystoneClient.validate(token));
    keystone.revoke(token);
    identityOf(await keystoneClient.validate(token));
    clock += 1001;
    assert.ok('rejected' in (await keystoneClient.validate(token)));
  });

  it('rejects a token that is not scoped to a project', async () => {
    const token = issue({ projectId: null });
    assert.deepEqual(await client().validate(token), { rejected: 'The token is not scoped to a project' });
  });

  it('renews the service token before it expires', async () => {
    keystone.serviceTokenTtlMs = 60_000;
    const keystoneClient = client({ cacheMs: 0 });
    const token = issue();
    const start = keystone.calls.login;
    identityOf(await keystoneClient.validate(token));
    clock += 20_000;
    identityOf(await keystoneClient.validate(token));
    assert.equal(keystone.calls.login - start, 1, 'still 40 s left: reused');
    clock += 15_000; // 25 s left: within the margin, so renewed before use
    const before = keystone.calls.validate;
    identityOf(await keystoneClient.validate(token));
    assert.equal(keystone.calls.login - start, 2);
    assert.equal(keystone.calls.validate - before, 1, 'no refused attempt with the old token');
  });

  it('logs in again and retries once when Keystone refuses the service token (401)', async () => {
    const keystoneClient = client({ cacheMs: 0 });
    const token = issue({ projectId: 'p-renew' });
    identityOf(await keystoneClient.validate(token));
    const start = { ...keystone.calls };
    keystone.revokeServiceTokens();
    assert.equal(identityOf(await keystoneClient.validate(token)).projectId, 'p-renew');
    assert.equal(keystone.calls.login - start.login, 1);
    assert.equal(keystone.calls.validate - start.validate, 2, 'the refused attempt, then the retry');
    identityOf(await keystoneClient.validate(token));
    assert.equal(keystone.calls.login - start.login, 1, 'the new service token is kept');
  });

  it('is unavailable when Keystone cannot be reached, and does not cache that', async () => {
    const reported = warnings.length;
    const down = client({ url: await deadUrl() });
    const token = issue();
    await assert.rejects(down.validate(token), (err: Error) => {
      assert.ok(err instanceof AuthenticationUnavailableError);
      assert.ok(!err.message.includes('127.0.0.1'), 'the client’s message says nothing of the network');
      return true;
    });
    assert.match(warnings.slice(reported).join('\n'), /could not be reached: ECONNREFUSED/);

    const flaky = client();
    keystone.behaviour = 'failing';
    await assert.rejects(flaky.validate(token), AuthenticationUnavailableError);
    keystone.behaviour = 'normal';
    identityOf(await flaky.validate(token));
  });

  it('is unavailable when Keystone does not answer in time', async () => {
    keystone.behaviour = 'hanging';
    const reported = warnings.length;
    const started = Date.now();
    await assert.rejects(client({ timeoutMs: 200 }).validate(issue()), AuthenticationUnavailableError);
    assert.ok(Date.now() - started < 2000);
    assert.match(warnings.slice(reported).join('\n'), /no answer in time/);
  });

  it('is unavailable when Keystone refuses the service credentials or forbids validation', async () => {
    const reported = warnings.length;
    const wrong = 'Wr0ng-password-also-secret';
    secretsSeen.push(wrong);
    await assert.rejects(client({ password: wrong }).validate(issue()), AuthenticationUnavailableError);
    assert.match(
      warnings.slice(reported).join('\n'),
      /refused Hearth's service credentials: user hearth-svc/,
    );
    keystone.behaviour = 'forbidding';
    await assert.rejects(client().validate(issue()), AuthenticationUnavailableError);
    assert.match(warnings.slice(reported).join('\n'), /does not let hearth-svc validate tokens/);
  });

  it('takes an endpoint with or without /v3', () => {
    assert.equal(v3Endpoint('http://k:5000'), 'http://k:5000/v3');
    assert.equal(v3Endpoint('http://k:5000/'), 'http://k:5000/v3');
    assert.equal(v3Endpoint('http://k/identity/v3/'), 'http://k/identity/v3');
  });
});
