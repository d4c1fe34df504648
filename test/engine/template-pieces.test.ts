import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SqlExecutor, SqlValue } from '../../src/store/sql/index.js';
import type { SqlStore } from '../../src/store/sql/store.js';
import { Harness } from './harness.js';

/*
 * A template's text and digests in pieces (store/sql/template-text.ts): an update of one
 * resource stores the pieces it changed, not the whole template again, and the released
 * template's pieces that no other template names go.
 */

/** The template pieces the store's statements insert: rows and bytes (the deflated bodies). */
function countPieces(h: Harness): { rows: number; bytes: number } {
  const counts = { rows: 0, bytes: 0 };
  const driver = (h.deps.store as SqlStore).driver;
  const bytes = (params: readonly SqlValue[] | undefined) =>
    (params ?? []).reduce<number>((sum, p) => sum + (p instanceof Uint8Array ? p.length : 0), 0);
  const wrap = (db: SqlExecutor): SqlExecutor => ({
    all: (sql, params) => db.all(sql, params),
    run: async (sql, params) => {
      const changed = await db.run(sql, params);
      if (/^\s*INSERT INTO template_chunks\b/.test(sql)) {
        counts.rows += changed;
        counts.bytes += bytes(params);
      }
      return changed;
    },
  });
  const transaction = driver.transaction.bind(driver);
  driver.transaction = (fn, options) => transaction((db) => fn(wrap(db)), options);
  return counts;
}

function chains(n: number, changed = -1): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    const value = i === changed ? 'changed' : `v${i}`;
    const dep = i % 10 === 0 ? '' : `, depends_on: [r${i - 1}]`;
    lines.push(`  r${i}: {type: OS::Heat::Value, properties: {value: ${value}}${dep}}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('templates stored in pieces', () => {
  it('an update of one resource of 10,000 inserts a few pieces; the released template leaves only its own', async () => {
    const h = await Harness.create();
    const n = 10_000;
    const created = countPieces(h);
    await h.create('s', chains(n));
    await h.settle();
    const stack = (await h.stack('s'))!;
    const before = await h.deps.store.tx((tx) => tx.templates.footprint(stack.rootId));
    assert.ok(created.rows >= 8, `the create stored its template in pieces (${created.rows})`);
    const counts = countPieces(h);
    await h.update('s', chains(n, 5005));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    // One piece of the text, one of the digests (the digests' last line, its trailer, is in it
    // or in one more); never the whole template again.
    assert.ok(counts.rows <= 4, `pieces inserted: ${counts.rows}`);
    assert.ok(counts.bytes < before.bytes / 5, `bytes inserted: ${counts.bytes} of ${before.bytes}`);
    const current = (await h.stack('s'))!;
    const [record, digests, after] = await h.deps.store.tx(async (tx) => [
      await tx.templates.get(current.templateId!),
      await tx.templates.digests(current.templateId!),
      await tx.templates.footprint(stack.rootId),
    ]);
    assert.equal(record?.template, chains(n, 5005));
    // The previous template was released with the update: what it alone named went with it.
    assert.equal(
      after.chars,
      record!.template.length + digests!.length,
      `${before.pieces} → ${after.pieces} pieces`,
    );
  });
});
