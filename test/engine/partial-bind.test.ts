import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeDigests } from '../../src/engine/core/digests-form.js';
import { bindCount } from '../../src/template/stubs.js';
import { Harness } from './harness.js';

/*
 * Updates that bind what changed (operations/partial-bind.ts): how much is bound, and the edges
 * where stubs standing in for unchanged resources would be wrong.
 */

const T = 'OS::Heat::TestResource';

/** Chains of ten: each resource but a chain's first joins its own value to the one before it. */
function chains(n: number, changes: Record<number, string> = {}, extra = ''): string {
  const lines = ['heat_template_version: 2018-08-31', extra, 'resources:'];
  for (let i = 0; i < n; i++) {
    const own = changes[i] ?? `{type: ${T}, properties: {value: ${value(i)}}}`;
    lines.push(`  r${i}: ${own}`);
  }
  return `${lines.join('\n')}\n`;
}

function value(i: number, own = `v${i}`): string {
  return i % 10 === 0 ? own : `{list_join: ['-', [${own}, {get_attr: [r${i - 1}, output]}]]}`;
}

const valueOf = async (h: Harness, name: string) =>
  (await h.rows('s')).find((r) => r.name === name)?.properties?.value as string | undefined;

/** Resources bound while `fn` runs. */
async function bound(fn: () => Promise<unknown>): Promise<number> {
  const before = bindCount.resources;
  await fn();
  return bindCount.resources - before;
}

/** The chunk layout stored with the stack's template's digests (template/yaml-window.ts). */
async function layout(h: Harness) {
  const stack = await h.stack('s');
  return decodeDigests(await h.deps.store.tx((tx) => tx.templates.digests(stack.templateId!)))?.layout;
}

/** The error an operation fails with. */
async function failure(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('expected an error');
}

describe('updates that bind what changed', () => {
  it('an update of one resource of 2,000 binds that resource and its dependents', async () => {
    const h = await Harness.create();
    const n = 2_000;
    assert.equal(await bound(() => h.create('s', chains(n))), n);
    await h.settle();
    const count = await bound(async () => {
      await h.update(
        's',
        chains(n, { 1005: `{type: ${T}, properties: {value: ${value(1005, 'changed')}}}` }),
      );
      await h.settle();
    });
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    // r1005 and the four after it in its chain.
    assert.equal(count, 5);
    // The text's chunk layout is stored with each template, so the next update cuts no text whole.
    const updated = chains(n, { 1005: `{type: ${T}, properties: {value: ${value(1005, 'changed')}}}` });
    assert.deepEqual(await layout(h), { start: 46, end: updated.length, indent: 2 });
    assert.match((await valueOf(h, 'r1009'))!, /^v1009-v1008-v1007-v1006-changed-v1004/);
    // A new resource, one removed: the update binds the new one (the removed one's cleanup reads
    // its snippet in the previous template, which this process binds whole).
    const text = chains(n, { 1005: `{type: ${T}, properties: {value: ${value(1005, 'changed')}}}` })
      .replace(/ {2}r1999: .*\n/, '')
      .concat(`  extra: {type: ${T}, properties: {value: {get_attr: [r7, output]}}}\n`);
    assert.equal(await bound(() => h.update('s', text)), 1);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(await valueOf(h, 'extra'), 'v7-v6-v5-v4-v3-v2-v1-v0');
    assert.ok(!(await h.rows('s')).some((r) => r.name === 'r1999'));
    // r7 is required by two (r8 and extra): its change binds both, and r8's dependent.
    const fan = text.replace(/ {2}r7: .*\n/, `  r7: {type: ${T}, properties: {value: ${value(7, 'fan')}}}\n`);
    assert.equal(await bound(() => h.update('s', fan)), 4);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(await valueOf(h, 'extra'), 'fan-v6-v5-v4-v3-v2-v1-v0');
  });

  it('refuses what the full bind refuses, with the same error', async () => {
    const h = await Harness.create();
    const n = 40;
    await h.create('s', chains(n));
    await h.settle();
    const same = async (text: string) => {
      const partial = await failure(() => h.update('s', text));
      const full = await failure(() => h.create('full', text));
      assert.equal(partial, full);
      return partial;
    };
    // A changed snippet refers to a removed resource.
    const gone = chains(n, { 12: `{type: ${T}, properties: {value: {get_attr: [r35, output]}}}` }).replace(
      / {2}r35: .*\n/,
      '',
    );
    assert.match(await same(gone), /r35/);
    // An unchanged snippet refers to a removed one.
    assert.match(await same(chains(n).replace(/ {2}r25: .*\n/, '')), /r25/);
    // A new cycle through a changed resource.
    const cycle = chains(n, { 21: `{type: ${T}, properties: {value: v21}, depends_on: [r27]}` });
    assert.match(await same(cycle), /circular dependency/);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
  });

  it('a change of parameters or outputs binds the whole template', async () => {
    const h = await Harness.create();
    const n = 100;
    const param = (d: string) => `parameters: {p: {type: string, default: ${d}}}`;
    const withOutput = (o: string, d = 'a') =>
      `${param(d)}\noutputs: {o: {value: {get_attr: [${o}, output]}}}`;
    await h.create('s', chains(n, {}, withOutput('r9')));
    await h.settle();
    assert.equal(await bound(() => h.update('s', chains(n, {}, withOutput('r19')))), n);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(await bound(() => h.update('s', chains(n, {}, withOutput('r19', 'b')))), n);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    // And the next change of one resource binds it alone again.
    const changed = { 55: `{type: ${T}, properties: {value: ${value(55, 'changed')}}}` };
    assert.equal(await bound(() => h.update('s', chains(n, changed, withOutput('r19', 'b')))), 5);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.match((await valueOf(h, 'r59'))!, /changed/);
  });
});

describe('updates that bind what changed, where the partial bind does not cover', () => {
  it('a required resource with no row: the update binds whole and converges', async () => {
    const h = await Harness.create();
    await h.create('s', chains(30));
    await h.settle();
    // r13's row is gone (an operator's doing): r14 changes and requires it, which the partial
    // bind left a stub; the traversal finds no row for it and the update starts again, whole.
    const r13 = (await h.rows('s')).find((r) => r.name === 'r13')!;
    await h.deps.store.tx((tx) => tx.resources.delete([r13.id]));
    const before = new Map((await h.rows('s')).map((r) => [r.name, r.atomicKey]));
    const count = await bound(async () => {
      await h.update('s', chains(30, { 14: `{type: ${T}, properties: {value: ${value(14, 'changed')}}}` }));
      await h.settle();
    });
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.ok(count >= 30, `bound: ${count}`);
    assert.match((await valueOf(h, 'r19'))!, /^v19-v18-v17-v16-v15-changed-v13-/);
    // Compared whole, with the whole definition: only r13 (made again) and r14 to r19 written.
    const touched = (await h.rows('s')).filter((r) => before.get(r.name) !== r.atomicKey).map((r) => r.name);
    assert.deepEqual(touched.sort(), ['r13', 'r14', 'r15', 'r16', 'r17', 'r18', 'r19']);
  });
});

describe('updates that bind what changed, from other forms', () => {
  it('a JSON template and YAML with anchors bind what changed from the parsed document', async () => {
    const h = await Harness.create();
    const json = (v: string) =>
      JSON.stringify({
        heat_template_version: '2018-08-31',
        resources: Object.fromEntries(
          Array.from({ length: 50 }, (_, i) => [
            `r${i}`,
            {
              type: T,
              properties: { value: i === 20 ? v : `v${i}` },
              ...(i % 10 ? { depends_on: [`r${i - 1}`] } : {}),
            },
          ]),
        ),
      });
    await h.create('s', json('a'));
    await h.settle();
    assert.equal(await bound(() => h.update('s', json('b'))), 10);
    await h.settle();
    assert.equal(await valueOf(h, 'r20'), 'b');
    const anchored = (v: string) =>
      chains(30, {
        3: `{type: ${T}, properties: {value: &own ${v}}}`,
        25: `{type: ${T}, properties: {value: *own}}`,
      });
    await h.update('s', anchored('x'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    // r3 and r25, and the rest of their chains.
    assert.equal(await bound(() => h.update('s', anchored('y'))), 12);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(await valueOf(h, 'r3'), 'y');
    assert.equal(await valueOf(h, 'r25'), 'y');
  });
});
