import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cancelStack } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { Harness } from './harness.js';

// The rest of Heat's simulator scenarios: rollbacks in the middle of updates, replacements whose
// cleanup is overtaken by a newer operation, and user-driven renames.

const T = 'OS::Heat::TestResource';

interface Spec {
  value?: string;
  /** A value that cannot be updated in place: changing it replaces the resource. */
  fixed?: string;
  deps?: string[];
  ref?: string;
  wait?: { create?: number; update?: number; delete?: number };
}

function tpl(resources: Record<string, Spec>): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (const [name, spec] of Object.entries(resources)) {
    const props: string[] = [];
    props.push(`value: ${spec.ref ? `{get_attr: [${spec.ref}, output]}` : (spec.value ?? name)}`);
    if (spec.fixed) props.push(`update_replace_value: ${spec.fixed}`);
    if (spec.wait) {
      const w = Object.entries(spec.wait).map(([k, v]) => `${k}: ${v}`);
      props.push(`action_wait_secs: {${w.join(', ')}}`);
    }
    const deps = spec.deps?.length ? `, depends_on: [${spec.deps.join(', ')}]` : '';
    lines.push(`  ${name}: {type: ${T}${deps}, properties: {${props.join(', ')}}}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Live physical objects, by the name of the row that points at them (orphans are flagged). */
async function world(h: Harness): Promise<Record<string, string>> {
  const rows = await h.rows('s');
  const owner = new Map(rows.map((r) => [r.physicalId, r.name]));
  const out: Record<string, string> = {};
  for (const o of await h.live()) {
    const name = owner.get(o.id) ?? `orphan:${o.id}`;
    out[name] = String(o.properties.value);
  }
  return out;
}

async function cancel(h: Harness): Promise<void> {
  await cancelStack(h.deps, (await findStack(h.deps, 'p', 's')).id, { rollback: true });
}

const BASE: Record<string, Spec> = {
  A: {},
  B: {},
  C: { deps: ['A', 'B'] },
  D: { ref: 'C' },
};

describe('convergence scenarios (Heat simulator): rollback and overtaken cleanup', () => {
  it('update_add_rollback: rolling back mid-update removes the added resource', async () => {
    const h = await Harness.create();
    await h.create('s', tpl(BASE));
    await h.settle();
    await h.update('s', tpl({ ...BASE, F: { ref: 'D', wait: { create: 5 } } }));
    await h.rounds(2);
    await cancel(h);
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'C', 'D']);
  });

  it('update_add_rollback_early: rolling back before anything ran', async () => {
    const h = await Harness.create();
    await h.create('s', tpl(BASE));
    await h.settle();
    await h.update('s', tpl({ ...BASE, F: { ref: 'D' } }));
    await cancel(h);
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'C', 'D']);
  });

  it('update_remove_rollback: a resource whose removal is rolled back comes back', async () => {
    const h = await Harness.create();
    await h.create('s', tpl({ ...BASE, B: { wait: { delete: 5 } } }));
    await h.settle();
    const { B: _drop, ...withoutB } = BASE;
    await h.update('s', tpl({ ...withoutB, C: { deps: ['A'] } }));
    // Roll back while B's delete is under way.
    for (let i = 0; i < 20; i++) {
      const b = (await h.rows('s')).find((r) => r.name === 'B');
      if (b?.action === 'DELETE') break;
      await h.round();
    }
    assert.equal((await h.rows('s')).find((r) => r.name === 'B')?.action, 'DELETE');
    await cancel(h);
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'C', 'D']);
  });

  it('update_replace_rollback: rolling back a replacement keeps the original and deletes the new one', async () => {
    const h = await Harness.create();
    await h.create('s', tpl({ ...BASE, C: { deps: ['A', 'B'], fixed: 'one' } }));
    await h.settle();
    const original = (await h.rows('s')).find((r) => r.name === 'C')!.physicalId;
    await h.update('s', tpl({ ...BASE, C: { deps: ['A', 'B'], fixed: 'two', wait: { create: 5 } } }));
    await h.rounds(2);
    await cancel(h);
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    const w = await world(h);
    assert.deepEqual(Object.keys(w).sort(), ['A', 'B', 'C', 'D'], 'no orphan left');
    const c = (await h.rows('s')).filter((r) => r.name === 'C');
    assert.equal(c.length, 1);
    assert.equal(c[0]!.physicalId, original, 'the original C survives');
    assert.equal(c[0]!.replacedBy, null);
    assert.equal(c[0]!.properties?.update_replace_value, 'one');
  });

  it('update_replace_missed_cleanup: a newer update before the old row is cleaned up', async () => {
    const h = await Harness.create();
    await h.create('s', tpl({ ...BASE, C: { deps: ['A', 'B'], fixed: 'one', wait: { delete: 5 } } }));
    await h.settle();
    await h.update('s', tpl({ ...BASE, C: { deps: ['A', 'B'], fixed: 'two', wait: { delete: 5 } } }));
    // Run until the replacement exists but the old C is still being deleted.
    for (let i = 0; i < 20 && (await h.rows('s')).filter((r) => r.name === 'C').length < 2; i++)
      await h.round();
    await h.round();
    assert.equal((await h.rows('s')).filter((r) => r.name === 'C').length, 2, 'two Cs exist mid-way');
    await h.update(
      's',
      tpl({ ...BASE, A: { value: 'A2' }, C: { deps: ['A', 'B'], fixed: 'two', wait: { delete: 5 } } }),
    );
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await h.rows('s')).filter((r) => r.name === 'C').length, 1);
    const w = await world(h);
    assert.deepEqual(Object.keys(w).sort(), ['A', 'B', 'C', 'D']);
    assert.equal(w.A, 'A2');
  });

  it('update_replace_missed_cleanup_delete: a delete before the old row is cleaned up removes everything', async () => {
    const h = await Harness.create();
    await h.create('s', tpl({ ...BASE, C: { deps: ['A', 'B'], fixed: 'one', wait: { delete: 5 } } }));
    await h.settle();
    await h.update('s', tpl({ ...BASE, C: { deps: ['A', 'B'], fixed: 'two', wait: { delete: 5 } } }));
    for (let i = 0; i < 20 && (await h.rows('s')).filter((r) => r.name === 'C').length < 2; i++)
      await h.round();
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
  });

  it('update_replace_invert_deps: two replaced resources swap their dependency direction', async () => {
    const h = await Harness.create();
    await h.create('s', tpl({ A: { fixed: 'a1' }, B: { fixed: 'b1', deps: ['A'] } }));
    await h.settle();
    await h.update('s', tpl({ A: { fixed: 'a2', deps: ['B'] }, B: { fixed: 'b2' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const rows = await h.rows('s');
    assert.equal(rows.length, 2);
    assert.deepEqual(rows.map((r) => r.properties?.update_replace_value).sort(), ['a2', 'b2']);
    assert.equal((await h.live()).length, 2, 'both old ones deleted');
  });

  it('update_user_replace: renaming a resource creates the new one and deletes the old', async () => {
    const h = await Harness.create();
    await h.create('s', tpl(BASE));
    await h.settle();
    const { C: c, D: d, ...rest } = BASE;
    await h.update('s', tpl({ ...rest, newC: c!, D: { ...d, ref: 'newC' } }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'D', 'newC']);
  });

  it('update_user_replace_rollback: rolling the rename back restores C', async () => {
    const h = await Harness.create();
    await h.create('s', tpl(BASE));
    await h.settle();
    const { C: c, D: d, ...rest } = BASE;
    await h.update('s', tpl({ ...rest, newC: { ...c!, wait: { create: 5 } }, D: { ...d, ref: 'newC' } }));
    await h.rounds(2);
    await cancel(h);
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'C', 'D']);
  });
});
