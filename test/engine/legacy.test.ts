import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OperationError } from '../../src/engine/core/errors.js';
import { legacyKey } from '../../src/engine/legacy/begin.js';
import { currentRows } from '../../src/engine/core/rows.js';
import { Harness } from './harness.js';

const MEMBER = `
heat_template_version: 2018-08-31
parameters:
  idx: {type: string}
resources:
  s: {type: OS::Heat::RandomString, properties: {length: 6}}
outputs:
  name: {value: {list_join: ['-', [m, {get_param: idx}, {get_attr: [s, value]}]]}}
`;

const template = (value: string, count = 2) => `
heat_template_version: 2018-08-31
resources:
  t1:
    type: OS::Heat::TestResource
    properties: {value: ${value}}
  rs: {type: OS::Heat::RandomString, properties: {length: 10}}
  grp:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}
      resource_def: {type: OS::Heat::TestResource, properties: {value: {get_attr: [t1, output]}}}
  tmplres:
    type: member.yaml
    properties: {idx: {get_attr: [t1, output]}}
outputs:
  out: {value: {get_attr: [t1, output]}}
  member: {value: {get_attr: [tmplres, name]}}
  size: {value: {get_attr: [grp, refs]}}
`;

async function legacyHarness(): Promise<Harness> {
  return Harness.create({ legacy: true });
}

describe('legacy engine mode', () => {
  it('creates, updates and deletes a stack with nested stacks in one walk under the stack lock', async () => {
    const h = await legacyHarness();
    const files = { 'member.yaml': MEMBER };
    const created = await h.create('web', template('one'), { files });
    assert.equal(created.convergence, false);
    assert.equal(`${created.action}_${created.status}`, 'CREATE_IN_PROGRESS');
    await h.settle();
    const stack = await h.stack('web');
    assert.equal(`${stack.action}_${stack.status}`, 'CREATE_COMPLETE', stack.reason);
    const outputs = await h.outputs('web');
    assert.equal(outputs.out, 'one');
    assert.match(String(outputs.member), /^m-one-[A-Za-z0-9]{6}$/);
    assert.equal((outputs.size as unknown[]).length, 2);
    const children = await h.deps.store.tx((tx) => tx.stacks.children(stack.id));
    assert.equal(children.length, 2);
    assert.ok(children.every((c) => !c.convergence && c.status === 'COMPLETE'));
    // No graph is persisted: no traversal, rows record no requires, the lock is gone.
    const rows = await h.rows('web');
    assert.ok(rows.every((r) => r.requires.length === 0));
    assert.equal(await h.deps.store.tx((tx) => tx.stackLocks.get(stack.id)), undefined);
    const rsValue = rows.find((r) => r.name === 'rs')!.data.value;

    await h.update('web', template('two', 3), { files });
    await h.settle();
    const updated = await h.stack('web');
    assert.equal(`${updated.action}_${updated.status}`, 'UPDATE_COMPLETE', updated.reason);
    const after = await h.outputs('web');
    assert.equal(after.out, 'two');
    assert.match(String(after.member), /^m-two-/);
    assert.equal((after.size as unknown[]).length, 3);
    assert.equal((await h.rows('web')).find((r) => r.name === 'rs')!.data.value, rsValue, 'rs left alone');

    await h.delete('web');
    await h.settle();
    const deleted = await h.stack('web');
    assert.equal(`${deleted.action}_${deleted.status}`, 'DELETE_COMPLETE', deleted.reason);
    assert.deepEqual(
      (await h.live()).filter((o) => o.status !== 'DELETED'),
      [],
      'every physical resource is gone',
    );
    const kids = await h.deps.store.tx((tx) => tx.stacks.children(stack.id));
    assert.ok(kids.every((c) => c.deletedAt !== null));
  });

  it('a delete keeps Retain resources, as a convergence cleanup does', async () => {
    const h = await legacyHarness();
    await h.create(
      'keep',
      `
heat_template_version: 2018-08-31
resources:
  kept: {type: OS::Heat::TestResource, deletion_policy: Retain, properties: {value: kept}}
  gone: {type: OS::Heat::TestResource, properties: {value: gone}}
`,
    );
    await h.settle();
    const ids = Object.fromEntries((await h.rows('keep')).map((r) => [r.name, r.physicalId]));
    await h.delete('keep');
    await h.settle();
    assert.equal((await h.stack('keep')).status, 'COMPLETE');
    const live = (await h.live()).filter((o) => o.status !== 'DELETED').map((o) => o.id);
    assert.deepEqual(live, [ids.kept]);
  });

  it('refuses a second operation while one runs, with the action in progress', async () => {
    const h = await legacyHarness();
    await h.create('web', template('one'), { files: { 'member.yaml': MEMBER } });
    await assert.rejects(
      () => h.update('web', template('two'), { files: { 'member.yaml': MEMBER } }),
      (err: unknown) =>
        err instanceof OperationError &&
        err.code === 'conflict' &&
        /already has an action \(CREATE\) in progress/.test(err.message),
    );
    await assert.rejects(() => h.delete('web'), /already has an action \(CREATE\) in progress/);
    await h.settle();
    assert.equal((await h.stack('web')).status, 'COMPLETE');
  });

  it('rolls a failed create back when rollback is enabled', async () => {
    const h = await legacyHarness();
    const bad = `
heat_template_version: 2018-08-31
resources:
  a: {type: OS::Heat::TestResource, properties: {value: a}}
  b: {type: OS::Heat::TestResource, properties: {value: b, fail: true}, depends_on: a}
`;
    await h.create('bad', bad, { rollback: true });
    await h.settle();
    const stack = await h.stack('bad');
    assert.equal(`${stack.action}_${stack.status}`, 'ROLLBACK_COMPLETE', stack.reason);
    assert.deepEqual(
      (await h.live()).filter((o) => o.status !== 'DELETED'),
      [],
      'what the create made is deleted',
    );
  });

  it('steals the lock of a dead engine and resumes; waits behind a live one', async () => {
    const h = await legacyHarness();
    const created = await h.create('web', template('one'), { files: { 'member.yaml': MEMBER } });
    // A live engine holds the lock: the unit waits.
    await h.deps.store.tx(async (tx) => {
      await tx.services.heartbeat({
        engineId: 'other',
        host: 'elsewhere',
        pid: 1,
        startedAt: 0,
        heartbeatAt: h.clock.t,
      });
      await tx.stackLocks.acquire(created.id, 'other', h.clock.t);
    });
    await h.round();
    await h.engine.worker.walksEnded();
    assert.equal((await h.stack('web')).status, 'IN_PROGRESS');
    assert.equal((await h.deps.store.tx((tx) => tx.stackLocks.get(created.id)))?.engineId, 'other');
    const [queued] = await h.deps.store.tx((tx) => tx.work.listForTraversal(legacyKey(created.id)));
    assert.ok(queued && queued.runAt > h.clock.t, 'the unit looks again later');
    // Its heartbeat stops: the lock is stolen and the create resumed.
    h.clock.t += 60_000;
    await h.settle();
    const stack = await h.stack('web');
    assert.equal(`${stack.action}_${stack.status}`, 'CREATE_COMPLETE', stack.reason);
    const events = await h.deps.store.tx((tx) => tx.events.list(created.id));
    assert.ok(events.some((e) => /Engine other went away during stack CREATE/.test(e.reason)));
    assert.equal(currentRows(await h.rows('web')).length, 4);
  });
});
