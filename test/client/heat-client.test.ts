import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HeatApiError, HeatConnectionError } from '../../src/client/errors.js';
import { HeatClient, queryString, stackIdFromUrl } from '../../src/client/heat-client.js';
import type { StackId } from '../../src/client/types.js';
import { SAMPLE_TEMPLATE, startApi, type TestApi, tenant } from '../api/harness.js';

// The client against a real listening server in this process (the engine runs only in `settle`).
describe('HeatClient', () => {
  let api: TestApi;
  let origin: string;
  let client: HeatClient;
  let sample: StackId;

  before(async () => {
    api = await startApi();
    origin = await api.app.listen({ host: '127.0.0.1', port: 0 });
    client = new HeatClient({ url: `${origin}/v1/proj` });
    const created = await client.createStack({ stack_name: 'sample', template: SAMPLE_TEMPLATE });
    sample = { name: 'sample', id: created.id };
    await api.settle(created.id);
  });
  after(() => api.close());

  it('creates a stack and answers its id and self link', async () => {
    const created = await client.createStack({
      stack_name: 'made',
      template: JSON.stringify(SAMPLE_TEMPLATE),
    });
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(created.links, [{ href: `${origin}/v1/proj/stacks/made/${created.id}`, rel: 'self' }]);
    await api.settle(created.id);
  });

  it('looks a stack up by name or id through the 302, and shows it', async () => {
    assert.deepEqual(await client.lookupStack('sample'), sample);
    assert.deepEqual(await client.lookupStack(sample.id), sample);
    const shown = await client.showStack(sample);
    assert.equal(shown.stack_status, 'CREATE_COMPLETE');
    assert.equal(shown.parameters.secret, '******');
    assert.deepEqual(shown.outputs, [{ output_key: 'out', description: 'r2 output', output_value: 'one' }]);
  });

  it("turns Heat's error body into an error with its message, status and type", async () => {
    const err = await client.lookupStack('nope').catch((e: unknown) => e);
    assert.ok(err instanceof HeatApiError);
    assert.equal(err.message, 'The Stack (nope) could not be found.');
    assert.equal(err.status, 404);
    assert.equal(err.type, 'EntityNotFound');
    assert.equal(err.noRoute, false);
    const bad = await client.createStack({ template: SAMPLE_TEMPLATE }).catch((e: unknown) => e);
    assert.ok(bad instanceof HeatApiError);
    assert.equal(bad.message, 'No stack name specified');
    assert.equal(bad.status, 400);
  });

  it('lists stacks with a query (sort, nested), in Heat’s list shape', async () => {
    const stacks = await client.listStacks({ sort_keys: ['created_at'], sort_dir: 'asc', show_nested: true });
    assert.equal(stacks[0]!.stack_name, 'sample');
    assert.equal(stacks[0]!.stack_status, 'CREATE_COMPLETE');
    const desc = await client.listStacks({ sort_keys: ['created_at'], sort_dir: 'desc' });
    assert.deepEqual(
      desc.map((s) => s.id),
      stacks.map((s) => s.id).reverse(),
    );
  });

  it('updates with PATCH (existing) and PUT, runs actions, abandons and deletes', async () => {
    const made = await client.createStack({ stack_name: 'ops', template: SAMPLE_TEMPLATE });
    const ops = { name: 'ops', id: made.id };
    await api.settle(ops.id);
    await client.patchStack(ops, { parameters: { v: 'two' } });
    await api.settle(ops.id);
    const patched = await client.showStack(ops);
    assert.equal(patched.stack_status, 'UPDATE_COMPLETE');
    assert.equal(patched.outputs![0]!.output_value, 'two');
    await client.updateStack(ops, { template: SAMPLE_TEMPLATE });
    await api.settle(ops.id);
    assert.equal((await client.showStack(ops)).outputs![0]!.output_value, 'one', 'PUT: the defaults again');
    await client.stackAction(ops, 'check');
    await api.settle(ops.id);
    assert.equal((await client.showStack(ops)).stack_status, 'CHECK_COMPLETE');
    await client.stackAction(ops, 'suspend');
    await api.settle(ops.id);
    assert.equal((await client.showStack(ops)).stack_status, 'SUSPEND_COMPLETE');
    await client.stackAction(ops, 'resume');
    await api.settle(ops.id);
    assert.equal((await client.showStack(ops)).stack_status, 'RESUME_COMPLETE');

    const doc = await client.abandonStack(ops);
    assert.equal(doc.name, 'ops');
    assert.equal(doc.id, ops.id);
    await assert.rejects(client.showStack(ops), { name: 'HeatApiError', status: 404 });

    const gone = await client.createStack({ stack_name: 'gone', template: SAMPLE_TEMPLATE });
    await api.settle(gone.id);
    await client.deleteStack({ name: 'gone', id: gone.id });
    await api.settle(gone.id);
    await assert.rejects(client.lookupStack('gone'), { status: 404 });
  });

  it('sends the token as X-Auth-Token and keeps it out of errors', async () => {
    const secure = await startApi({ auth: 'standalone' });
    try {
      const url = await secure.app.listen({ host: '127.0.0.1', port: 0 });
      const { projectId, token } = await tenant(secure, 'acme');
      const good = new HeatClient({ url: `${url}/v1/${projectId}`, token });
      assert.deepEqual(await good.listStacks(), []);
      const wrong = `${token}x`;
      const err = await new HeatClient({ url: `${url}/v1/${projectId}`, token: wrong })
        .listStacks()
        .catch((e: unknown) => e);
      assert.ok(err instanceof HeatApiError);
      assert.equal(err.status, 401);
      assert.ok(!err.message.includes(wrong) && !String(err.stack).includes(wrong));
    } finally {
      await secure.close();
    }
  });

  it('reports an unreachable server as a connection error naming it', async () => {
    const err = await new HeatClient({ url: 'http://127.0.0.1:9/v1/p', token: 'secret-token' })
      .listStacks()
      .catch((e: unknown) => e);
    assert.ok(err instanceof HeatConnectionError);
    assert.match(err.message, /^cannot reach the API at http:\/\/127\.0\.0\.1:9: /);
    assert.ok(!err.message.includes('secret-token'));
  });

  it('refuses an answer that is not JSON (not the API at that address)', async () => {
    const page = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html/>'),
    );
    await new Promise<void>((res) => page.listen(0, '127.0.0.1', res));
    try {
      const { port } = page.address() as AddressInfo;
      const err = await new HeatClient({ url: `http://127.0.0.1:${port}/v1/p` })
        .listStacks()
        .catch((e: unknown) => e);
      assert.ok(err instanceof HeatApiError);
      assert.equal(
        err.message,
        `GET http://127.0.0.1:${port}/v1/p/stacks answered with no JSON: not the API?`,
      );
    } finally {
      page.close();
    }
  });

  it('tells a route the server lacks from a missing stack', async () => {
    const err = await client.request('GET', '/no_such_route').catch((e: unknown) => e);
    assert.ok(err instanceof HeatApiError);
    assert.equal(err.noRoute, true);
  });

  it('builds query strings with repeated keys and reads stack URLs', () => {
    assert.equal(queryString({ a: 1, b: ['x', 'y'], c: undefined, d: true }), '?a=1&b=x&b=y&d=true');
    assert.equal(queryString({}), '');
    assert.deepEqual(stackIdFromUrl('http://h:1/v1/p/stacks/my%20s/abc'), { name: 'my s', id: 'abc' });
    assert.throws(() => stackIdFromUrl('http://h:1/v1/p/stacks/only'), /names no stack/);
  });
});
