import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { Api } from '../../src/api/context.js';
import { registerConsoleRoutes } from '../../src/api/routes/console.js';
import { SAMPLE_TEMPLATE, startApi, tenant, type TestApi } from './harness.js';

/** The Server-Sent Events of a watch answer, as [event, data, id]. */
function sse(text: string): { event: string; data: Record<string, unknown>; id?: number }[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      const id = field('id');
      return {
        event: field('event') ?? 'message',
        data: JSON.parse(field('data')!) as Record<string, unknown>,
        ...(id === undefined ? {} : { id: Number(id) }),
      };
    });
}

describe('console: static files', () => {
  let dir: string;
  let app: Api;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(dir, 'assets', 'index-abc.js'), 'export {}');
    writeFileSync(join(dir, 'assets', 'index-abc.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt'), 'top-secret-file');
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } }) as unknown as Api;
    registerConsoleRoutes(app, dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves index.html revalidated and hashed assets cached for good, with their content types', async () => {
    for (const url of ['/console/', '/console']) {
      const page = await app.inject({ method: 'GET', url });
      assert.equal(page.statusCode, 200);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(page.headers['cache-control'], 'no-cache');
    }
    const js = await app.inject({ method: 'GET', url: '/console/assets/index-abc.js' });
    assert.equal(js.statusCode, 200);
    assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(String(js.headers['cache-control']), /immutable/);
    const css = await app.inject({ method: 'GET', url: '/console/assets/index-abc.css' });
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  });

  it('serves nothing outside the assets folder', async () => {
    for (const url of [
      '/console/assets/..%2Fsecret.txt',
      '/console/assets/%2E%2E%2Fsecret.txt',
      '/console/assets/.hidden',
      '/console/secret.txt',
      '/console/assets/missing.js',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.ok(!res.body.includes('top-secret-file'), url);
    }
  });

  it('answers 404 saying how to build when the console is not built', async () => {
    const bare = Fastify() as unknown as Api;
    registerConsoleRoutes(bare, undefined);
    const res = await bare.inject({ method: 'GET', url: '/console/' });
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /npm run build/);
  });
});

describe('console: the API server', () => {
  let api: TestApi;
  let a: { projectId: string; token: string };
  let b: { projectId: string; token: string };
  before(async () => {
    api = await startApi({ auth: 'standalone' });
    a = await tenant(api, 'watch-a');
    b = await tenant(api, 'watch-b');
  });
  after(() => api.close());

  it('keeps GET / Heat’s version list for API clients and sends browsers to the console', async () => {
    const json = await api.call('GET', '/', { headers: { accept: 'application/json' } });
    assert.equal(json.statusCode, 300);
    assert.ok((json.json() as { versions: unknown[] }).versions.length > 0);
    const bare = await api.call('GET', '/');
    assert.equal(bare.statusCode, 300);
    const browser = await api.call('GET', '/', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(browser.statusCode, 302);
    assert.equal(browser.headers.location, '/console/');
  });

  it('streams a stack’s events after a cursor and its progress, to its own project only', async () => {
    const created = await api.call('POST', `/v1/${a.projectId}/stacks`, {
      token: a.token,
      body: { stack_name: 'watched', template: SAMPLE_TEMPLATE },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = (created.json() as { stack: { id: string } }).stack;
    await api.settle(id);
    const url = `/v1/${a.projectId}/stacks/watched/${id}/watch?max_seconds=0`;

    const all = await api.call('GET', `${url}&after=0`, { token: a.token });
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.headers['content-type'], 'text/event-stream');
    const messages = sse(all.body);
    const events = messages.filter((m) => m.event === 'event');
    assert.ok(events.length >= 6, all.body);
    assert.deepEqual(
      events.map((m) => m.id),
      [...events.map((m) => m.id!)].sort((x, y) => x - y),
      'in order',
    );
    const statuses = events.map((m) => `${m.data.resource_name} ${m.data.resource_status}`);
    assert.ok(statuses.includes('r2 CREATE_COMPLETE'), statuses.join(', '));
    const progress = messages.find((m) => m.event === 'progress');
    assert.equal(progress?.data.stack_status, 'CREATE_COMPLETE');

    // From a cursor (query or Last-Event-ID): only what came after it.
    const cursor = events.at(-2)!.id!;
    for (const resumed of [
      await api.call('GET', `${url}&after=${cursor}`, { token: a.token }),
      await api.call('GET', url, { token: a.token, headers: { 'last-event-id': String(cursor) } }),
    ]) {
      const ids = sse(resumed.body)
        .filter((m) => m.event === 'event')
        .map((m) => m.id);
      assert.deepEqual(ids, [events.at(-1)!.id]);
    }
    // Without a cursor: from now on, so nothing of the past.
    const fresh = await api.call('GET', url, { token: a.token });
    assert.equal(sse(fresh.body).filter((m) => m.event === 'event').length, 0);

    const foreign = await api.call('GET', `/v1/${b.projectId}/stacks/watched/${id}/watch?max_seconds=0`, {
      token: b.token,
    });
    assert.equal(foreign.statusCode, 404);
    const noToken = await api.call('GET', url);
    assert.equal(noToken.statusCode, 401);
  });
});
