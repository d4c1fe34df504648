import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadCloudSettings } from '../../src/openstack/config.js';
import { isNotFound, LookupError, OpenStackError, openCloud, RateLimits } from '../../src/openstack/index.js';
import { defaultRuntime } from '../../src/openstack/http.js';
import { findEndpoint, Session } from '../../src/openstack/session.js';
import { createAppCredential, createSandbox } from '../../src/sandbox/index.js';

describe('Keystone session and cloud requests against the sandbox', () => {
  let app: FastifyInstance;
  let state: ReturnType<typeof createSandbox>['state'];
  let base: string;
  const demoEnv = () => ({
    OS_AUTH_URL: `${base}/identity/v3`,
    OS_USERNAME: 'demo',
    OS_PASSWORD: 'demo',
    OS_PROJECT_NAME: 'demo',
    OS_USER_DOMAIN_NAME: 'Default',
    OS_PROJECT_DOMAIN_NAME: 'Default',
  });
  const demo = () => loadCloudSettings({ env: demoEnv() });

  before(async () => {
    ({ app, state } = createSandbox());
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    base = address.replace('localhost', '127.0.0.1');
  });
  after(() => app.close());

  it('logs in with a password, scoped to the project, and finds endpoints in the catalog', async () => {
    const session = new Session(demo());
    const login = await session.login();
    assert.ok(login.token.length > 20);
    assert.ok(login.expiresAt > Date.now() + 3600_000);
    const projectId = login.projectId;
    assert.match(projectId, /^[0-9a-f]{32}$/);
    assert.equal(await session.endpoint('image'), `${base}/image/v2`);
    assert.equal(await session.endpoint('identity'), `${base}/identity/v3`);
    // Lookup only: these APIs are being written.
    assert.equal(await session.endpoint('compute'), `${base}/compute/v2.1`);
    assert.equal(await session.endpoint('network'), `${base}/network/v2.0`);
    for (const alias of ['block-storage', 'volumev3', 'volume']) {
      assert.equal(await session.endpoint(alias), `${base}/volume/v3/${projectId}`, alias);
    }
    assert.equal(
      await session.endpoint('image', { interface: 'internal', region: 'RegionOne' }),
      `${base}/image/v2`,
    );
    await assert.rejects(
      session.endpoint('image', { region: 'RegionMars' }),
      /no image endpoint for the public interface in region RegionMars in the catalog \(it lists alarming, block-storage, compute, identity, image, network, object-store, volumev3\)/,
    );
    await assert.rejects(session.endpoint('orchestration'), /no orchestration endpoint/);
    // One login serves every call, and concurrent callers share it.
    const [a, b] = await Promise.all([session.token(), session.token()]);
    assert.equal(a, login.token);
    assert.equal(b, login.token);
  });

  it('logs in with an application credential (by id, and by name with its user)', async () => {
    const credential = createAppCredential(state, 'demo', 'x');
    const byId = loadCloudSettings({
      env: {
        OS_AUTH_URL: `${base}/identity`,
        OS_AUTH_TYPE: 'v3applicationcredential',
        OS_APPLICATION_CREDENTIAL_ID: credential.id,
        OS_APPLICATION_CREDENTIAL_SECRET: credential.secret,
      },
    });
    const cloud = openCloud(byId);
    const images = await cloud.request<{ images: { name: string }[] }>('image', 'GET', '/images');
    assert.ok(images.body.images.some((i) => i.name.startsWith('cirros')));
    const byName = loadCloudSettings({
      env: {
        OS_AUTH_URL: `${base}/identity/v3`,
        OS_APPLICATION_CREDENTIAL_NAME: 'x',
        OS_APPLICATION_CREDENTIAL_SECRET: credential.secret,
        OS_USERNAME: 'demo',
      },
    });
    assert.equal(
      (await new Session(byName).login()).projectId,
      (await new Session(demo()).login()).projectId,
    );
    const wrong = { ...byId, auth: { ...byId.auth, applicationCredentialSecret: 'nope' } };
    const error = await new Session(wrong).login().catch((e: unknown) => e);
    assert.ok(error instanceof OpenStackError);
    assert.equal(error.status, 401);
    assert.equal(error.service, 'identity');
    assert.equal(error.url, `${base}/identity/v3/auth/tokens`);
    assert.doesNotMatch(error.message, /nope/);
  });

  it('sends GET /v2/images through the client, with query filters', async () => {
    const cloud = openCloud(demo());
    const all = await cloud.request<{ images: { id: string; name: string }[] }>('image', 'GET', '/images');
    assert.equal(all.status, 200);
    assert.ok(all.body.images.length > 0);
    const name = all.body.images[0]!.name;
    const filtered = await cloud.request<{ images: { name: string }[] }>(
      'image',
      'GET',
      'images',
      undefined,
      {
        query: { name, limit: 5, marker: undefined },
      },
    );
    assert.deepEqual(
      filtered.body.images.map((i) => i.name),
      [name],
    );
  });

  it('logs in again once when a token is revoked', async () => {
    const cloud = openCloud(demo());
    const first = await cloud.session.token();
    const revoke = await fetch(`${base}/identity/v3/auth/tokens`, {
      method: 'DELETE',
      headers: { 'X-Auth-Token': first, 'X-Subject-Token': first },
    });
    assert.equal(revoke.status, 204);
    const listed = await cloud.request<{ images: unknown[] }>('image', 'GET', '/images');
    assert.equal(listed.status, 200);
    const second = await cloud.session.token();
    assert.notEqual(second, first);
  });

  it('logs in again only once when a service keeps refusing the token', async () => {
    const calls: string[] = [];
    const real = defaultRuntime();
    const cloud = openCloud(demo(), {
      runtime: {
        ...real,
        fetch: async (input, init) => {
          const url = String(input);
          calls.push(`${init?.method} ${url.replace(base, '')}`);
          if (!url.includes('/image/')) return real.fetch(input, init);
          return Response.json({ error: { message: 'token refused' } }, { status: 401 });
        },
      },
    });
    const error = await cloud.request('image', 'GET', '/images').catch((e: unknown) => e);
    assert.ok(error instanceof OpenStackError);
    assert.equal(error.status, 401);
    assert.equal(error.detail, 'token refused');
    assert.deepEqual(calls, [
      'POST /identity/v3/auth/tokens',
      'GET /image/v2/images',
      'POST /identity/v3/auth/tokens',
      'GET /image/v2/images',
    ]);
  });

  it('makes every call wait for a token of its service endpoint: logins and retries too', async () => {
    const taken: string[] = [];
    const limits = new (class extends RateLimits {
      override take(endpoint: string, signal?: AbortSignal) {
        taken.push(endpoint.replace(base, ''));
        return super.take(endpoint, signal);
      }
    })({ perSecond: 1000 });
    const real = defaultRuntime();
    let refused = 0;
    const cloud = openCloud(demo(), {
      rateLimits: limits,
      runtime: {
        ...real,
        sleep: async () => {},
        fetch: async (input, init) => {
          // The first image call meets a busy server and is sent again.
          if (String(input).includes('/image/') && refused++ === 0)
            return new Response(null, { status: 503 });
          return real.fetch(input, init);
        },
      },
    });
    await cloud.request('image', 'GET', '/images');
    await cloud.request('network', 'GET', '/networks');
    assert.deepEqual(taken, ['/identity/v3', '/image/v2', '/image/v2', '/network/v2.0']);
  });

  it('renews a token shortly before it expires', async () => {
    let shift = 0;
    const session = new Session(demo(), {
      runtime: { ...defaultRuntime(), now: () => Date.now() + shift },
      renewBeforeMs: 60_000,
    });
    const first = await session.token();
    assert.equal(await session.token(), first);
    shift = 12 * 3600_000 - 30_000; // 30 s before the sandbox's 12 h tokens expire
    const renewed = await session.token();
    assert.notEqual(renewed, first);
  });

  it('resolves names and ids with findByNameOrId', async () => {
    const cloud = openCloud(demo());
    const create = async (name: string) =>
      (
        await cloud.request<{ id: string }>('image', 'POST', '/images', {
          name,
          container_format: 'bare',
          disk_format: 'qcow2',
        })
      ).body.id;
    const one = await create('hearth-one');
    await create('hearth-dup');
    await create('hearth-dup');
    assert.equal((await cloud.findByNameOrId('image', '/images', 'images', one)).name, 'hearth-one');
    assert.equal((await cloud.findByNameOrId('image', '/images', 'images', 'hearth-one')).id, one);
    const none = await cloud
      .findByNameOrId('image', '/images', 'images', 'hearth-none')
      .catch((e: unknown) => e);
    assert.ok(none instanceof LookupError && isNotFound(none));
    assert.equal(none.message, "No image found with name or id 'hearth-none'");
    await assert.rejects(
      cloud.findByNameOrId('image', '/images', 'images', 'hearth-dup'),
      (e: LookupError) => e.kind === 'many' && /Several images \(2\) are named 'hearth-dup'/.test(e.message),
    );
    const deleted = await cloud.request('image', 'DELETE', `/images/${one}`);
    assert.equal(deleted.status, 204);
    const again = await cloud.request('image', 'DELETE', `/images/${one}`).catch((e: unknown) => e);
    assert.ok(isNotFound(again));
    assert.match((again as OpenStackError).detail, new RegExp(`Image ${one} could not be found`));
  });

  it('finds endpoints by alias, interface and region in any catalog', () => {
    const catalog = [
      {
        type: 'volumev3',
        endpoints: [
          { interface: 'public', region_id: 'East', url: 'https://east/v3/p' },
          { interface: 'internal', region_id: 'West', url: 'http://west.internal/v3/p' },
        ],
      },
    ];
    assert.equal(findEndpoint(catalog, 'block-storage', { region: 'East' }), 'https://east/v3/p');
    assert.equal(findEndpoint(catalog, 'volume', { interface: 'internal' }), 'http://west.internal/v3/p');
    assert.throws(
      () => findEndpoint(catalog, 'volume', { interface: 'admin' }),
      /no volume endpoint for the admin interface/,
    );
  });
});
