import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import type { Json } from '../../src/util/json.js';
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
        const a = point(traversalId, stackId, 'u:1', { waiting: 2, dependents: ['u:2', 'c:1'], direct: 1 });
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

    it('report stores the data, decrements once per predecessor, and names a node once, when complete', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) =>
          tx.sync.insert([point(traversalId, stackId, 'u:3', { waiting: 2, dependents: ['u:4'] })]),
        );
        const report = (from: string, data: Json) =>
          store.tx((tx) => tx.sync.report(traversalId, [{ node: 'u:3', from, data }]));
        assert.deepEqual(await report('u:1', { ref: 'one' }), []);
        assert.equal((await store.tx((tx) => tx.sync.get(traversalId, 'u:3')))?.waiting, 1);
        // A unit of work that runs twice reports twice: the second changes nothing.
        assert.deepEqual(await report('u:1', { ref: 'changed' }), []);
        assert.deepEqual(await report('u:2', null), ['u:3']);
        assert.deepEqual(await report('u:2', null), [], 'a repeated last report does not trigger again');
        assert.deepEqual(await store.tx((tx) => tx.sync.get(traversalId, 'u:3')), {
          traversalId,
          node: 'u:3',
          stackId,
          waiting: 0,
          dependents: ['u:4'],
          direct: 0,
          inputs: { 'u:1': { ref: 'one' }, 'u:2': null },
          done: false,
        });
      }));

    it('one report call may complete several nodes, and count several reports to one node', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) =>
          tx.sync.insert([
            point(traversalId, stackId, 'a', { waiting: 2 }),
            point(traversalId, stackId, 'b', { waiting: 1 }),
            point(traversalId, stackId, 'c', { waiting: 2 }),
          ]),
        );
        const ready = await store.tx((tx) =>
          tx.sync.report(traversalId, [
            { node: 'a', from: 'x', data: 1 },
            { node: 'a', from: 'y', data: 2 },
            { node: 'b', from: 'x', data: 1 },
            { node: 'c', from: 'x', data: 1 },
            { node: 'a', from: 'x', data: 3 },
          ]),
        );
        assert.deepEqual([...ready].sort(), ['a', 'b']);
        const points = await store.tx((tx) => tx.sync.getMany(traversalId, ['a', 'c', 'missing']));
        assert.deepEqual(points.map((p) => [p.node, p.waiting, p.inputs]).sort(), [
          ['a', 0, { x: 1, y: 2 }],
          ['c', 1, { x: 1 }],
        ]);
        assert.deepEqual(await store.tx((tx) => tx.sync.getMany(traversalId, [])), []);
      }));

    it('a counted report only counts down: no input stored, none read when not asked for', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) =>
          tx.sync.insert([
            point(traversalId, stackId, 'c:1', { waiting: 2 }),
            point(traversalId, stackId, 'u:2', { waiting: 1 }),
          ]),
        );
        const ready = await store.tx((tx) =>
          tx.sync.report(traversalId, [
            { node: 'c:1', from: 'c:3', data: 1, counted: true },
            { node: 'c:1', from: 'c:4', data: 2, counted: true },
            { node: 'u:2', from: 'c:3', data: 3 },
            // A point that is not there: nothing to count down.
            { node: 'c:404', from: 'c:3', data: 1, counted: true },
          ]),
        );
        assert.deepEqual([...ready].sort(), ['c:1', 'u:2']);
        const points = await store.tx((tx) => tx.sync.getMany(traversalId, ['c:1', 'u:2']));
        assert.deepEqual(points.map((p) => [p.node, p.waiting, p.inputs]).sort(), [
          ['c:1', 0, {}],
          ['u:2', 0, { 'c:3': 3 }],
        ]);
        const bare = await store.read((tx) => tx.sync.getMany(traversalId, ['u:2'], { inputs: false }));
        assert.deepEqual(
          bare.map((p) => [p.node, p.waiting, p.inputs]),
          [['u:2', 0, {}]],
        );
      }));

    it('concurrent reports from distinct predecessors all count', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'top', { waiting: 30 })]));
        const senders = Array.from({ length: 30 }, (_, i) => `u:${i}`);
        const ready = await Promise.all(
          [...senders, ...senders].map((from) =>
            store.tx((tx) => tx.sync.report(traversalId, [{ node: 'top', from, data: from }])),
          ),
        );
        assert.deepEqual(ready.flat(), ['top'], 'exactly one report completed it');
        const top = await store.tx((tx) => tx.sync.get(traversalId, 'top'));
        assert.equal(top?.waiting, 0);
        assert.equal(Object.keys(top!.inputs).length, 30);
      }));

    it('reports to points that are gone are ignored (traversal superseded)', () =>
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
        const one = (node: string, from: string) => [{ node, from, data: 1 }];
        assert.deepEqual(await store.tx((tx) => tx.sync.report(traversalId, one('u:404', 'u:0'))), []);
        assert.deepEqual(await store.tx((tx) => tx.sync.report('no-such-traversal', one('u:1', 'u:0'))), []);
        await store.tx((tx) => tx.sync.deleteTraversal(traversalId));
        assert.equal(await store.tx((tx) => tx.sync.get(traversalId, 'u:1')), undefined);
        assert.deepEqual(await store.tx((tx) => tx.sync.report(traversalId, one('u:1', 'u:5'))), []);
        // Another traversal's points are untouched, inputs included.
        const kept = await store.tx((tx) => tx.sync.get(other.id, 'u:1'));
        assert.deepEqual([kept?.waiting, kept?.inputs], [1, { 'u:0': 1 }]);
      }));

    it('predecessor names are data (__proto__ included)', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'n', { waiting: 2 })]));
        await store.tx((tx) =>
          tx.sync.report(traversalId, [
            { node: 'n', from: '__proto__', data: { a: 1 } },
            { node: 'n', from: 'constructor', data: JSON.parse('{"__proto__": 2}') as Json },
          ]),
        );
        const done = await store.tx((tx) => tx.sync.get(traversalId, 'n'));
        assert.ok(
          done && Object.hasOwn(done.inputs, '__proto__') && Object.hasOwn(done.inputs, 'constructor'),
        );
        assert.deepEqual(done.inputs['__proto__'], { a: 1 });
        assert.ok(Object.hasOwn(done.inputs['constructor'] as object, '__proto__'));
      }));

    it('markDone returns each node once, with its dependents as they are then', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) =>
          tx.sync.insert([
            point(traversalId, stackId, 'u:1', { dependents: ['u:2'], direct: 1 }),
            point(traversalId, stackId, 'u:2', { dependents: [] }),
          ]),
        );
        // Added after the direct ones: the count still names the first entries.
        await store.tx((tx) => tx.sync.addDependent(traversalId, 'u:1', 'c:7'));
        const first = await store.tx((tx) => tx.sync.markDone(traversalId, ['u:1', 'u:404']));
        assert.deepEqual(first, [{ node: 'u:1', dependents: ['u:2', 'c:7'], direct: 1 }]);
        const second = await store.tx((tx) => tx.sync.markDone(traversalId, ['u:1', 'u:2']));
        assert.deepEqual(second, [{ node: 'u:2', dependents: [], direct: 0 }], 'u:1 was done already');
        assert.deepEqual(await store.tx((tx) => tx.sync.markDone(traversalId, [])), []);
      }));

    it('markDone and addDependent (idempotent; a missing point is left alone)', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'u:1', { dependents: ['u:2'] })]));
        await store.tx(async (tx) => {
          await tx.sync.markDone(traversalId, ['u:1']);
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
