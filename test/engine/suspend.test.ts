import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { suspendOrResume } from '../../src/engine/operations/lifecycle.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { P } from '../../src/template/properties/index.js';
import { Harness } from './harness.js';

// Suspend / resume through the type's handlers: persisted polling of their completion checks,
// and a failing handler fails the resource and the stack.

const TYPE = 'Test::Suspendable';

class Probe {
  readonly calls: string[] = [];
  readonly plugin: ResourcePlugin = {
    type: TYPE,
    description: 'Counts suspends and resumes (tests only).',
    properties: { polls: P.integer({ default: 0 }), fail: P.boolean({ default: false }) },
    attributes: {},
    create: async (ctx) => ({ physicalId: `s-${ctx.idempotencyKey}` }),
    delete: async () => ({}),
    getReality: async () => ({ state: 'gone' }),
    attribute: async () => null,
    suspend: async (ctx) => {
      this.calls.push(`suspend ${ctx.resourceName}`);
      if (ctx.storedProperties?.fail) throw new Error('the backend refused');
      const polls = Number(ctx.storedProperties?.polls ?? 0);
      return polls > 0 ? { progress: { left: polls }, pollAfterMs: 1000 } : { data: { suspended: true } };
    },
    checkSuspendComplete: async (ctx, progress) => {
      this.calls.push(`poll ${ctx.resourceName}`);
      const left = (progress as { left: number }).left - 1;
      return left > 0 ? { done: false, progress: { left } } : { done: true, data: { suspended: true } };
    },
    resume: async (ctx) => {
      this.calls.push(`resume ${ctx.resourceName}`);
      return { data: { suspended: false } };
    },
  };
}

const TEMPLATE = (fail = false) => `heat_template_version: 2018-08-31
resources:
  slow: {type: ${TYPE}, properties: {polls: 2}}
  quick: {type: ${TYPE}, depends_on: slow, properties: {fail: ${fail}}}
`;

async function setup(fail = false) {
  const probe = new Probe();
  const h = await Harness.create({ plugins: [probe.plugin] });
  await h.create('s', TEMPLATE(fail));
  await h.settle();
  const stack = await findStack(h.deps, 'p', 's');
  return { h, probe, stack };
}

describe('suspend and resume handlers', () => {
  it('polls a handler that takes time, records its data, and resumes in dependency order', async () => {
    const { h, probe, stack } = await setup();
    await suspendOrResume(h.deps, stack.id, 'SUSPEND');
    await h.settle();
    assert.equal(await h.status('s'), 'SUSPEND_COMPLETE');
    assert.deepEqual(probe.calls, ['suspend quick', 'suspend slow', 'poll slow', 'poll slow']);
    for (const row of await h.rows('s')) {
      assert.equal(`${row.action}_${row.status}`, 'SUSPEND_COMPLETE');
      assert.equal(row.data.suspended, true);
      assert.equal(row.engineId, null, 'the lock is released');
    }

    probe.calls.length = 0;
    await suspendOrResume(h.deps, stack.id, 'RESUME');
    await h.settle();
    assert.equal(await h.status('s'), 'RESUME_COMPLETE');
    assert.deepEqual(probe.calls, ['resume slow', 'resume quick']);
    for (const row of await h.rows('s')) assert.equal(row.data.suspended, false);
  });

  it('a failing handler fails the resource and the stack (SUSPEND_FAILED), and nothing after it runs', async () => {
    const { h, probe, stack } = await setup(true);
    await suspendOrResume(h.deps, stack.id, 'SUSPEND');
    await h.settle();
    const shown = await h.stack('s');
    assert.equal(`${shown.action}_${shown.status}`, 'SUSPEND_FAILED');
    assert.equal(shown.reason, 'Resource SUSPEND failed: Exception: resources.quick: the backend refused');
    const rows = Object.fromEntries((await h.rows('s')).map((r) => [r.name, `${r.action}_${r.status}`]));
    assert.deepEqual(rows, { slow: 'CREATE_COMPLETE', quick: 'SUSPEND_FAILED' });
    assert.deepEqual(probe.calls, ['suspend quick']);
  });

  it('refuses while another operation runs', async () => {
    const { h, stack } = await setup();
    await h.update('s', TEMPLATE().replace('polls: 2', 'polls: 3'));
    await assert.rejects(suspendOrResume(h.deps, stack.id, 'SUSPEND'), /UPDATE_IN_PROGRESS/);
  });

  it('OS::Heat::Delay waits on SUSPEND and RESUME when they are listed (persisted polling)', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  pause: {type: OS::Heat::Delay, properties: {min_wait: 30, actions: [SUSPEND, RESUME]}}
`,
    );
    await h.settle();
    const stack = await findStack(h.deps, 'p', 's');
    for (const action of ['SUSPEND', 'RESUME'] as const) {
      const start = h.clock.now();
      await suspendOrResume(h.deps, stack.id, action);
      await h.rounds(3);
      assert.equal(await h.status('s'), `${action}_IN_PROGRESS`, 'still waiting, no worker blocked');
      await h.settle();
      assert.equal(await h.status('s'), `${action}_COMPLETE`);
      assert.ok(h.clock.now() - start >= 30_000, `${action} waited its 30 s`);
    }
  });
});
