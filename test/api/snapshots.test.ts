import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, tenant, type TestApi } from './harness.js';
import { type CreatedStack, createStack } from './stack-helpers.js';

// The snapshot routes' answers (Heat's codes and bodies): create 200, list, show, delete 204,
// restore 202; refusals as Heat words them; another project's snapshot is never found.

const TEMPLATE = {
  heat_template_version: '2018-08-31',
  parameters: { secret: { type: 'string', hidden: true }, v: { type: 'string' } },
  resources: { thing: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'v' } } } },
};

describe('API: stack snapshots', () => {
  let api: TestApi;
  let a: { projectId: string; token: string };
  let b: { projectId: string; token: string };
  let stack: CreatedStack;
  before(async () => {
    api = await startApi({ auth: 'standalone' });
    a = await tenant(api, 'alpha');
    b = await tenant(api, 'beta');
    stack = await createStack(
      api,
      a.projectId,
      'snappy',
      { template: TEMPLATE, parameters: { secret: 'hunter2-secret', v: 'one' } },
      { token: a.token },
    );
    assert.equal(stack.settled?.status, 'COMPLETE');
  });
  after(() => api.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, token = a.token) =>
    api.call(method, `${stack.url}${path}`, { token, ...(body !== undefined ? { body } : {}) });

  it('creates, lists, shows, restores and deletes a snapshot with Heat’s codes and bodies', async () => {
    const made = await call('POST', '/snapshots', { name: 'first' });
    assert.equal(made.statusCode, 200, made.body);
    const snapshot = made.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(snapshot).sort(), [
      'creation_time',
      'data',
      'id',
      'name',
      'status',
      'status_reason',
    ]);
    assert.equal(snapshot.name, 'first');
    assert.equal(snapshot.status, 'IN_PROGRESS');
    assert.match(String(snapshot.creation_time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // While it is taken: the stack is busy, the snapshot cannot be deleted.
    const busy = await call('POST', '/snapshots', {});
    assert.equal(busy.statusCode, 409);
    assert.equal((busy.json() as HeatError).error.type, 'ActionInProgress');
    const early = await call('DELETE', `/snapshots/${String(snapshot.id)}`);
    assert.equal(early.statusCode, 400);
    assert.match((early.json() as HeatError).error.message, /Deleting in-progress snapshot is not supported/);

    await api.settle(stack.id);
    const shown = await call('GET', `/snapshots/${String(snapshot.id)}`);
    assert.equal(shown.statusCode, 200, shown.body);
    const body = (shown.json() as { snapshot: { status: string; data: Record<string, unknown> } }).snapshot;
    assert.equal(body.status, 'COMPLETE');
    assert.equal(
      (body.data.environment as { parameters: Record<string, unknown> }).parameters.secret,
      '******',
    );
    assert.ok(!shown.body.includes('hunter2-secret'), 'hidden values are masked');
    assert.deepEqual(Object.keys(body.data).sort(), [
      'action',
      'environment',
      'files',
      'id',
      'name',
      'project_id',
      'resources',
      'stack_user_project_id',
      'status',
      'tags',
      'template',
    ]);
    const listed = await call('GET', '/snapshots');
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(
      (listed.json() as { snapshots: { id: string; status: string }[] }).snapshots.map((s) => [
        s.id,
        s.status,
      ]),
      [[snapshot.id, 'COMPLETE']],
    );

    const restored = await call('POST', `/snapshots/${String(snapshot.id)}/restore`);
    assert.equal(restored.statusCode, 202, restored.body);
    await api.settle(stack.id);

    const deleted = await call('DELETE', `/snapshots/${String(snapshot.id)}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    const gone = await call('GET', `/snapshots/${String(snapshot.id)}`);
    assert.equal(gone.statusCode, 404);
    assert.equal(
      (gone.json() as HeatError).error.message,
      `The Snapshot (${String(snapshot.id)}) could not be found.`,
    );
  });

  it('never shows another project’s snapshot, and refuses a body that is not an object', async () => {
    const made = await call('POST', '/snapshots', null);
    assert.equal(made.statusCode, 200, made.body);
    const id = (made.json() as { id: string; name: string | null }).id;
    assert.equal((made.json() as { name: string | null }).name, null);
    await api.settle(stack.id);
    for (const [method, path] of [
      ['GET', `/snapshots/${id}`],
      ['GET', '/snapshots'],
      ['DELETE', `/snapshots/${id}`],
      ['POST', `/snapshots/${id}/restore`],
    ] as const) {
      const other = await api.call(method, `/v1/${b.projectId}/stacks/snappy/${stack.id}${path}`, {
        token: b.token,
      });
      assert.equal(other.statusCode, 404, `${method} ${path}: ${other.body}`);
    }
    const bad = await call('POST', '/snapshots', [1]);
    assert.equal(bad.statusCode, 400);
    const missing = await call('GET', '/snapshots/nothing');
    assert.equal(missing.statusCode, 404);
  });
});
