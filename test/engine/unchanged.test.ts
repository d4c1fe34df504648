import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceRecord } from '../../src/store/contract.js';
import { Harness } from './harness.js';

const T = 'OS::Heat::TestResource';

/** Resources touched by the last operation: their rows' lock keys moved. */
function touched(before: readonly ResourceRecord[], after: readonly ResourceRecord[]): string[] {
  const keys = new Map(before.map((r) => [r.name, r.atomicKey]));
  return after
    .filter((r) => keys.get(r.name) !== r.atomicKey)
    .map((r) => r.name)
    .sort();
}

async function resourceEvents(h: Harness, name: string): Promise<string[]> {
  const stack = await h.stack(name);
  const events = await h.deps.store.tx((tx) => tx.events.list(stack.id));
  return events
    .filter((e) => e.resourceName !== name)
    .map((e) => `${e.resourceName} ${e.action}_${e.status}`);
}

describe('update traversals leave unchanged resources alone', () => {
  const template = (b: string, param = 'p1') => `heat_template_version: 2018-08-31
parameters:
  p: {type: string, default: ${param}}
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: ${b}}}
  c: {type: ${T}, properties: {value: {get_attr: [b, output]}}}
  d: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
  e: {type: ${T}, properties: {value: {get_param: p}}}
outputs:
  c: {value: {get_attr: [c, output]}}
`;

  it('changes one resource and its dependents; the others keep their rows untouched', async () => {
    const h = await Harness.create();
    await h.create('s', template('b1'));
    await h.settle();
    const before = await h.rows('s');
    const eventsBefore = (await resourceEvents(h, 's')).length;
    await h.update('s', template('b2'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const after = await h.rows('s');
    assert.deepEqual(touched(before, after), ['b', 'c']);
    const events = (await resourceEvents(h, 's')).slice(eventsBefore);
    assert.deepEqual([...new Set(events.map((e) => e.split(' ')[0]))].sort(), ['b', 'c']);
    assert.deepEqual(await h.outputs('s'), { c: 'b2' });
    // The touched rows are converged to the new template; the others are not even rewritten
    // (the update was planned from a diff: see core/traversal.ts on a row's template id).
    const stack = await h.stack('s');
    assert.deepEqual(
      after.filter((r) => r.templateId === stack.templateId).map((r) => r.name),
      ['b', 'c'],
    );
  });

  it('an update with the same template runs no node and completes at once', async () => {
    const h = await Harness.create();
    await h.create('s', template('b1'));
    await h.settle();
    const before = await h.rows('s');
    await h.update('s', template('b1'));
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE', 'nothing to run');
    assert.deepEqual(touched(before, await h.rows('s')), []);
  });

  it('a parameter change reaches exactly the resources that use it', async () => {
    const h = await Harness.create();
    await h.create('s', template('b1'));
    await h.settle();
    const before = await h.rows('s');
    await h.update('s', template('b1', 'p2'));
    await h.settle();
    assert.deepEqual(touched(before, await h.rows('s')), ['e']);
    const e = (await h.live()).find((o) => o.properties.value === 'p2');
    assert.ok(e, 'the physical resource has the new value');
  });

  it('a dependent of a replaced resource is repointed even though its snippet is the same', async () => {
    const h = await Harness.create();
    const t = (v: string) => `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: ${v}, update_replace: true}}
  b: {type: ${T}, properties: {value: {get_resource: a}}}
  x: {type: ${T}, properties: {value: x}}
`;
    await h.create('s', t('1'));
    await h.settle();
    const before = await h.rows('s');
    const oldA = before.find((r) => r.name === 'a')!;
    await h.update('s', t('2'));
    await h.settle();
    const after = await h.rows('s');
    const newA = after.find((r) => r.name === 'a')!;
    assert.notEqual(newA.physicalId, oldA.physicalId);
    const b = after.find((r) => r.name === 'b')!;
    assert.equal(b.properties?.value, newA.physicalId);
    assert.deepEqual(b.requires, [newA.id]);
    assert.deepEqual(
      touched(before, after).filter((n) => n !== 'a'),
      ['b'],
    );
    assert.equal(after.filter((r) => r.name === 'a').length, 1, 'the old row is gone');
  });

  it('a failed resource is converged again, then left alone once COMPLETE', async () => {
    const h = await Harness.create();
    const t = (fail: boolean) => `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  f: {type: ${T}, properties: {value: f, fail: ${fail}}}
`;
    await h.create('s', t(true));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    await h.update('s', t(false));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    // The same template again: f is COMPLETE now, so nothing runs.
    const before = await h.rows('s');
    await h.update('s', t(false));
    await h.settle();
    assert.deepEqual(touched(before, await h.rows('s')), []);
  });

  it('a changed depends_on makes the resource a node (its stored requirements follow)', async () => {
    const h = await Harness.create();
    const t = (dep: string) => `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: b}}
  c: {type: ${T}, properties: {value: c}, depends_on: [${dep}]}
`;
    await h.create('s', t('a'));
    await h.settle();
    await h.update('s', t('b'));
    await h.settle();
    const rows = await h.rows('s');
    const c = rows.find((r) => r.name === 'c')!;
    assert.deepEqual(c.requires, [rows.find((r) => r.name === 'b')!.id]);
  });

  it('an unchanged dependency feeds a changed resource its cached outputs', async () => {
    const h = await Harness.create();
    const t = (suffix: string) => `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: {list_join: ['-', [{get_attr: [a, output]}, ${suffix}]]}}}
`;
    await h.create('s', t('x'));
    await h.settle();
    await h.update('s', t('y'));
    await h.settle();
    const b = (await h.rows('s')).find((r) => r.name === 'b')!;
    assert.equal(b.properties?.value, 'a-y');
  });
});
