import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import { point, resource, stackWithTraversal, withStore, work } from './fixtures.js';

const N = 10_000;
/** Reports sent together, as an engine's batch of finished nodes sends them. */
const REPORTS_PER_CALL = 10;

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await run();
  return { result, ms: Math.round(performance.now() - start) };
}

/**
 * `boundMs`: generous bounds for a shared, loaded CI machine, there to catch a cost per item that grows
 * with the count (quadratic: minutes), not to time the store (a server database pays a network round trip
 * per statement); the measured times are printed as diagnostics.
 */
export function scaleContract(open: () => Promise<Store>, boundMs = 20_000): void {
  const BOUND_MS = boundMs;
  describe('at scale', () => {
    it(`writes ${N} resources, sync points and work items in one transaction, then claims them in batches`, (t) =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        const rows = Array.from({ length: N }, (_, i) =>
          resource(stackId, `r${i}`, {
            properties: { index: i, name: `server-${i}` },
            requires: i > 0 ? [i] : [],
          }),
        );
        const write = await timed(() =>
          store.tx(async (tx) => {
            const inserted = await tx.resources.insert(rows);
            await tx.sync.insert(
              inserted.map((r, i) =>
                point(traversalId, stackId, `u:${r.id}`, {
                  waiting: i > 0 ? 1 : 0,
                  dependents: i < N - 1 ? [`u:${r.id + 1}`] : [],
                }),
              ),
            );
            await tx.work.enqueue(
              inserted.map((r) => work(traversalId, stackId, `u:${r.id}`, { runAt: r.id })),
            );
            return inserted;
          }),
        );
        t.diagnostic(`insert ${N} resources + ${N} sync points + ${N} work items: ${write.ms} ms`);
        assert.ok(write.ms < BOUND_MS, `writing took ${write.ms} ms`);
        assert.deepEqual(
          write.result.map((r) => r.name),
          rows.map((r) => r.name),
        );

        const claim = await timed(async () => {
          const seen = new Set<number>();
          while (true) {
            const batch = await store.claimWork('e1', Number.MAX_SAFE_INTEGER - 100_000, 500, 60_000);
            if (batch.length === 0) return seen;
            for (const item of batch) seen.add(item.id);
            await store.tx(async (tx) => {
              await tx.work.completeMany(batch);
            });
          }
        });
        t.diagnostic(`claim and complete ${N} work items in batches of 500: ${claim.ms} ms`);
        assert.equal(claim.result.size, N);
        assert.ok(claim.ms < BOUND_MS, `claiming took ${claim.ms} ms`);
        assert.equal(await store.nextWorkTime(), undefined);
      }));

    it(`fan-in of ${N} reports into one node costs O(1) each`, (t) =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        await store.tx((tx) => tx.sync.insert([point(traversalId, stackId, 'top', { waiting: N })]));
        const reports = await timed(async () => {
          const ready: string[] = [];
          for (let i = 0; i < N; i += REPORTS_PER_CALL) {
            const senders = Array.from({ length: REPORTS_PER_CALL }, (_, j) => `u:${i + j}`);
            const batch = senders.map((from) => ({ node: 'top', from, data: { id: `p${from}` } }));
            ready.push(...(await store.tx((tx) => tx.sync.report(traversalId, batch))));
          }
          return ready;
        });
        t.diagnostic(`${N} reports into one sync point: ${reports.ms} ms`);
        assert.deepEqual(reports.result, ['top'], 'ready once, by the last report');
        const top = await store.tx((tx) => tx.sync.get(traversalId, 'top'));
        assert.equal(top?.waiting, 0);
        assert.equal(Object.keys(top!.inputs).length, N);
        assert.ok(reports.ms < BOUND_MS, `reporting took ${reports.ms} ms`);
      }));
  });
}
