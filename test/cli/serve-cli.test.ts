import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type FakeKeystone, SERVICE, startFakeKeystone } from '../auth/fake-keystone.js';
import { workdir } from './helpers.js';
import { type ServeProcess, startServe } from './serve-process.js';

// `hearth serve` as a child process: how each auth mode starts, or refuses to.

interface HeatError {
  code: number;
  title: string;
  error: { type: string; message: string; traceback: null };
}

function assertHeatError(body: unknown, code: number, type: string): void {
  const error = body as HeatError;
  assert.equal(error.code, code, JSON.stringify(body));
  assert.equal(error.error.type, type);
  assert.equal(error.error.traceback, null);
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const TEMPLATE = JSON.stringify({
  heat_template_version: '2018-08-31',
  resources: { r: { type: 'OS::Heat::TestResource', properties: { value: 'x' } } },
});

describe('hearth serve --auth standalone, with tokens from hearth manage', () => {
  const w = workdir({});
  let server: ServeProcess;
  const tokens: string[] = [];
  let alpha: string;
  let beta: string;

  function manage(args: string[]): Record<string, unknown> {
    const r = w.run(['manage', ...args, '-f', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }
  function token(project: string, user: string, extra: string[] = []): { token: string; expires_at: string } {
    const made = manage(['token', 'create', '--project', project, '--user', user, ...extra]);
    tokens.push(made.token as string);
    return made as { token: string; expires_at: string };
  }

  before(async () => {
    alpha = manage(['project', 'create', 'alpha']).id as string;
    beta = manage(['project', 'create', 'beta']).id as string;
    manage(['user', 'create', 'alice', '--project', 'alpha']);
    manage(['user', 'create', 'bob', '--project', 'beta']);
    server = await startServe(['--db', w.db, 'serve', '--auth', 'standalone', '--port', '0'], {
      HEARTH_LOG_LEVEL: 'debug',
    });
  });
  after(async () => {
    await server?.stop();
  });

  it('accepts a token made while it runs: lists, creates and runs a stack in the token’s project', async () => {
    const { token: alice } = token('alpha', 'alice');
    const empty = await server.request('GET', `/v1/${alpha}/stacks`, { token: alice });
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body, { stacks: [] });
    const created = await server.request('POST', `/v1/${alpha}/stacks`, {
      token: alice,
      body: { stack_name: 'served', template: TEMPLATE },
    });
    assert.equal(created.status, 201, created.text);
    const id = (created.body as { stack: { id: string } }).stack.id;
    // The server's own workers run the create.
    let status = '';
    for (let i = 0; i < 200 && status !== 'CREATE_COMPLETE'; i++) {
      const shown = await server.request('GET', `/v1/${alpha}/stacks/served/${id}`, { token: alice });
      status = (shown.body as { stack: { stack_status: string } }).stack.stack_status;
      if (status !== 'CREATE_COMPLETE') await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 'CREATE_COMPLETE');
  });

  it('answers a missing, wrong or expired token with 401 and Heat’s body', async () => {
    const none = await server.request('GET', `/v1/${alpha}/stacks`);
    assert.equal(none.status, 401);
    assertHeatError(none.body, 401, 'HTTPUnauthorized');
    const { token: real } = token('alpha', 'alice');
    const wrong = `${real.slice(0, -4)}AAAA`;
    const bad = await server.request('GET', `/v1/${alpha}/stacks`, { token: wrong });
    assert.equal(bad.status, 401);
    assertHeatError(bad.body, 401, 'HTTPUnauthorized');
    assert.equal((bad.body as HeatError).title, 'Unauthorized');

    const short = token('alpha', 'alice', ['--expires-in', '1']);
    const wait = Date.parse(short.expires_at) - Date.now() + 50;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const expired = await server.request('GET', `/v1/${alpha}/stacks`, { token: short.token });
    assert.equal(expired.status, 401);
    assertHeatError(expired.body, 401, 'HTTPUnauthorized');
    assert.match((expired.body as HeatError).error.message, /expired/);

    const lasting = token('alpha', 'alice', ['--expires-in', '3600']);
    assert.equal((await server.request('GET', `/v1/${alpha}/stacks`, { token: lasting.token })).status, 200);
  });

  it('refuses a token for another project’s URL with 403', async () => {
    const { token: alice } = token('alpha', 'alice');
    const res = await server.request('GET', `/v1/${beta}/stacks`, { token: alice });
    assert.equal(res.status, 403);
    assertHeatError(res.body, 403, 'Forbidden');
    const { token: bob } = token('beta', 'bob');
    assert.equal((await server.request('GET', `/v1/${beta}/stacks`, { token: bob })).status, 200);
  });

  it('never writes a token in its log', () => {
    assert.ok(server.stderr().includes('incoming request'), 'the log was written at debug level');
    for (const t of tokens) assert.ok(!server.stderr().includes(t), 'a token is in the log');
  });
});

describe('hearth serve --auth noauth', () => {
  for (const host of ['0.0.0.0', '::']) {
    it(`refuses --host ${host}: exits non-zero, says why, binds and opens nothing`, async () => {
      const w = workdir({});
      const port = await freePort();
      const r = w.run(['serve', '--auth', 'noauth', '--host', host, '--port', String(port)]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`--auth noauth .* loopback addresses only .*not ${host.replace(/\./g, '\\.')}`),
      );
      assert.ok(!r.stdout.includes('listening'), r.stdout);
      assert.ok(!existsSync(w.db), 'the store was not opened');
    });
  }

  it('says a taken port is taken, with what to do; no framework warning on the way', async () => {
    const w = workdir({});
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const r = w.run(['serve', '--auth', 'noauth', '--host', '127.0.0.1', '--port', String(port)]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`127\\.0\\.0\\.1:${port} is already in use by another process: .*--port`),
      );
      assert.doesNotMatch(r.stderr, /FSTDEP|Warning/);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('serves a loopback address (the project is the URL’s)', async () => {
    const w = workdir({});
    const server = await startServe([
      '--db',
      w.db,
      'serve',
      '--auth',
      'noauth',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
    ]);
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await server.request('GET', '/v1/anything/stacks');
      assert.equal(res.status, 200, res.text);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});

describe('hearth serve --auth keystone', () => {
  let keystone: FakeKeystone;
  before(async () => {
    keystone = await startFakeKeystone();
  });
  after(async () => {
    await keystone.close();
  });

  it('refuses to start without the service password, opening nothing', () => {
    const w = workdir({});
    const r = w.run(['serve', '--auth', 'keystone', '--port', '0'], { HEARTH_KEYSTONE_URL: keystone.url });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /--auth keystone needs .*keystone_service_password .*HEARTH_KEYSTONE_SERVICE_PASSWORD/,
    );
    assert.ok(!existsSync(w.db));
  });

  it('validates tokens with Keystone: 200, 401, 503 when Keystone fails; no secret in its log', async () => {
    const w = workdir({});
    const server = await startServe(['--db', w.db, 'serve', '--auth', 'keystone', '--port', '0'], {
      HEARTH_KEYSTONE_URL: keystone.url.replace(/\/v3$/, ''), // as Heat's www_authenticate_uri is often written
      HEARTH_KEYSTONE_SERVICE_USER: SERVICE.user,
      HEARTH_KEYSTONE_SERVICE_PASSWORD: SERVICE.password,
      HEARTH_LOG_LEVEL: 'debug',
    });
    const issued: string[] = [];
    try {
      const token = keystone.issue({ projectId: 'p-served', roles: ['member'] });
      issued.push(token);
      const ok = await server.request('GET', '/v1/p-served/stacks', { token });
      assert.equal(ok.status, 200, ok.text);
      const forbidden = await server.request('GET', '/v1/p-other/stacks', { token });
      assert.equal(forbidden.status, 403);
      const bad = await server.request('GET', '/v1/p-served/stacks', { token: 'ks-unknown-token' });
      assert.equal(bad.status, 401);
      assertHeatError(bad.body, 401, 'HTTPUnauthorized');

      keystone.behaviour = 'failing';
      const fresh = keystone.issue({ projectId: 'p-served' });
      issued.push(fresh);
      const down = await server.request('GET', '/v1/p-served/stacks', { token: fresh });
      assert.equal(down.status, 503);
      assertHeatError(down.body, 503, 'HTTPServiceUnavailable');
    } finally {
      keystone.behaviour = 'normal';
      assert.equal(await server.stop(), 0);
    }
    const log = server.stderr();
    assert.match(log, /Keystone answered a token validation with HTTP 500/, 'the failure is logged');
    for (const secret of [SERVICE.password, ...issued, 'ks-unknown-token']) {
      assert.ok(!log.includes(secret), `the log shows a secret: ${secret.slice(0, 6)}...`);
    }
  });
});
