import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SqlExecutor } from '../../src/store/sql/index.js';
import type { SqlStore } from '../../src/store/sql/store.js';
import { markUnhealthy } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { Harness } from './harness.js';

/*
 * Updates planned from a diff (operations/update-diff.ts): what they read and write, and the
 * edges where the diff alone would be wrong.
 */

const T = 'OS::Heat::TestResource';

/** Counts the resource rows the store's statements read and write (rows returned, rows changed). */
function countRows(h: Harness): { read: number; written: number } {
  const counts = { read: 0, written: 0 };
  const driver = (h.deps.store as SqlStore).driver;
  const wrap = (db: SqlExecutor): SqlExecutor => ({
    all: async (sql, params) => {
      const rows = await db.all(sql, params);
      if (/\bresources\b/.test(sql)) {
        if (/^\s*(WITH[\s\S]*)?(UPDATE|INSERT|DELETE)\b/i.test(sql)) counts.written += rows.length;
        else counts.read += rows.length;
      }
      return rows;
    },
    run: async (sql, params) => {
      const changed = await db.run(sql, params);
      if (/\bresources\b/.test(sql)) counts.written += changed;
      return changed;
    },
  });
  const transaction = driver.transaction.bind(driver);
  driver.transaction = (fn) => transaction((db) => fn(wrap(db)));
  const readTransaction = driver.readTransaction?.bind(driver);
  if (readTransaction) driver.readTransaction = (fn) => readTransaction((db) => fn(wrap(db)));
  return counts;
}

/** A resource's own value and extra properties, where they differ from the base. */
type Changes = Record<number, { value?: string; props?: string }>;

/** Chains of ten: each resource but a chain's first joins its own value to the one before it. */
function chains(n: number, changes: Changes = {}): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    const own = changes[i]?.value ?? `v${i}`;
    const value = i % 10 === 0 ? own : `{list_join: ['-', [${own}, {get_attr: [r${i - 1}, output]}]]}`;
    const props = changes[i]?.props ? `, ${changes[i]!.props}` : '';
    lines.push(`  r${i}: {type: ${T}, properties: {value: ${value}${props}}}`);
  }
  return `${lines.join('\n')}\n`;
}

const valueOf = async (h: Harness, name: string) =>
  (await h.rows('s')).find((r) => r.name === name)?.properties?.value as string | undefined;

async function touched(h: Harness, before: Map<string, number>): Promise<string[]> {
  return (await h.rows('s'))
    .filter((r) => before.get(r.name) !== r.atomicKey)
    .map((r) => r.name)
    .sort();
}

async function keys(h: Harness): Promise<Map<string, number>> {
  return new Map((await h.rows('s')).map((r) => [r.name, r.atomicKey]));
}

describe('updates planned from a diff', () => {
  it('an update of one resource of 10,000 reads and writes a handful of rows', async () => {
    const h = await Harness.create();
    const n = 10_000;
    await h.create('s', chains(n));
    await h.settle();
    const counts = countRows(h);
    // r5005 changes: it and the four after it in its chain get a node.
    await h.update('s', chains(n, { 5005: { value: 'changed' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.ok(counts.written < 25, `resource rows written: ${counts.written}`);
    assert.ok(counts.read < 25, `resource rows read: ${counts.read}`);
    assert.equal((await h.rows('s')).length, n);
    assert.match((await valueOf(h, 'r5009'))!, /^v5009-v5008-v5007-v5006-changed-v5004/);
  });

  it('an update from another file of the same directory is planned from the diff', async () => {
    const h = await Harness.create();
    const n = 2_000;
    await h.create('s', chains(n), { url: 'file:///work/a.yaml' });
    await h.settle();
    const elsewhere = chains(n, { 1005: { value: 'changed' } });
    const counts = countRows(h);
    await h.update('s', elsewhere, { url: 'file:///work/b.yaml' });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.ok(counts.read < 25, `resource rows read: ${counts.read}`);
    // Another directory may resolve relative references differently: every row is compared.
    const all = countRows(h);
    await h.update('s', chains(n, { 1006: { value: 'changed' } }), { url: 'file:///other/b.yaml' });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.ok(all.read >= n, `resource rows read: ${all.read}`);
  });

  it('adds and removes resources; a dependent of a changed one gets a node', async () => {
    const h = await Harness.create();
    await h.create('s', chains(30));
    await h.settle();
    const before = await keys(h);
    const text =
      chains(30, { 12: { value: 'changed' } }).replace(/ {2}r29: .*\n/, '') +
      `  extra: {type: ${T}, properties: {value: x}}\n`;
    await h.update('s', text);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await touched(h, before), [
      'extra',
      'r12',
      'r13',
      'r14',
      'r15',
      'r16',
      'r17',
      'r18',
      'r19',
    ]);
    const names = (await h.rows('s')).map((r) => r.name);
    assert.ok(!names.includes('r29') && names.includes('extra'));
    assert.ok(!(await h.live()).some((o) => String(o.properties.value).startsWith('v29')), 'r29 is deleted');
  });

  it('an unhealthy row gets a node although its definition is the same', async () => {
    const h = await Harness.create();
    await h.create('s', chains(20));
    await h.settle();
    const stack = await findStack(h.deps, 'p', 's');
    await markUnhealthy(h.deps, stack.id, 'r3', 'broken');
    const before = await keys(h);
    await h.update('s', chains(20, { 15: { value: 'changed' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const rows = await h.rows('s');
    const r3 = rows.find((r) => r.name === 'r3')!;
    assert.equal(r3.unhealthy, false, 'the unhealthy resource was replaced');
    assert.ok((await touched(h, before)).includes('r15'));
  });

  it('after a failed update the next one compares every row and converges', async () => {
    const h = await Harness.create();
    await h.create('s', chains(20));
    await h.settle();
    await h.update('s', chains(20, { 4: { value: 'w4', props: 'fail: true' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_FAILED');
    await h.update('s', chains(20, { 7: { value: 'changed' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(await valueOf(h, 'r4'), 'v4-v3-v2-v1-v0');
    assert.match((await valueOf(h, 'r9'))!, /^v9-v8-changed-/);
  });

  it('a rollback after updates planned from a diff restores the old definitions', async () => {
    const h = await Harness.create();
    await h.create('s', chains(20));
    await h.settle();
    const r2: Changes = { 2: { value: 'changed' } };
    await h.update('s', chains(20, r2));
    await h.settle();
    // r12 is replaced, then r14 fails: the rollback takes the original r12 back.
    const failing: Changes = {
      ...r2,
      12: { value: 'w12', props: 'update_replace: true' },
      14: { value: 'w14', props: 'fail: true' },
    };
    await h.update('s', chains(20, failing), { rollback: true });
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    const rows = await h.rows('s');
    assert.equal(rows.filter((r) => r.name === 'r12').length, 1);
    assert.equal(await valueOf(h, 'r12'), 'v12-v11-v10');
    assert.equal(await valueOf(h, 'r2'), 'changed-v1-v0');
    const live = (await h.live()).map((o) => String(o.properties.value));
    assert.ok(!live.some((v) => v.startsWith('w12')) && live.includes('v12-v11-v10'));
    // And the next update is planned from a diff again, from the rolled-back template.
    const before = await keys(h);
    await h.update('s', chains(20, { ...r2, 16: { value: 'changed' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await touched(h, before), ['r16', 'r17', 'r18', 'r19']);
  });

  it('a type replaced on every update is replaced by an update from a diff', async () => {
    const h = await Harness.create();
    const text = (v: string) => `heat_template_version: 2018-08-31
resources:
  handle: {type: OS::Heat::UpdateWaitConditionHandle}
  a: {type: ${T}, properties: {value: ${v}}}
`;
    await h.create('s', text('a1'));
    await h.settle();
    const first = (await h.rows('s')).find((r) => r.name === 'handle')!;
    await h.update('s', text('a2'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const handle = (await h.rows('s')).find((r) => r.name === 'handle')!;
    assert.notEqual(handle.id, first.id, 'a new handle');
  });

  it('deletion_policy Retain holds for a resource whose template was released long ago', async () => {
    const h = await Harness.create();
    const text = (v: string, kept = true) => `heat_template_version: 2018-08-31
resources:
${kept ? `  kept: {type: ${T}, deletion_policy: Retain, properties: {value: kept}}\n` : ''}  a: {type: ${T}, properties: {value: ${v}}}
  b: {type: ${T}, deletion_policy: Retain, properties: {value: b}}
`;
    await h.create('s', text('a0'));
    await h.settle();
    for (const v of ['a1', 'a2', 'a3']) {
      await h.update('s', text(v));
      await h.settle();
    }
    const kept = (await h.rows('s')).find((r) => r.name === 'kept')!;
    const stack = await h.stack('s');
    assert.notEqual(kept.templateId, stack.templateId, 'the row was not rewritten');
    await h.update('s', text('a4', false));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.ok(!(await h.rows('s')).some((r) => r.name === 'kept'));
    assert.ok(
      (await h.live()).some((o) => o.properties.value === 'kept'),
      'Retain: the resource stays',
    );
    await h.delete('s');
    await h.settle();
    const live = (await h.live()).map((o) => o.properties.value);
    assert.ok(live.includes('b'), 'Retain at the stack delete too');
    assert.ok(!live.includes('a4'));
  });
});
