import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HealRecord, Store } from '../../src/store/contract.js';
import { withStore } from './fixtures.js';

function heal(stackId: string, name: string, overrides: Partial<HealRecord> = {}): HealRecord {
  return { stackId, resourceName: name, rootStackId: 'root', attempts: 1, lastAt: 1000, ...overrides };
}

export function healContract(open: () => Promise<Store>): void {
  describe("the observer's bookkeeping", () => {
    it('keeps one heal record per stack and resource, replaced by the next, removed by name or tree', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.heals.put([
            heal('s1', 'web'),
            heal('s1', 'db'),
            heal('s0', 'web'),
            heal('s2', 'web', { rootStackId: 'other' }),
          ]),
        );
        await store.tx((tx) => tx.heals.put([heal('s1', 'web', { attempts: 2, lastAt: 5000 })]));
        // A tree's records, by stack and name; another tree's are not among them.
        assert.deepEqual(await store.tx((tx) => tx.heals.listTree('root')), [
          heal('s0', 'web'),
          heal('s1', 'db'),
          heal('s1', 'web', { attempts: 2, lastAt: 5000 }),
        ]);
        await store.tx((tx) => tx.heals.remove('s1', ['db', 'nothing']));
        assert.deepEqual(
          (await store.tx((tx) => tx.heals.listTree('root'))).map((r) => `${r.stackId}.${r.resourceName}`),
          ['s0.web', 's1.web'],
        );
        await store.tx((tx) => tx.heals.clearTree('root'));
        assert.deepEqual(await store.tx((tx) => tx.heals.listTree('root')), []);
        assert.deepEqual(
          await store.tx((tx) => tx.heals.listTree('other')),
          [heal('s2', 'web', { rootStackId: 'other' })],
          'another tree keeps its records',
        );
      }));

    it('adds to each project’s observer counts', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.observerCounts.add({ projectId: 'p2', checks: 5, drifts: 1, heals: 0 }));
        await store.tx((tx) => tx.observerCounts.add({ projectId: 'p1', checks: 3, drifts: 0, heals: 0 }));
        await store.tx((tx) => tx.observerCounts.add({ projectId: 'p2', checks: 7, drifts: 2, heals: 1 }));
        assert.deepEqual(await store.tx((tx) => tx.observerCounts.list()), [
          { projectId: 'p1', checks: 3, drifts: 0, heals: 0 },
          { projectId: 'p2', checks: 12, drifts: 3, heals: 1 },
        ]);
      }));
  });
}
