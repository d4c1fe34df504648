import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StackProgress } from '../../src/engine/engine.js';
import { checkStack } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import type { StackProgressCounts } from '../../src/store/contract.js';
import { Harness } from './harness.js';

const T = 'OS::Heat::TestResource';

const chain = (last: string) => `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
  c: {type: ${T}, properties: {value: ${last}}}
`;

async function counts(h: Harness): Promise<StackProgressCounts | undefined> {
  const stack = await findStack(h.deps, 'p', 's');
  return h.deps.store.tx((tx) => tx.stacks.progress(stack.id));
}

describe('progress counts', () => {
  it('count the nodes each operation runs: all for create, check and delete, the changed ones for update', async () => {
    const h = await Harness.create();
    await h.create('s', chain('c1'));
    // a and c have no dependencies: ready (in progress) at once; b waits for a.
    assert.deepEqual(await counts(h), { total: 3, done: 0, inProgress: 2, waiting: 1, failed: 0 });
    await h.round(); // a and c run
    assert.deepEqual(await counts(h), { total: 3, done: 2, inProgress: 1, waiting: 0, failed: 0 });
    await h.settle();
    assert.deepEqual(
      await counts(h),
      { total: 0, done: 0, inProgress: 0, waiting: 0, failed: 0 },
      'graph gone',
    );

    await h.update('s', chain('c2'));
    assert.deepEqual(
      await counts(h),
      { total: 1, done: 0, inProgress: 1, waiting: 0, failed: 0 },
      'a and b unchanged',
    );
    await h.settle();

    await checkStack(h.deps, h.engine.cache, (await findStack(h.deps, 'p', 's')).id);
    assert.equal((await counts(h))?.total, 3);
    await h.settle();

    await h.delete('s');
    assert.equal((await counts(h))?.total, 3);
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
  });

  it('count nodes running and waiting, and failed resources (those outlive the traversal)', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  slow: {type: ${T}, properties: {action_wait_secs: {create: 10}}}
  bad: {type: ${T}, depends_on: slow, properties: {fail: true}}
`,
    );
    await h.round();
    assert.deepEqual(await counts(h), { total: 2, done: 0, inProgress: 1, waiting: 1, failed: 0 });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.deepEqual(await counts(h), { total: 0, done: 0, inProgress: 0, waiting: 0, failed: 1 });
  });

  it('waitForStack reports before any work runs and once at the end', async () => {
    const h = await Harness.create();
    const created = await h.create('s', chain('c1'));
    const reports: StackProgress[] = [];
    const final = await h.engine.waitForStack(created.id, (p) => {
      reports.push(p);
    });
    assert.equal(final?.status, 'COMPLETE');
    assert.deepEqual(reports[0]?.counts, { total: 3, done: 0, inProgress: 2, waiting: 1, failed: 0 });
    assert.equal(reports[0]?.final, false);
    const last = reports.at(-1)!;
    assert.equal(last.final, true);
    assert.equal(`${last.stack.action}_${last.stack.status}`, 'CREATE_COMPLETE');
    assert.equal(reports.filter((r) => r.final).length, 1);
  });

  it("count a nested stack's nodes while it runs, and name its running resources after their group", async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: 3
      resource_def: {type: ${T}, properties: {action_wait_secs: {create: 10}}}
`,
    );
    const stack = await findStack(h.deps, 'p', 's');
    const seen: StackProgressCounts[] = [];
    let named: string[] = [];
    while ((await h.status('s')) === 'CREATE_IN_PROGRESS') {
      await h.round();
      const now = (await counts(h))!;
      seen.push(now);
      const activity = await h.deps.store.tx((tx) => tx.stacks.activity(stack.id, 3));
      if (activity.running.length > named.length) named = activity.running.map((r) => r.name);
    }
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    // The group's node and its 3 members, all running together at some point.
    assert.ok(
      seen.some((c) => c.total === 4 && c.inProgress === 4),
      JSON.stringify(seen),
    );
    assert.deepEqual(named.sort(), ['group', 'group.0', 'group.1']);
    // The members' stack ended first: its rows count as done, so the total never dropped.
    const totals = seen.filter((c) => c.total > 0).map((c) => c.total);
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => a - b),
      'totals never go down',
    );
  });
});
