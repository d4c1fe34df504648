/**
 * The cluster tests' checkers on hand-made states (no engine, no database): a clean state passes,
 * and a duplicate, a leak, a stuck lock, a row left in progress, work claimed by a dead engine and
 * an object left after the deletes are each reported. Also the stall watch and CLUSTER_INJECT's
 * parsing. If these pass, a cluster run can only pass on a state free of all of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkObserved, type ObservedStack, type PhysicalObject } from '../crash/harness.js';
import { bigTemplate, TEST_RESOURCE } from '../crash/template.js';
import { assertNothingLeft, assertNotStuck, type Settled, stuckProblems } from './checks.js';
import { requestedInjection } from './inject.js';
import { ProgressWatch } from './progress.js';

const template = bigTemplate(7, { chains: 2, length: 3, fanIn: 2, waitEvery: 100, replaced: 1 });
const GEN = 'g1';

/** The stack as a correct update to GEN leaves it: one object per resource, nothing locked. */
function converged(): ObservedStack {
  const expected = template.expected(GEN);
  const objects: PhysicalObject[] = template.names.map((name) => ({
    id: `s-${name}-id`,
    key: `key-${name}`,
    type: TEST_RESOURCE,
    properties: { value: expected.get(name)! },
    status: 'ACTIVE',
  }));
  return {
    status: 'UPDATE_COMPLETE',
    reason: '',
    resources: template.names.map((name) => ({
      name,
      physicalId: `s-${name}-id`,
      status: 'UPDATE_COMPLETE',
      value: expected.get(name),
    })),
    objects,
    locked: [],
  };
}

const check = (observed: ObservedStack) => checkObserved(observed, template, GEN, 'UPDATE');

describe('checkObserved (the cluster tests check every trial with it)', () => {
  it('passes a converged stack', () => {
    assert.equal(check(converged()).size, template.names.length);
  });

  it('reports a duplicate: a second object with the same idempotency key', () => {
    const observed = converged();
    observed.objects.push({ ...observed.objects[0]!, id: 'copy' });
    assert.throws(() => check(observed), /duplicates/);
  });

  it('reports a leak: an object no resource points at', () => {
    const observed = converged();
    observed.objects.push({ ...observed.objects[0]!, id: 'leaked', key: 'leaked-key' });
    assert.throws(() => check(observed), /leaks/);
  });

  it('reports a resource lock left held', () => {
    const observed = converged();
    observed.locked.push({ name: template.names[0], engineId: 'engine-1:42:abcd' });
    assert.throws(() => check(observed), /lock left held/);
  });

  it('reports a resource whose object is gone', () => {
    const observed = converged();
    observed.objects.pop();
    assert.throws(() => check(observed), /physical object is gone/);
  });
});

describe('stuckProblems (rows of every generation, the work queue)', () => {
  const clean = (): Settled => ({
    rows: [
      { id: 1, name: 'a', action: 'UPDATE', status: 'COMPLETE', engineId: null },
      { id: 2, name: 'b', action: 'DELETE', status: 'COMPLETE', engineId: null },
    ],
    work: [{ id: 9, node: 'u:1', claimedBy: 'engine-4:100:ffff#2' }],
  });
  const alive = new Set(['engine-4']);

  it('passes a stack at rest (work claimed by a live engine is not stuck)', () => {
    assert.deepEqual(stuckProblems(clean(), alive), []);
    assertNotStuck(clean(), alive);
  });

  it('reports a row left in progress', () => {
    const settled = clean();
    settled.rows[1]!.status = 'IN_PROGRESS';
    assert.deepEqual(stuckProblems(settled, alive), ['resource b (row 2) left DELETE_IN_PROGRESS']);
  });

  it('reports a lock held, on a replaced row too', () => {
    const settled = clean();
    settled.rows[1]!.engineId = 'engine-1:42:abcd';
    assert.match(stuckProblems(settled, alive).join(), /resource b \(row 2\) still locked by engine-1/);
    assert.throws(() => assertNotStuck(settled, alive), /stuck/);
  });

  it('reports work still claimed by a dead engine', () => {
    const settled = clean();
    settled.work.push({ id: 10, node: 'c:2', claimedBy: 'engine-1:42:abcd#1' });
    assert.deepEqual(stuckProblems(settled, alive), [
      'work 10 (c:2) still claimed by dead engine engine-1:42:abcd#1',
    ]);
  });
});

describe('assertNothingLeft (after every stack is deleted)', () => {
  it('passes no object and reports any left', () => {
    assertNothingLeft([]);
    const left = converged().objects.slice(0, 1);
    assert.throws(() => assertNothingLeft(left), /leaks/);
  });
});

describe('ProgressWatch (the only "too slow" of the cluster tests)', () => {
  it('stalls only after a window without a new maximum, however slow the progress', () => {
    const watch = new ProgressWatch(1000, 0);
    // A slow but steady cluster: a step every 900 ms for a long time never stalls.
    for (let t = 0, done = 0; t < 100_000; t += 900, done++) {
      assert.equal(watch.observe(done, t), true);
      assert.equal(watch.stalled(t + 899), false);
    }
    // The same value (or a lower one) again is not progress.
    assert.equal(watch.observe(3, 100_000), false);
    assert.equal(watch.stalled(100_800 + 1000), true);
  });

  it('does not count the time the test paused it for', () => {
    const watch = new ProgressWatch(1000, 0);
    watch.observe(1, 0);
    watch.pause(5000);
    assert.equal(watch.stalled(5500), false);
    assert.equal(watch.stalled(6001), true);
  });
});

describe('CLUSTER_INJECT', () => {
  it('reads duplicate and leak, nothing when unset, and refuses anything else', () => {
    assert.equal(requestedInjection(undefined), undefined);
    assert.equal(requestedInjection(''), undefined);
    assert.equal(requestedInjection('duplicate'), 'duplicate');
    assert.equal(requestedInjection('leak'), 'leak');
    assert.throws(() => requestedInjection('dupe'), /expected duplicate or leak/);
  });
});
