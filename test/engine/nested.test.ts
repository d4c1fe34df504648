import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StackRecord, WorkItem } from '../../src/store/contract.js';
import { cancelStack, checkStack } from '../../src/engine/operations/lifecycle.js';
import { Harness } from './harness.js';

// Template resources: a resource whose type is a template file is a child stack with its own
// traversals; the parent's unit of work parks on the child's end event instead of polling it.

const T = 'OS::Heat::TestResource';

/** Two TestResources and an output; `first` can wait and `second` can fail. */
const NESTED = `heat_template_version: 2018-08-31
parameters:
  value: {type: string}
  wait: {type: number, default: 0}
  fail: {type: boolean, default: false}
resources:
  first: {type: ${T}, properties: {value: {get_param: value}, wait_secs: {get_param: wait}}}
  second:
    type: ${T}
    properties:
      value: {list_join: ['-', [{get_attr: [first, output]}, two]]}
      fail: {get_param: fail}
outputs:
  out: {value: {get_attr: [second, output]}}
`;

/** The parent: `after` depends on the nested stack through one of its outputs. */
function parent(value: string, options: { wait?: number; fail?: boolean; type?: string } = {}): string {
  return `heat_template_version: 2018-08-31
resources:
  nested:
    type: ${options.type ?? 'nested.yaml'}
    properties: {value: ${value}, wait: ${options.wait ?? 0}, fail: ${options.fail ?? false}}
  after: {type: ${T}, properties: {value: {get_attr: [nested, out]}}}
outputs:
  result: {value: {get_attr: [after, output]}}
  child_out: {value: {get_attr: [nested, out]}}
  child_id: {value: {get_resource: nested}}
  stack_id: {value: {get_attr: [nested, OS::stack_id]}}
`;
}

const FILES = { 'nested.yaml': NESTED };

async function children(h: Harness, parentId: string): Promise<StackRecord[]> {
  return h.deps.store.tx((tx) => tx.stacks.list({ parentId, includeDeleted: true }));
}

/** Live TestResource values, sorted. */
async function values(h: Harness): Promise<string[]> {
  return (await h.live()).map((o) => String(o.properties.value)).sort();
}

/** Counts the claims of each unit of work, to show parked units are woken, not polling. */
function countClaims(h: Harness): Map<string, WorkItem[]> {
  const claims = new Map<string, WorkItem[]>();
  const store = h.deps.store;
  const claim = store.claimWork.bind(store);
  store.claimWork = async (...args) => {
    const items = await claim(...args);
    for (const item of items) {
      const key = `${item.stackId}/${item.node}`;
      claims.set(key, [...(claims.get(key) ?? []), item]);
    }
    return items;
  };
  return claims;
}

describe('nested stacks (template resources)', () => {
  it('create: the child stack is made, its outputs become attributes the parent depends on', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const top = await h.stack('s');
    const [child, ...others] = await children(h, top.id);
    assert.equal(others.length, 0);
    assert.ok(child);
    assert.equal(`${child.action}_${child.status}`, 'CREATE_COMPLETE');
    assert.deepEqual([child.parentResource, child.rootId, child.projectId], ['nested', top.id, 'p']);
    assert.notEqual(child.templateId, top.templateId, 'the child has its own template row');
    const row = (await h.rows('s')).find((r) => r.name === 'nested')!;
    assert.equal(row.physicalId, child.id);
    assert.deepEqual(row.attributes, { out: 'one-two', 'OS::stack_id': child.id });
    const childRows = await h.deps.store.tx((tx) => tx.resources.listActive(child.id));
    assert.deepEqual(childRows.map((r) => r.name).sort(), ['first', 'second']);
    assert.ok(childRows.every((r) => r.rootStackId === top.id));
    assert.deepEqual(await values(h), ['one', 'one-two', 'one-two']);
    assert.deepEqual(await h.outputs('s'), {
      result: 'one-two',
      child_out: 'one-two',
      child_id: child.id,
      stack_id: child.id,
    });
  });

  it('update: a changed property updates the child in place; unchanged children keep their ids', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    const top = await h.stack('s');
    const [child] = await children(h, top.id);
    const before = await h.deps.store.tx((tx) => tx.resources.listActive(child!.id));
    const liveBefore = (await h.live()).map((o) => o.id).sort();

    await h.update('s', parent('uno'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const [again, ...others] = await children(h, top.id);
    assert.equal(others.length, 0, 'the same child stack, updated in place');
    assert.equal(again!.id, child!.id);
    assert.equal(`${again!.action}_${again!.status}`, 'UPDATE_COMPLETE');
    const after = await h.deps.store.tx((tx) => tx.resources.listActive(child!.id));
    assert.deepEqual(
      after.map((r) => [r.name, r.physicalId]).sort(),
      before.map((r) => [r.name, r.physicalId]).sort(),
      'child resources updated in place',
    );
    assert.deepEqual((await h.live()).map((o) => o.id).sort(), liveBefore);
    assert.deepEqual(await values(h), ['uno', 'uno-two', 'uno-two'], 'the new value reached `after`');
    assert.equal((await h.outputs('s')).result, 'uno-two');

    // Nothing the child is built from changed: the child is left alone.
    const untouched = (await children(h, top.id))[0]!;
    await h.update('s', parent('uno').replace('after: {', 'other: {type: OS::Heat::None}\n  after: {'), {
      files: FILES,
    });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual((await children(h, top.id))[0], untouched);

    // The nested template itself changes: the child converges to it.
    const grown = NESTED.replace('outputs:', `  third: {type: ${T}, properties: {value: three}}\noutputs:`);
    await h.update('s', parent('uno'), { files: { 'nested.yaml': grown } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['three', 'uno', 'uno-two', 'uno-two']);
  });

  it('delete removes the children first: nothing is left, the child stack is DELETE_COMPLETE', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    const top = await h.stack('s');
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
    const [child] = await children(h, top.id);
    assert.equal(`${child!.action}_${child!.status}`, 'DELETE_COMPLETE');
    assert.ok(child!.deletedAt);
    assert.deepEqual(await h.deps.store.tx((tx) => tx.resources.listAll(child!.id)), []);
  });

  it('a failing resource in the child fails the parent with its reason', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one', { fail: true }), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    const top = await h.stack('s');
    const [child] = await children(h, top.id);
    assert.equal(`${child!.action}_${child!.status}`, 'CREATE_FAILED');
    const row = (await h.rows('s')).find((r) => r.name === 'nested')!;
    assert.equal(`${row.action}_${row.status}`, 'CREATE_FAILED');
    // Heat's wording: the child's reason names the resource in the child, the parent's resource
    // quotes it with its own path in front, and the parent stack's reason quotes that.
    assert.equal(
      child!.reason,
      'Resource CREATE failed: ValueError: resources.second: Test Resource failed second',
    );
    assert.equal(row.reason, 'ValueError: resources.nested.resources.second: Test Resource failed second');
    assert.equal(top.reason, `Resource CREATE failed: ${row.reason}`);
    assert.equal((await h.rows('s')).find((r) => r.name === 'after')!.action, 'INIT');

    // A later good update fixes the child in place.
    await h.update('s', parent('one'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await children(h, top.id)).length, 1);
    assert.deepEqual(await values(h), ['one', 'one-two', 'one-two']);
  });

  it('a failed update with rollback converges the child back to the previous template', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    await h.update('s', parent('two', { fail: true }), { files: FILES, rollback: true });
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(await values(h), ['one', 'one-two', 'one-two']);
  });

  it('two levels of nesting', async () => {
    const h = await Harness.create();
    const middle = `heat_template_version: 2018-08-31
parameters:
  value: {type: string}
resources:
  inner: {type: nested.yaml, properties: {value: {get_param: value}}}
  beside: {type: ${T}, properties: {value: {get_attr: [inner, out]}}}
outputs:
  out: {value: {list_join: ['/', [{get_attr: [inner, out]}, {get_attr: [beside, output]}]]}}
`;
    const files = { ...FILES, 'middle.yaml': middle };
    await h.create('s', parent('deep', { type: 'middle.yaml' }).replace(/, wait: 0, fail: false/, ''), {
      files,
    });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const top = await h.stack('s');
    const [mid] = await children(h, top.id);
    const [leaf] = await children(h, mid!.id);
    assert.equal(`${mid!.action}_${mid!.status}`, 'CREATE_COMPLETE');
    assert.equal(`${leaf!.action}_${leaf!.status}`, 'CREATE_COMPLETE');
    assert.equal(leaf!.rootId, top.id);
    assert.equal((await h.outputs('s')).result, 'deep-two/deep-two');

    await h.update('s', parent('deeper', { type: 'middle.yaml' }).replace(/, wait: 0, fail: false/, ''), {
      files,
    });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await h.outputs('s')).result, 'deeper-two/deeper-two');
    assert.equal((await children(h, mid!.id)).length, 1, 'the grandchild was updated in place');

    await h.delete('s');
    await h.settle();
    assert.deepEqual(await h.live(), []);
    const deleted = await h.deps.store.tx((tx) => tx.stacks.list({ projectId: 'p', includeDeleted: true }));
    assert.deepEqual(
      deleted.map((s) => `${s.action}_${s.status}`),
      ['DELETE_COMPLETE', 'DELETE_COMPLETE', 'DELETE_COMPLETE'],
    );
  });

  it('the parent’s unit is parked while the child works: woken by the child’s end, never polling', async () => {
    const h = await Harness.create();
    const claims = countClaims(h);
    await h.create('s', parent('slow', { wait: 120 }), { files: FILES });
    const start = h.clock.t;
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.ok(h.clock.t - start >= 120_000, 'the child took two minutes');
    const top = await h.stack('s');
    const row = (await h.rows('s')).find((r) => r.name === 'nested')!;
    const parentRuns = claims.get(`${top.id}/u:${row.id}`) ?? [];
    assert.equal(parentRuns.length, 2, 'one run to start the child, one when it finished');
    const [child] = await children(h, top.id);
    const childRow = (await h.deps.store.tx((tx) => tx.resources.listActive(child!.id))).find(
      (r) => r.name === 'first',
    )!;
    assert.ok(
      (claims.get(`${child!.id}/u:${childRow.id}`) ?? []).length > 10,
      'the child polled its resource',
    );
  });

  it('a parent update issued while the child create runs ends in the last template', async () => {
    const h = await Harness.create();
    const claims = countClaims(h);
    await h.create('s', parent('first', { wait: 60 }), { files: FILES });
    await h.rounds(3);
    assert.equal(await h.status('s'), 'CREATE_IN_PROGRESS');
    await h.update('s', parent('second'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const top = await h.stack('s');
    const kids = await children(h, top.id);
    assert.equal(kids.length, 1);
    assert.equal(`${kids[0]!.action}_${kids[0]!.status}`, 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['second', 'second-two', 'second-two']);
    assert.equal((await h.outputs('s')).result, 'second-two');
    const row = (await h.rows('s')).find((r) => r.name === 'nested')!;
    assert.equal(row.engineId, null);
    const parentRuns = [...claims].filter(([key]) => key.startsWith(`${top.id}/`)).flatMap(([, v]) => v);
    assert.ok(parentRuns.length <= 8, `the parent's units ran ${parentRuns.length} times`);

    // The same, with the child's template unchanged: the new traversal takes the wait over.
    await h.update('s', parent('third', { wait: 60 }), { files: FILES });
    await h.rounds(3);
    await h.update('s', parent('third', { wait: 60 }).replace('outputs:', 'outputs:\n  x: {value: 1}'), {
      files: FILES,
    });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['third', 'third-two', 'third-two']);
  });

  it('stack check checks the child stack’s resources; the template resource reports its verdict', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    const top = await h.stack('s');
    const [child] = await children(h, top.id);
    const objects = (await h.live()).length;
    await checkStack(h.deps, h.engine.cache, top.id);
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_COMPLETE');
    const [checked] = await children(h, top.id);
    assert.equal(`${checked!.action}_${checked!.status}`, 'CHECK_COMPLETE');
    const childRows = await h.deps.store.tx((tx) => tx.resources.listActive(child!.id));
    assert.deepEqual(childRows.map((r) => `${r.name} ${r.action}_${r.status} ${r.reason}`).sort(), [
      'first CHECK_COMPLETE state changed',
      'second CHECK_COMPLETE state changed',
    ]);
    const rows = new Map((await h.rows('s')).map((r) => [r.name, r]));
    assert.equal(`${rows.get('nested')!.action}_${rows.get('nested')!.status}`, 'CHECK_COMPLETE');
    assert.equal(rows.get('nested')!.reason, 'state changed');
    assert.equal(rows.get('nested')!.progress, null);
    assert.equal(rows.get('nested')!.engineId, null);
    assert.equal(`${rows.get('after')!.action}_${rows.get('after')!.status}`, 'CHECK_COMPLETE');
    assert.equal((await h.live()).length, objects, 'reality untouched');
    // The stack can still be updated afterwards.
    await h.update('s', parent('two'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['two', 'two-two', 'two-two']);
  });

  it('a resource gone inside the child fails the check of the template resource, naming it', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    const top = await h.stack('s');
    const [child] = await children(h, top.id);
    const first = (await h.deps.store.tx((tx) => tx.resources.listActive(child!.id))).find(
      (r) => r.name === 'first',
    )!;
    assert.ok(await h.reality.delete(T, first.physicalId!));
    await checkStack(h.deps, h.engine.cache, top.id);
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_FAILED');
    const stack = await h.stack('s');
    assert.match(stack.reason, /nested: .*first/);
    const [checked] = await children(h, top.id);
    assert.equal(`${checked!.action}_${checked!.status}`, 'CHECK_FAILED');
    const rows = new Map((await h.rows('s')).map((r) => [r.name, r]));
    assert.equal(`${rows.get('nested')!.action}_${rows.get('nested')!.status}`, 'CHECK_FAILED');
    assert.equal(
      `${rows.get('after')!.action}_${rows.get('after')!.status}`,
      'CREATE_COMPLETE',
      'what depends on the failed resource is skipped',
    );
  });

  it('an update issued while the child is being checked waits for that check, then converges', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    const top = await h.stack('s');
    await checkStack(h.deps, h.engine.cache, top.id);
    await h.round(); // the nested node locks its row and starts the child's check
    const row = (await h.rows('s')).find((r) => r.name === 'nested')!;
    assert.equal(`${row.action}_${row.status}`, 'CHECK_IN_PROGRESS');
    await h.update('s', parent('two'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['two', 'two-two', 'two-two']);
    assert.ok((await h.rows('s')).every((r) => r.engineId === null && r.status === 'COMPLETE'));
  });

  it('cancelling the parent cancels its running child: in-flight work finishes, the rest never starts', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one', { wait: 60 }), { files: FILES });
    await h.rounds(3);
    const top = await h.stack('s');
    const [running] = await children(h, top.id);
    assert.equal(`${running!.action}_${running!.status}`, 'CREATE_IN_PROGRESS');
    await cancelStack(h.deps, top.id, { rollback: false });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    const [child] = await children(h, top.id);
    assert.equal(`${child!.action}_${child!.status}`, 'CREATE_FAILED');
    assert.equal(child!.reason, 'Stack CREATE cancelled');
    const childRows = await h.deps.store.tx((tx) => tx.resources.listActive(child!.id));
    const state = Object.fromEntries(childRows.map((r) => [r.name, `${r.action}_${r.status}`]));
    assert.deepEqual(state, { first: 'CREATE_COMPLETE', second: 'INIT_COMPLETE' });
    assert.ok(
      childRows.every((r) => r.engineId === null),
      'no lock is left behind',
    );
    // The stack can be updated to the end afterwards.
    await h.update('s', parent('two'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['two', 'two-two', 'two-two']);
  });

  it('cancelling a parent update with rollback brings the child back too', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'), { files: FILES });
    await h.settle();
    await h.update('s', parent('two', { wait: 60 }), { files: FILES });
    await h.rounds(3);
    await cancelStack(h.deps, (await h.stack('s')).id, { rollback: true });
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(await values(h), ['one', 'one-two', 'one-two']);
  });

  it('a delete issued while the child create runs removes everything', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one', { wait: 60 }), { files: FILES });
    await h.rounds(3);
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
    const [child] = await children(h, (await h.stack('s')).id);
    assert.equal(`${child!.action}_${child!.status}`, 'DELETE_COMPLETE');
  });

  it('a resource whose type changes between a plugin and a template is replaced', async () => {
    const h = await Harness.create();
    const tpl = (type: string, value: string) =>
      `heat_template_version: 2018-08-31\nresources:\n  thing: {type: ${type}, properties: {value: ${value}}}\n`;
    await h.create('s', tpl(T, 'plain'), { files: FILES });
    await h.settle();
    await h.update('s', tpl('nested.yaml', 'deep'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['deep', 'deep-two'], 'the plain TestResource was deleted');
    const top = await h.stack('s');
    const [child] = await children(h, top.id);
    const rows = await h.rows('s');
    assert.deepEqual(
      rows.map((r) => [r.name, r.type, r.physicalId]),
      [['thing', 'nested.yaml', child!.id]],
    );

    await h.update('s', tpl(T, 'plain-again'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await values(h), ['plain-again']);
    assert.equal((await children(h, top.id))[0]!.status, 'COMPLETE');
    assert.equal((await children(h, top.id))[0]!.action, 'DELETE');
  });

  it('the nested template is validated with the real property values when the child starts', async () => {
    const h = await Harness.create();
    const constrained = NESTED.replace(
      'value: {type: string}',
      'value: {type: string, constraints: [{allowed_pattern: "[a-z]+"}]}',
    );
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  src: {type: ${T}, properties: {value: BAD}}
  nested: {type: nested.yaml, properties: {value: {get_attr: [src, output]}}}
`,
      { files: { 'nested.yaml': constrained } },
    );
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    const row = (await h.rows('s')).find((r) => r.name === 'nested')!;
    assert.match(row.reason, /allowed_pattern|pattern/i);
  });
});
