import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStack, markUnhealthy } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import { Harness } from './harness.js';

const T = 'OS::Heat::TestResource';

// a ← b ← c (c needs b needs a); d alone; n, v, r have no plugin check.
const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: A}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
  c: {type: ${T}, properties: {value: {get_attr: [b, output]}}}
  d: {type: ${T}, properties: {value: D}}
  n: {type: OS::Heat::None}
  v: {type: OS::Heat::Value, properties: {value: {get_resource: d}}}
  r: {type: OS::Heat::RandomString}
`;

async function check(h: Harness, name = 's') {
  return checkStack(h.deps, h.engine.cache, (await findStack(h.deps, 'p', name)).id);
}

async function byName(h: Harness) {
  return new Map((await h.rows('s')).map((r) => [r.name, r]));
}

async function created(h: Harness): Promise<Harness> {
  await h.create('s', TEMPLATE);
  await h.settle();
  assert.equal(await h.status('s'), 'CREATE_COMPLETE');
  return h;
}

describe('stack check', () => {
  it('has no "not fully supported" suffix when every resource can check itself', async () => {
    const h = await Harness.create();
    await h.create('s', `heat_template_version: 2018-08-31\nresources:\n  a: {type: ${T}}\n`);
    await h.settle();
    await check(h);
    await h.settle();
    const after = await h.stack('s');
    assert.equal(`${after.action}_${after.status}`, 'CHECK_COMPLETE');
    assert.equal(after.reason, 'Stack CHECK completed successfully');
  });

  it('a healthy stack checks COMPLETE, every resource CHECK_COMPLETE; nothing else changes', async () => {
    const h = await created(await Harness.create());
    const before = await h.stack('s');
    const rowsBefore = await byName(h);
    const objects = (await h.live()).length;
    const started = await check(h);
    assert.equal(`${started.action}_${started.status}`, 'CHECK_IN_PROGRESS');
    await h.settle();
    const after = await h.stack('s');
    assert.equal(`${after.action}_${after.status}`, 'CHECK_COMPLETE');
    // n, v and r have no check: Heat's suffix says so.
    assert.equal(
      after.reason,
      "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
    );
    assert.equal(after.templateId, before.templateId, 'the template stays');
    assert.equal(after.prevTemplateId, null);
    const rows = await byName(h);
    assert.equal(rows.size, 7, 'no row made, none deleted');
    for (const [name, row] of rows) {
      assert.equal(`${row.action}_${row.status}`, 'CHECK_COMPLETE', name);
      assert.equal(row.engineId, null, `${name} unlocked`);
      assert.equal(row.id, rowsBefore.get(name)!.id);
      assert.equal(row.physicalId, rowsBefore.get(name)!.physicalId);
      assert.deepEqual(row.attributes, rowsBefore.get(name)!.attributes);
    }
    for (const name of ['a', 'b', 'c', 'd']) assert.equal(rows.get(name)!.reason, 'state changed');
    for (const name of ['n', 'v', 'r']) assert.match(rows.get(name)!.reason, /^CHECK not supported/);
    assert.equal((await h.live()).length, objects, 'reality untouched');
    const events = await h.deps.store.tx((tx) => tx.events.list(after.id));
    assert.ok(events.some((e) => e.resourceName === 's' && `${e.action}_${e.status}` === 'CHECK_COMPLETE'));
  });

  it('checks in dependency order', async () => {
    const h = await created(await Harness.create());
    await check(h);
    await h.round(); // leaves only
    const rows = await byName(h);
    assert.equal(rows.get('a')!.action, 'CHECK');
    assert.equal(rows.get('d')!.action, 'CHECK');
    assert.equal(rows.get('b')!.action, 'CREATE', 'b waits for a');
    assert.equal(rows.get('v')!.action, 'CREATE', 'v waits for d');
    await h.settle();
  });

  it('a resource gone behind the engine: CHECK_FAILED naming it, dependents skipped, the rest checked', async () => {
    const h = await created(await Harness.create());
    const lost = (await byName(h)).get('b')!;
    const aId = (await byName(h)).get('a')!.id;
    assert.ok(await h.reality.delete(T, lost.physicalId!));
    await check(h);
    await h.settle();
    const stack = await h.stack('s');
    assert.equal(`${stack.action}_${stack.status}`, 'CHECK_FAILED');
    assert.match(stack.reason, /^Resource CHECK failed: b: .*not found/);
    assert.doesNotMatch(stack.reason, /\b[acdnvr]:/, 'only b is named');
    assert.equal(stack.traversalId, '');
    const rows = await byName(h);
    assert.equal(`${rows.get('b')!.action}_${rows.get('b')!.status}`, 'CHECK_FAILED');
    assert.match(rows.get('b')!.reason, /not found/);
    assert.equal(rows.get('b')!.engineId, null);
    assert.equal(`${rows.get('c')!.action}_${rows.get('c')!.status}`, 'CREATE_COMPLETE', 'c skipped');
    for (const name of ['a', 'd', 'n', 'v', 'r'])
      assert.equal(`${rows.get(name)!.action}_${rows.get(name)!.status}`, 'CHECK_COMPLETE', name);

    // The next update (same template) replaces the failed resource; the rest stays.
    const objectsBefore = h.reality.created.length;
    await h.update('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const after = await byName(h);
    assert.equal(after.size, 7, 'the old b row is gone');
    assert.notEqual(after.get('b')!.id, lost.id, 'b was replaced');
    assert.equal(`${after.get('b')!.action}_${after.get('b')!.status}`, 'CREATE_COMPLETE');
    assert.equal(h.reality.created.length, objectsBefore + 1, 'only b made again');
    const live = await h.live();
    assert.deepEqual(live.map((o) => o.properties.value).sort(), ['A', 'A', 'A', 'D']);
    assert.ok(await h.reality.get(T, after.get('b')!.physicalId!), "b's object exists again");
    assert.equal(after.get('a')!.id, aId, 'a stays');

    // A check now passes.
    await check(h);
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_COMPLETE');
  });

  it('independent failures are all named; a failure under a failure is skipped', async () => {
    const h = await created(await Harness.create());
    const rows = await byName(h);
    await h.reality.delete(T, rows.get('a')!.physicalId!);
    await h.reality.delete(T, rows.get('c')!.physicalId!);
    await h.reality.delete(T, rows.get('d')!.physicalId!);
    await check(h);
    await h.settle();
    const stack = await h.stack('s');
    assert.equal(`${stack.action}_${stack.status}`, 'CHECK_FAILED');
    assert.match(stack.reason, /\ba: /);
    assert.match(stack.reason, /\bd: /);
    assert.doesNotMatch(stack.reason, /\bc: /, 'c was not checked (a failed below it)');
    const after = await byName(h);
    assert.equal(after.get('b')!.action, 'CREATE');
    assert.equal(after.get('c')!.action, 'CREATE');
    assert.equal(after.get('v')!.action, 'CREATE', 'v depends on d');
    assert.equal(`${after.get('n')!.action}_${after.get('n')!.status}`, 'CHECK_COMPLETE');
  });

  it('a resource marked unhealthy that checks out is healthy again', async () => {
    const h = await created(await Harness.create());
    const stackId = (await findStack(h.deps, 'p', 's')).id;
    await markUnhealthy(h.deps, stackId, 'd', 'suspicious');
    await check(h);
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_COMPLETE');
    const d = (await byName(h)).get('d')!;
    assert.equal(`${d.action}_${d.status}`, 'CHECK_COMPLETE');
    assert.equal(d.unhealthy, false);
  });

  it('refuses a stack with an operation in progress, and a concurrent check', async () => {
    const h = await Harness.create();
    await h.create('s', TEMPLATE);
    await assert.rejects(
      check(h),
      (err: unknown) => err instanceof OperationError && err.code === 'conflict',
    );
    await h.settle();
    await check(h);
    await assert.rejects(
      check(h),
      (err: unknown) => err instanceof OperationError && err.code === 'conflict',
    );
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_COMPLETE');
  });

  it('an update may supersede a running check', async () => {
    const h = await created(await Harness.create());
    await check(h);
    await h.round();
    await h.update('s', TEMPLATE.replace('value: D', 'value: E'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual((await h.live()).map((o) => o.properties.value).sort(), ['A', 'A', 'A', 'E']);
  });

  it('a check after a failed update keeps the rollback target and checks only the rows there are', async () => {
    const h = await created(await Harness.create());
    const extra = `  e: {type: ${T}, depends_on: c, properties: {fail: true}}\n`;
    await h.update('s', TEMPLATE + extra);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_FAILED');
    const failed = await h.stack('s');
    await check(h);
    await h.settle();
    const after = await h.stack('s');
    // e never got a physical object: its check fails ("Resource not created").
    assert.equal(`${after.action}_${after.status}`, 'CHECK_FAILED');
    assert.match(after.reason, /\be: Resource not created/);
    assert.equal(after.prevTemplateId, failed.prevTemplateId);
    assert.ok(await h.deps.store.tx((tx) => tx.templates.get(failed.prevTemplateId!)));
    assert.equal((await h.rows('s')).length, 8, 'no row made or deleted');
  });
});
