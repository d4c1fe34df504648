import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, type TestApi } from './harness.js';
import { type CreatedStack, createStack } from './stack-helpers.js';

const SECRET = 'hunter2-hidden-value';
const TEMPLATE = {
  heat_template_version: '2018-08-31',
  parameters: { secret: { type: 'string', hidden: true } },
  resources: {
    kept: { type: 'OS::Heat::TestResource', properties: { value: 'kept' } },
    changed: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'secret' } } },
    gone: { type: 'OS::Heat::TestResource', properties: { value: 'gone' } },
    none: { type: 'OS::Heat::None' },
  },
};

interface Drift {
  stack_id: string;
  stack_name: string;
  detected_time: string | null;
  summary: Record<string, number>;
  resources: { resource_name: string; drift_status: string; property_diff: unknown[] }[];
}

describe('API: drift', () => {
  let api: TestApi;
  let stack: CreatedStack;
  before(async () => {
    api = await startApi();
    stack = await createStack(api, 'proj', 'drifty', { template: TEMPLATE, parameters: { secret: SECRET } });
    assert.equal(stack.settled?.status, 'COMPLETE');
  });
  after(() => api.close());

  const physicalId = async (name: string) =>
    (await api.engine.deps.store.tx((tx) => tx.resources.findByName(stack.id, name)))[0]!.physicalId!;

  it('GET before any detection: no results, no time', async () => {
    const res = await api.call('GET', `${stack.url}/drift`);
    assert.equal(res.statusCode, 200, res.body);
    const { drift } = res.json() as { drift: Drift };
    assert.deepEqual(drift, {
      stack_id: stack.id,
      stack_name: 'drifty',
      detected_time: null,
      summary: { IN_SYNC: 0, MODIFIED: 0, DELETED: 0, ERROR: 0, NOT_CHECKED: 0, FAILED: 0 },
      resources: [],
    });
  });

  it('POST detects: the summary and the resources not IN_SYNC, hidden values masked; GET shows them all', async () => {
    const { reality } = api.engine.deps;
    const changedId = await physicalId('changed');
    const object = (await reality.get('OS::Heat::TestResource', changedId))!;
    await reality.put({ ...object, properties: { ...object.properties, value: `was ${SECRET}` } });
    await reality.delete('OS::Heat::TestResource', await physicalId('gone'));

    const res = await api.call('POST', `${stack.url}/drift`);
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(!res.body.includes(SECRET), res.body);
    const { drift } = res.json() as { drift: Drift };
    assert.deepEqual(drift.summary, {
      IN_SYNC: 1,
      MODIFIED: 1,
      DELETED: 1,
      ERROR: 0,
      NOT_CHECKED: 1,
      FAILED: 0,
    });
    assert.match(drift.detected_time!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const byName = new Map(drift.resources.map((r) => [r.resource_name, r]));
    assert.deepEqual([...byName.keys()].sort(), ['changed', 'gone', 'none']);
    assert.deepEqual(byName.get('changed')!.property_diff, [
      { property: 'value', expected: '******', actual: 'was ******' },
    ]);
    assert.equal(byName.get('gone')!.drift_status, 'DELETED');

    const shown = await api.call('GET', `${stack.url}/drift`);
    assert.equal(shown.statusCode, 200);
    assert.ok(!shown.body.includes(SECRET));
    const all = (shown.json() as { drift: Drift }).drift;
    assert.deepEqual(
      all.resources.map((r) => [r.resource_name, r.drift_status]),
      [
        ['changed', 'MODIFIED'],
        ['gone', 'DELETED'],
        ['kept', 'IN_SYNC'],
        ['none', 'NOT_CHECKED'],
      ],
    );
    assert.deepEqual(all.summary, drift.summary);
  });

  it('a stack that does not exist: Heat’s 404 error', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await api.call(method, `/v1/proj/stacks/drifty/00000000-0000-0000-0000-000000000000/drift`);
      assert.equal(res.statusCode, 404);
      assert.equal((res.json() as HeatError).error.type, 'EntityNotFound');
    }
  });
});
