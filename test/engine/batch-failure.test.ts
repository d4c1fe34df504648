import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store, Tx } from '../../src/store/contract.js';
import { Harness } from './harness.js';

const COUNT = 64;

const template = (value: string) =>
  [
    'heat_template_version: 2018-08-31',
    'resources:',
    ...Array.from(
      { length: COUNT },
      (_, i) => `  r${i}: {type: OS::Heat::Value, properties: {value: ${value}}}`,
    ),
  ].join('\n');

/**
 * Makes every multi-node `markDone` that includes `poisoned` throw (as a batch losing every retry
 * would), and counts the nodes marked done by multi-node calls (batches) and by single ones, in
 * transactions that committed (PostgreSQL runs a conflicting one again).
 */
function poisonBatchesOf(store: Store, poisoned: () => string | undefined) {
  const marked = { batched: 0, single: 0 };
  const tx = store.tx.bind(store);
  store.tx = async <T>(fn: (tx: Tx) => Promise<T>) => {
    let attempt = { batched: 0, single: 0 };
    const result = await tx((inner) => {
      attempt = { batched: 0, single: 0 };
      const sync: Tx['sync'] = Object.create(inner.sync) as Tx['sync'];
      sync.markDone = async (traversalId, nodes) => {
        const bad = poisoned();
        if (nodes.length > 1 && bad !== undefined && nodes.includes(bad)) throw new Error(`poisoned ${bad}`);
        const done = await inner.sync.markDone(traversalId, nodes);
        if (nodes.length > 1) attempt.batched += done.length;
        else attempt.single += done.length;
        return done;
      };
      return fn({ ...inner, sync } as Tx);
    });
    marked.batched += attempt.batched;
    marked.single += attempt.single;
    return result;
  };
  return marked;
}

describe('a batch of units that fails', () => {
  it('runs again in halves: only the few units around the bad one run on their own', async () => {
    const h = await Harness.create();
    await h.create('s', template('one'));
    await h.settle();
    const rows = await h.rows('s');
    const victim = rows.find((r) => r.name === 'r13')!;
    const marked = poisonBatchesOf(h.deps.store, () => `u:${victim.id}`);

    await h.update('s', template('two'));
    await h.settle();

    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    for (const row of await h.rows('s')) assert.equal(row.status, 'COMPLETE', row.name);
    // All 64 update nodes were marked; at most a smallest half (8) of them went one by one.
    assert.ok(marked.single >= 1, 'the poisoned unit ran on its own');
    assert.ok(marked.single <= 8 + 1, `${marked.single} units marked one by one`);
    assert.ok(marked.batched >= COUNT - 8, `${marked.batched} units marked in batches`);
  });
});
