import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Harness } from './harness.js';

// Heat's convergence simulator scenarios (heat/tests/convergence/scenarios), on OS::Heat::TestResource:
// `value` updates in place; `update_replace_value` cannot be updated (a change replaces).

const T = 'OS::Heat::TestResource';

/** A → C, B → C, C → D (get_resource), C → E (get_attr): the simulator's basic graph. */
function basic(values: Record<string, string> = {}, extra = ''): string {
  const v = (n: string) => values[n] ?? n;
  return `heat_template_version: 2018-08-31
resources:
  A: {type: ${T}, properties: {value: ${v('A')}}}
  B: {type: ${T}, properties: {value: ${v('B')}}}
  C:
    type: ${T}
    depends_on: [A, B]
    properties: {value: ${v('C')}}
  D: {type: ${T}, properties: {value: {get_resource: C}}}
  E: {type: ${T}, properties: {value: {get_attr: [C, output]}}}
${extra}`;
}

/** Live objects by resource name (TestResource names its object after the resource). */
async function world(h: Harness): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const rows = await h.rows('s').catch(() => []);
  const byPhysical = new Map(rows.map((r) => [r.physicalId, r.name]));
  for (const o of await h.live()) out[byPhysical.get(o.id) ?? `orphan:${o.id}`] = o.properties.value;
  return out;
}

async function expectComplete(h: Harness, status: string): Promise<void> {
  assert.equal(await h.status('s'), status);
}

describe('convergence scenarios (Heat simulator)', () => {
  it('basic_create: reaches the template state, dependencies first', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.round();
    // Only the leaves can have run in the first round.
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B']);
    await h.settle();
    await expectComplete(h, 'CREATE_COMPLETE');
    const w = await world(h);
    const rows = await h.rows('s');
    const c = rows.find((r) => r.name === 'C')!;
    assert.deepEqual(Object.keys(w).sort(), ['A', 'B', 'C', 'D', 'E']);
    assert.equal(w.D, c.physicalId, 'get_resource gives the reference id');
    assert.equal(w.E, 'C', 'get_attr gives the attribute');
  });

  it('disjoint_create: independent subgraphs are created in the same round', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  A: {type: ${T}, properties: {value: a}}
  B: {type: ${T}, properties: {value: {get_attr: [A, output]}}}
  X: {type: ${T}, properties: {value: x}}
  Y: {type: ${T}, properties: {value: {get_attr: [X, output]}}}
`,
    );
    await h.round();
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'X']);
    await h.round();
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'X', 'Y']);
    await h.settle();
    await expectComplete(h, 'CREATE_COMPLETE');
  });

  it('create_early_delete: a delete two rounds into a create removes everything', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.rounds(2);
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
  });

  it('basic_update_delete: an update while the create is partly done ends in the new state', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.rounds(2);
    assert.equal(Object.keys(await world(h)).length, 3);
    await h.update('s', basic({ A: 'A2', C: 'C2' }));
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    const w = await world(h);
    assert.equal(w.A, 'A2');
    assert.equal(w.E, 'C2', 'E followed the new attribute of C');
    assert.equal(Object.keys(w).length, 5);
    await h.delete('s');
    await h.settle();
    assert.deepEqual(await h.live(), []);
  });

  it('update_add and update_remove', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.settle();
    const F = `  F:\n    type: ${T}\n    properties: {value: {list_join: ['+', [{get_resource: D}, {get_attr: [E, output]}]]}}\n`;
    await h.update('s', basic({}, F));
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    assert.equal(Object.keys(await world(h)).length, 6);
    // Remove E (and F, which needs it).
    await h.update(
      's',
      `heat_template_version: 2018-08-31
resources:
  A: {type: ${T}, properties: {value: A}}
  B: {type: ${T}, properties: {value: B}}
  C: {type: ${T}, depends_on: [A, B], properties: {value: C}}
  D: {type: ${T}, properties: {value: {get_resource: C}}}
`,
    );
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    assert.deepEqual(Object.keys(await world(h)).sort(), ['A', 'B', 'C', 'D']);
    assert.equal((await h.rows('s')).length, 4, 'removed rows are purged');
  });

  it('update_add_concurrent: an add issued while the create runs', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.round();
    await h.update('s', basic({}, `  F: {type: ${T}, properties: {value: {get_attr: [D, output]}}}\n`));
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    assert.equal(Object.keys(await world(h)).length, 6);
  });

  it('update_replace: a property that cannot be updated replaces the resource; dependents follow', async () => {
    const h = await Harness.create();
    const tpl = (fixed: string) => `heat_template_version: 2018-08-31
resources:
  A: {type: ${T}, properties: {value: a}}
  C: {type: ${T}, properties: {value: c, update_replace_value: {str_replace: {template: v-$x, params: {$x: ${fixed}}}}}}
  D: {type: ${T}, properties: {value: {get_resource: C}}}
`;
    await h.create('s', tpl('1'));
    await h.settle();
    const before = await h.rows('s');
    const oldC = before.find((r) => r.name === 'C')!;
    await h.update('s', tpl('2'));
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    const after = await h.rows('s');
    const newC = after.find((r) => r.name === 'C')!;
    assert.notEqual(newC.physicalId, oldC.physicalId, 'C got a new physical resource');
    assert.equal(after.filter((r) => r.name === 'C').length, 1, 'the old row was cleaned up');
    const live = await h.live();
    assert.equal(live.length, 3, 'the old physical C was deleted');
    const d = live.find((o) => o.id === after.find((r) => r.name === 'D')!.physicalId)!;
    assert.equal(d.properties.value, newC.physicalId, 'D points at the new C');
  });

  it('multiple_update: shrink, grow, then delete', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.settle();
    await h.update(
      's',
      `heat_template_version: 2018-08-31\nresources:\n  A: {type: ${T}, properties: {value: A}}\n`,
    );
    await h.settle();
    assert.deepEqual(Object.keys(await world(h)), ['A']);
    await h.update('s', basic());
    await h.settle();
    assert.equal(Object.keys(await world(h)).length, 5);
    await h.delete('s');
    await h.settle();
    assert.deepEqual(await h.live(), []);
  });

  it('rapid-fire updates end in exactly the last template', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.round();
    await h.update('s', basic({ A: 'v1' }));
    await h.round();
    await h.update('s', basic({ A: 'v2', B: 'b2' }));
    await h.update('s', basic({ A: 'v3', C: 'c3' }));
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    const w = await world(h);
    assert.deepEqual({ A: w.A, B: w.B, C: w.C, E: w.E }, { A: 'v3', B: 'B', C: 'c3', E: 'c3' });
    assert.equal(Object.keys(w).length, 5, 'no orphaned physical resources');
  });

  it('update failure without rollback leaves UPDATE_FAILED; a later good update succeeds', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.settle();
    await h.update('s', basic({}, `  F: {type: ${T}, properties: {value: f, fail: true}}\n`));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_FAILED');
    await h.update('s', basic({ A: 'fixed' }));
    await h.settle();
    await expectComplete(h, 'UPDATE_COMPLETE');
    const w = await world(h);
    assert.equal(w.A, 'fixed');
    assert.equal(Object.keys(w).length, 5);
  });

  it('update failure with rollback returns to the original template', async () => {
    const h = await Harness.create();
    await h.create('s', basic());
    await h.settle();
    await h.update('s', basic({ A: 'changed' }, `  F: {type: ${T}, properties: {value: f, fail: true}}\n`), {
      rollback: true,
    });
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    const w = await world(h);
    assert.equal(w.A, 'A');
    assert.equal(Object.keys(w).length, 5, 'the failed F is gone');
  });

  it('create failure with rollback removes what was made', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      basic({}, `  F: {type: ${T}, depends_on: [A], properties: {value: f, fail: true}}\n`),
      {
        rollback: true,
      },
    );
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(await h.live(), []);
  });

  it('waits are persisted polling: a slow create holds no worker and completes', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31\nresources:\n  slow: {type: ${T}, properties: {value: x, wait_secs: 30}}\n`,
    );
    await h.round();
    assert.equal(await h.status('s'), 'CREATE_IN_PROGRESS');
    const before = h.clock.t;
    await h.settle();
    await expectComplete(h, 'CREATE_COMPLETE');
    assert.ok(h.clock.t - before >= 30_000, 'the clock moved past the wait');
  });

  it('outputs resolve from cached attributes', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      basic({}, `outputs:\n  e: {value: {get_attr: [E, output]}}\n  c: {value: {get_resource: C}}\n`),
    );
    await h.settle();
    const out = await h.outputs('s');
    assert.equal(out.e, 'C');
    assert.ok(typeof out.c === 'string' && out.c.length > 0);
  });
});
