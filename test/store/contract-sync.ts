import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import { point, stackWithTraversal, traversal, withStore } from './fixtures.js';

export function syncContract(open: () => Promise<Store>): void {
  describe('traversals', () => {
    it('inserts, gets, counts nodes down atomically and deletes', () =>
      withStore(open, async (store) => {
        const t = traversal('s1', { remaining: 5, templateId: 'tpl', action: 'UPDATE', rootStackId: 'root' });
        await store.tx((tx) => tx.traversals.insert(t));
        assert.deepEqual(await store.tx((tx) => tx.traversals.get(t.id)), t);
        const results = await Promise.all(
          [1, 1, 2].map((n) => store.tx((tx) => tx.traversals.finishNodes(t.id, n))),
        );
        // Each decrement sees the one before it: distinct results, the last one 5 - 4.
        assert.equal(new Set(results).size, 3);
        assert.ok(results.includes(1));
        assert.equal((await store.tx((tx) => tx.traversals.get(t.id)))?.remaining, 1);
        assert.equal(await store.tx((tx) => tx.traversals.finishNodes(t.id, -2)), 3, 'negative: nodes added');
        await store.tx((tx) => tx.traversals.delete(t.id));
        assert.equal(await store.tx((tx) => tx.traversals.get(t.id)), undefined);
        await assert.rejects(store.tx((tx) => tx.traversals.finishNodes(t.id, 1)));
      }));
  });

  describe('sync points', () => {
    it('round-trip, inputs and dependents included', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        const a = point(traversalId, stackId, 'u:1', { waiting: 2, dependents: ['u:2', 'c:1'] });
        const b = point(traversalId, stackId, 'u:2', {
          inputs: { 'u:1': { id: 'x' }, 'u:0': null },
          done: true,
        });
        await store.tx((tx) => tx.sync.insert([a, b]));
        assert.deepEqual(await store.tx((tx) => tx.sync.get(traversalId, 'u:1')), a);
        assert.deepEqual(await store.tx((tx) => tx.sync.get(traversalId, 'u:2')), b);
        assert.equal(await store.tx((tx) => tx.sync.get(traversalId, 'u:9')), undefined);
        await store.tx((tx) => tx.sync.insert([]));
      }));

    it('insert needs the traversal (its rows carry the root stack)', () =>
      withStore(open, async (store) => {
        await assert.rejects(store.tx((tx) => tx.sync.insert([point('no-such-traversal', 's', 'u:1')])));
      }));

    it('report stores the data, decrements once per predecessor, and fills inputs at zero', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) =>
          tx.sync.insert([point(traversalId, stackId, 'u:3', { waiting: 2, dependents: ['u:4'] })]),
        );
        const first = await store.tx((tx) => tx.sync.report(traversalId, 'u:3', 'u:1', { ref: 'one' }));
        assert.equal(first?.waiting, 1);
        assert.equal(first?.done, false);
        assert.equal(first?.stackId, stackId);
        // A unit of work that runs twice reports twice: the second changes nothing.
        const again = await store.tx((tx) => tx.sync.report(traversalId, 'u:3', 'u:1', { ref: 'changed' }));
        assert.equal(again?.waiting, 1);
        const last = await store.tx((tx) => tx.sync.report(traversalId, 'u:3', 'u:2', null));
        assert.deepEqual(last, {
          traversalId,
          node: 'u:3',
          stackId,
          waiting: 0,
          dependents: ['u:4'],
          inputs: { 'u:1': { ref: 'one' }, 'u:2': null },
          done: false,
        });
        const retried = await store.tx((tx) => tx.sync.report(traversalId, 'u:3', 'u:2', null));
        assert.equal(retried?.waiting, 0);
        assert.deepEqual(await store.tx((tx) => tx.sync.get(traversalId, 'u:3')), last);
      }));

    it('concurrent reports from distinct predecessors all count', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'top', { waiting: 30 })]));
        const senders = Array.from({ length: 30 }, (_, i) => `u:${i}`);
        await Promise.all(
          [...senders, ...senders].map((from) =>
            store.tx((tx) => tx.sync.report(traversalId, 'top', from, from)),
          ),
        );
        const top = await store.tx((tx) => tx.sync.get(traversalId, 'top'));
        assert.equal(top?.waiting, 0);
        assert.equal(Object.keys(top!.inputs).length, 30);
      }));

    it('report returns undefined when the point is gone (traversal superseded)', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        const other = traversal(stackId);
        await store.tx((tx) => tx.traversals.insert(other));
        await store.tx((tx) =>
          tx.sync.insert([
            point(traversalId, stackId, 'u:1', { waiting: 1 }),
            point(other.id, stackId, 'u:1', { waiting: 1, inputs: { 'u:0': 1 } }),
          ]),
        );
        assert.equal(await store.tx((tx) => tx.sync.report(traversalId, 'u:404', 'u:0', 1)), undefined);
        assert.equal(await store.tx((tx) => tx.sync.report('no-such-traversal', 'u:1', 'u:0', 1)), undefined);
        await store.tx((tx) => tx.sync.report(traversalId, 'u:1', 'u:0', 1));
        await store.tx((tx) => tx.sync.deleteTraversal(traversalId));
        assert.equal(await store.tx((tx) => tx.sync.get(traversalId, 'u:1')), undefined);
        assert.equal(await store.tx((tx) => tx.sync.report(traversalId, 'u:1', 'u:5', 1)), undefined);
        // Another traversal's points are untouched, inputs included.
        assert.deepEqual((await store.tx((tx) => tx.sync.get(other.id, 'u:1')))?.inputs, { 'u:0': 1 });
      }));

    it('predecessor names are data (__proto__ included)', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'n', { waiting: 2 })]));
        await store.tx((tx) => tx.sync.report(traversalId, 'n', '__proto__', { a: 1 }));
        const done = await store.tx((tx) =>
          tx.sync.report(traversalId, 'n', 'constructor', JSON.parse('{"__proto__": 2}')),
        );
        assert.ok(
          done && Object.hasOwn(done.inputs, '__proto__') && Object.hasOwn(done.inputs, 'constructor'),
        );
        assert.deepEqual(done.inputs['__proto__'], { a: 1 });
        assert.ok(Object.hasOwn(done.inputs['constructor'] as object, '__proto__'));
      }));

    it('markDone and addDependent (idempotent; a missing point is left alone)', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'u:1', { dependents: ['u:2'] })]));
        await store.tx(async (tx) => {
          await tx.sync.markDone(traversalId, 'u:1');
          await tx.sync.addDependent(traversalId, 'u:1', 'c:7');
          await tx.sync.addDependent(traversalId, 'u:1', 'c:7');
          await tx.sync.addDependent(traversalId, 'u:404', 'c:7');
        });
        const stored = await store.tx((tx) => tx.sync.get(traversalId, 'u:1'));
        assert.equal(stored?.done, true);
        assert.deepEqual(stored?.dependents, ['u:2', 'c:7']);
        assert.equal(await store.tx((tx) => tx.sync.get(traversalId, 'u:404')), undefined);
      }));
  });
}
