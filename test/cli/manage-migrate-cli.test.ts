import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StackRecord, Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { legacyShape, snapshot } from '../engine/legacy-shape.js';
import { outputValues, T, Workdir } from './workdir.js';

// `hearth manage migrate-convergence STACK | --all` through the real command, on a SQLite state
// file: stacks are made by `stack create`, turned into legacy stacks through the store
// (legacy-shape.ts), migrated, then run by the convergence engine.

const CHILD = `heat_template_version: 2018-08-31
parameters:
  value: {type: string}
resources:
  first: {type: ${T}, properties: {value: {get_param: value}}}
  second: {type: ${T}, properties: {value: {list_join: ['-', [{get_attr: [first, output]}, child]]}}}
outputs:
  out: {value: {get_attr: [second, output]}}
`;

const PARENT = `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: one}
resources:
  nested: {type: child.yaml, properties: {value: {get_param: word}}}
  after: {type: ${T}, properties: {value: {get_attr: [nested, out]}}}
outputs:
  after: {value: {get_attr: [after, output]}}
`;

async function withStore<T>(w: Workdir, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(w.db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Creates stack `name` (a template resource and a resource after it) and makes it a legacy stack. */
async function legacyStack(w: Workdir, name: string): Promise<StackRecord> {
  await w.ok(['stack', 'create', name, '-t', 'parent.yaml', '--wait']);
  const id = (await w.show(name)).id;
  return withStore(w, async (store) => {
    await legacyShape(store, id);
    return (await store.tx((tx) => tx.stacks.get(id)))!;
  });
}

async function convergence(w: Workdir, id: string): Promise<boolean[]> {
  return withStore(w, async (store) => (await snapshot(store, id)).stacks.map((s) => s.convergence));
}

async function setStatus(w: Workdir, id: string, changes: Partial<StackRecord>): Promise<void> {
  await withStore(w, (store) => store.tx((tx) => tx.stacks.update(id, null, changes)));
}

describe('hearth manage migrate-convergence', { concurrency: true }, () => {
  it('migrates a legacy stack named by name, says so when run again, and the stack then updates and deletes', async () => {
    const w = new Workdir({ 'parent.yaml': PARENT, 'child.yaml': CHILD });
    const stack = await legacyStack(w, 's');
    assert.deepEqual(await convergence(w, stack.id), [false, false]);

    const out = await w.ok(['manage', 'migrate-convergence', 's']);
    assert.equal(
      out,
      `stack "s" (${stack.id}) migrated to the convergence engine (2 stack(s), 4 resource(s))\n`,
    );
    assert.deepEqual(await convergence(w, stack.id), [true, true]);
    const again = await w.ok(['manage', 'migrate-convergence', stack.id]);
    assert.equal(
      again,
      `stack "s" (${stack.id}) already runs under the convergence engine: nothing changed\n`,
    );

    await w.ok(['stack', 'update', 's', '-t', 'parent.yaml', '--parameter', 'word=two', '--wait']);
    const shown = await w.show('s');
    assert.equal(shown.stack_status, 'UPDATE_COMPLETE');
    assert.deepEqual(outputValues(shown), { after: 'two-child' });
    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    const gone = await w.run(['stack', 'show', 's']);
    assert.equal(gone.code, 1);
  });

  it('leaves a stack with an operation running alone: exit code 1, run it again once it ends', async () => {
    const w = new Workdir({ 'parent.yaml': PARENT, 'child.yaml': CHILD });
    const stack = await legacyStack(w, 'busy');
    await setStatus(w, stack.id, { action: 'UPDATE', status: 'IN_PROGRESS' });
    const r = await w.run(['manage', 'migrate-convergence', stack.id]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /stack "busy" \([0-9a-f-]+\) was not migrated: it is UPDATE_IN_PROGRESS; run it again once that operation ends/,
    );
    assert.deepEqual(await convergence(w, stack.id), [false, false]);

    const missing = await w.run(['manage', 'migrate-convergence', 'nope']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /stack "nope" not found/);
    for (const args of [[], ['busy', '--all']]) {
      const wrong = await w.run(['manage', 'migrate-convergence', ...args]);
      assert.equal(wrong.code, 1, args.join(' '));
      assert.match(wrong.stderr, /give either a stack \(id or name\) or --all/);
    }
  });

  it('--all migrates every legacy stack and prints the counts', async () => {
    const w = new Workdir({ 'parent.yaml': PARENT, 'child.yaml': CHILD });
    const a = await legacyStack(w, 'a');
    const busy = await legacyStack(w, 'b');
    await setStatus(w, busy.id, { action: 'UPDATE', status: 'IN_PROGRESS' });
    await w.ok(['stack', 'create', 'c', '-t', 'parent.yaml', '--wait']);

    const out = await w.ok(['manage', 'migrate-convergence', '--all']);
    const lines = out.trimEnd().split('\n');
    assert.deepEqual(lines, [
      `stack "a" (${a.id}) migrated to the convergence engine (2 stack(s), 4 resource(s))`,
      `stack "b" (${busy.id}) was not migrated: it is UPDATE_IN_PROGRESS; run it again once that operation ends`,
      'migrated: 1, skipped because in progress: 1, skipped because failed: 0, already convergence: 1, errors: 0',
    ]);
    assert.deepEqual(await convergence(w, a.id), [true, true]);
    assert.deepEqual(await convergence(w, busy.id), [false, false]);

    await setStatus(w, busy.id, { status: 'COMPLETE' });
    const second = await w.ok(['manage', 'migrate-convergence', '--all']);
    assert.match(
      second,
      /migrated: 1, skipped because in progress: 0, skipped because failed: 0, already convergence: 2/,
    );
    assert.deepEqual(await convergence(w, busy.id), [true, true]);
  });
});
