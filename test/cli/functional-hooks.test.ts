import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJson, statuses, T, Workdir } from './workdir.js';

// Breakpoints set in the environment (Heat's functional test test_hooks): the operation stops
// before the hooked resource, says so in an event, and goes on once `stack hook clear` is sent
// from another process, while the first one (`--wait`) keeps running the engine.

const HOT = 'heat_template_version: 2018-08-31';
const STEPS = (value = 'a', replace = '1') => `${HOT}
resources:
  foo_step1: {type: ${T}, properties: {value: step1}}
  foo_step2:
    type: ${T}
    depends_on: foo_step1
    properties: {value: ${value}, update_replace_value: '${replace}'}
  foo_step3: {type: ${T}, depends_on: foo_step2, properties: {value: step3}}
`;
const hooked = (name: string, hook: string) => `resource_registry:
  resources:
    ${name}: {hooks: ${hook}}
`;

interface PollRow {
  resource_name: string;
  pending_hook: string;
}

async function poll(w: Workdir, stack: string): Promise<PollRow[]> {
  return parseJson<PollRow[]>((await w.ok(['stack', 'hook', 'poll', stack, '-f', 'json'])) || '[]');
}

/** Waits until `resource` waits at `hook`. */
async function pausedAt(w: Workdir, stack: string, resource: string, hook: string): Promise<void> {
  await w.until(`${resource} waits at ${hook}`, async () => {
    // The create may not have made the stack yet.
    const r = await w.run(['stack', 'hook', 'poll', stack, '-f', 'json']);
    if (r.code !== 0) return false;
    return parseJson<PollRow[]>(r.stdout).some(
      (row) => row.resource_name === resource && row.pending_hook === hook,
    );
  });
}

async function reasons(w: Workdir, stack: string, resource: string): Promise<string[]> {
  return (await w.events(stack))
    .filter((e) => e.resource_name === resource)
    .map((e) => e.resource_status_reason);
}

describe('functional: hooks', () => {
  it('test_hook_pre_create: the create stops before the resource until the hook is cleared', async () => {
    const w = new Workdir({ 't.yaml': STEPS(), 'env.yaml': hooked('foo_step2', 'pre-create') });
    const create = w.start(['stack', 'create', 's', '-t', 't.yaml', '-e', 'env.yaml', '--wait']);
    await pausedAt(w, 's', 'foo_step2', 'pre-create');
    const during = statuses(await w.resources('s'));
    assert.equal(during.foo_step1, 'CREATE_COMPLETE');
    assert.equal(during.foo_step2, 'INIT_COMPLETE', 'nothing was done to the hooked resource');
    assert.equal(during.foo_step3, 'INIT_COMPLETE');
    assert.equal(await w.status('s'), 'CREATE_IN_PROGRESS');
    assert.ok(
      (await reasons(w, 's', 'foo_step2')).includes('CREATE paused until Hook pre-create is cleared'),
    );

    await w.ok(['stack', 'hook', 'clear', 's', 'foo_step2', '--pre-create']);
    const done = await create.done;
    assert.equal(done.code, 0, done.stderr);
    assert.equal(await w.status('s'), 'CREATE_COMPLETE');
    assert.ok((await reasons(w, 's', 'foo_step2')).includes('Hook pre-create is cleared'));
    assert.deepEqual(await poll(w, 's'), []);
  });

  it('test_hook_pre_update: an in-place update and a replacement stop; an update changing nothing does not', async () => {
    const w = new Workdir({
      't.yaml': STEPS(),
      't2.yaml': STEPS('b'),
      't3.yaml': STEPS('b', '2'),
      'env.yaml': hooked('foo_step2', 'pre-update'),
    });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '-e', 'env.yaml', '--wait']);
    const before = (await w.ids('s')).foo_step2;
    // Nothing changes: no pause.
    await w.ok(['stack', 'update', 's', '-t', 't.yaml', '-e', 'env.yaml', '--wait']);

    const inPlace = w.start(['stack', 'update', 's', '-t', 't2.yaml', '-e', 'env.yaml', '--wait']);
    await pausedAt(w, 's', 'foo_step2', 'pre-update');
    assert.ok(
      (await reasons(w, 's', 'foo_step2')).includes('UPDATE paused until Hook pre-update is cleared'),
    );
    await w.ok(['stack', 'hook', 'clear', 's', 'foo_step2']);
    assert.equal((await inPlace.done).code, 0);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await w.ids('s')).foo_step2, before, 'updated in place');

    const replace = w.start(['stack', 'update', 's', '-t', 't3.yaml', '-e', 'env.yaml', '--wait']);
    await pausedAt(w, 's', 'foo_step2', 'pre-update');
    assert.equal((await w.ids('s')).foo_step2, before, 'no replacement before the hook is cleared');
    await w.ok(['stack', 'hook', 'clear', 's', 'foo_step2', '--pre-update']);
    assert.equal((await replace.done).code, 0);
    assert.notEqual((await w.ids('s')).foo_step2, before, 'replaced');
  });

  it('test_hook_pre_delete, with a wildcard: the delete stops before each matching resource', async () => {
    const w = new Workdir({ 't.yaml': STEPS(), 'env.yaml': hooked('foo_step[23]', 'pre-delete') });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '-e', 'env.yaml', '--wait']);
    const deleting = w.start(['stack', 'delete', 's', '--yes', '--wait']);
    await pausedAt(w, 's', 'foo_step3', 'pre-delete');
    assert.equal(statuses(await w.resources('s')).foo_step3, 'CREATE_COMPLETE');
    await w.ok(['stack', 'hook', 'clear', 's', 'foo_step3']);
    await pausedAt(w, 's', 'foo_step2', 'pre-delete');
    await w.ok(['stack', 'hook', 'clear', 's', 'foo_step2']);
    assert.equal((await deleting.done).code, 0);
    const gone = await w.run(['stack', 'show', 's']);
    assert.notEqual(gone.code, 0, 'the stack is deleted');
  });

  it('test_hook_pre_create_nested: a hook on a nested resource stops the child; cleared by its path', async () => {
    const w = new Workdir({
      't.yaml': `${HOT}
resources:
  nested: {type: nested.yaml}
  after: {type: ${T}, depends_on: nested}
`,
      'nested.yaml': `${HOT}
resources:
  inner: {type: ${T}, properties: {value: x}}
`,
      'env.yaml': `resource_registry:
  resources:
    nested:
      inner: {hooks: pre-create}
`,
    });
    const create = w.start(['stack', 'create', 's', '-t', 't.yaml', '-e', 'env.yaml', '--wait']);
    await pausedAt(w, 's', 'nested/inner', 'pre-create');
    const refused = await w.run(['stack', 'hook', 'clear', 's', 'after', '--pre-create']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /The "pre-create" hook is not defined on after/);
    await w.ok(['stack', 'hook', 'clear', 's', 'nested/inner']);
    assert.equal((await create.done).code, 0);
    assert.equal(await w.status('s'), 'CREATE_COMPLETE');
  });

  it('pre-update on a ResourceGroup: growing it in place stops until the hook is cleared; so does its delete', async () => {
    const group = (count: number) => `${HOT}
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}
      resource_def: {type: ${T}, properties: {value: x}}
`;
    const w = new Workdir({
      't1.yaml': group(1),
      't2.yaml': group(2),
      'env.yaml': hooked('group', 'pre-update'),
      'env-delete.yaml': hooked('group', 'pre-delete'),
    });
    await w.ok(['stack', 'create', 's', '-t', 't1.yaml', '-e', 'env.yaml', '--wait']);
    const child = (await w.ids('s')).group!;
    const grow = w.start(['stack', 'update', 's', '-t', 't2.yaml', '-e', 'env.yaml', '--wait']);
    await pausedAt(w, 's', 'group', 'pre-update');
    assert.ok((await reasons(w, 's', 'group')).includes('UPDATE paused until Hook pre-update is cleared'));
    assert.equal(await w.status('s'), 'UPDATE_IN_PROGRESS');
    assert.deepEqual(Object.keys(await w.ids(child)).sort(), ['0'], 'the group has not grown yet');
    await w.ok(['stack', 'hook', 'clear', 's', 'group', '--pre-update']);
    const done = await grow.done;
    assert.equal(done.code, 0, done.stderr);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await w.ids('s')).group, child, 'updated in place');
    assert.deepEqual(Object.keys(await w.ids(child)).sort(), ['0', '1']);

    await w.ok(['stack', 'update', 's', '-t', 't2.yaml', '-e', 'env-delete.yaml', '--wait']);
    const deleting = w.start(['stack', 'delete', 's', '--yes', '--wait']);
    await pausedAt(w, 's', 'group', 'pre-delete');
    assert.equal(statuses(await w.resources('s')).group, 'UPDATE_COMPLETE', 'the child is not deleted yet');
    await w.ok(['stack', 'hook', 'clear', 's', 'group']);
    assert.equal((await deleting.done).code, 0);
  });
});
