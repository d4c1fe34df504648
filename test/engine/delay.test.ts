import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Harness } from './harness.js';

// OS::Heat::Delay waits by persisted polling: its action stores a deadline as the row's progress,
// and its unit of work is rescheduled until then (never a worker asleep).

const HOT = 'heat_template_version: 2018-08-31';
const T = 'OS::Heat::TestResource';

const DELAYED = `${HOT}
resources:
  delay: {type: OS::Heat::Delay, properties: {min_wait: 30, actions: [CREATE, DELETE]}}
  after: {type: ${T}, depends_on: delay, properties: {value: after}}
`;

const QUICK = `${HOT}
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
`;

async function deadlineOf(h: Harness, stack: string): Promise<number | undefined> {
  const row = (await h.rows(stack)).find((r) => r.name === 'delay')!;
  const progress = row.progress as { state?: { deadline?: number }; deadline?: number } | null;
  return progress?.state?.deadline ?? progress?.deadline;
}

describe('OS::Heat::Delay', () => {
  it('holds its dependents for min_wait while another stack progresses; a re-run keeps the deadline', async () => {
    const h = await Harness.create();
    const start = h.clock.t;
    await h.create('slow', DELAYED);
    await h.create('quick', QUICK);
    while ((await h.engine.worker.runDue(10_000)) > 0); // what is due now, without moving the clock
    // Nothing waits in a worker: the other stack completed at once, the clock has not moved.
    assert.equal(await h.status('quick'), 'CREATE_COMPLETE');
    assert.equal(h.clock.t, start);
    assert.equal(await h.status('slow'), 'CREATE_IN_PROGRESS');
    const deadline = await deadlineOf(h, 'slow');
    assert.equal(deadline, start + 30_000, 'the deadline is persisted with the row');

    // The unit runs again early (as after a crash and a takeover): it waits for the same deadline.
    h.clock.t = start + 10_000;
    const slow = await h.stack('slow');
    const woken = await h.deps.store.tx(async (tx) => {
      const [item] = await tx.work.listForTraversal(slow.traversalId);
      return tx.work.wake(slow.traversalId, item!.node, h.clock.t);
    });
    assert.equal(woken, 1);
    assert.equal(await h.engine.worker.runDue(10_000), 1);
    assert.equal(await deadlineOf(h, 'slow'), deadline);
    assert.equal(await h.status('slow'), 'CREATE_IN_PROGRESS');
    assert.equal((await h.rows('slow')).find((r) => r.name === 'after')!.status, 'COMPLETE');
    assert.equal((await h.rows('slow')).find((r) => r.name === 'after')!.action, 'INIT');

    await h.settle();
    assert.equal(await h.status('slow'), 'CREATE_COMPLETE');
    assert.ok(h.clock.t >= start + 30_000, 'the stack took at least min_wait');
    assert.ok(h.clock.t < start + 36_000, 'and not much more (polls follow the deadline)');
  });

  it('waits on DELETE when asked, and not on an action it is not given', async () => {
    const h = await Harness.create();
    await h.create('s', DELAYED);
    await h.settle();
    const deleting = h.clock.t;
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.ok(h.clock.t >= deleting + 30_000, 'DELETE is in actions: the delete waited');

    const start = h.clock.t;
    await h.create('d', DELAYED.replace('actions: [CREATE, DELETE]', 'actions: [DELETE]'));
    await h.settle();
    assert.equal(await h.status('d'), 'CREATE_COMPLETE');
    assert.equal(h.clock.t, start, 'CREATE is not in actions: no wait');
  });

  it('adds jitter up to max_jitter × jitter_multiplier; refuses an action Heat does not know', async () => {
    const h = await Harness.create();
    const start = h.clock.t;
    await h.create(
      's',
      `${HOT}\nresources:\n  delay: {type: OS::Heat::Delay, properties: {min_wait: 5, max_jitter: 2, jitter_multiplier: 10}}\n`,
    );
    await h.rounds(1);
    const deadline = (await deadlineOf(h, 's'))!;
    assert.ok(deadline > start + 5_000 && deadline <= start + 25_000, `${deadline - start} ms`);
    await h.settle();
    assert.ok(h.clock.t >= deadline);
    await assert.rejects(
      h.create(
        'bad',
        `${HOT}\nresources:\n  delay: {type: OS::Heat::Delay, properties: {actions: [UPDATE]}}\n`,
      ),
      /UPDATE/,
    );
  });
});
