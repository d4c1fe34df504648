import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../src/engine/engine.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { P } from '../../src/template/properties/index.js';
import { Harness } from './harness.js';

// An engine that stalls (a long GC pause, a frozen VM, a network partition) is presumed dead once
// its heartbeat is stale; another engine takes its units over. When the stalled one comes back, it
// must not corrupt anything: its claims are gone, so nothing it tries to record is kept.

const GATED = 'Test::Gated';

/** A type whose first create stops at a gate the test opens; it makes its object by idempotency key. */
function gatedPlugin(gate: { wait?: Promise<void>; entered?: () => void }): ResourcePlugin {
  return {
    type: GATED,
    description: 'Creates an object, the first time only after the test opens a gate (tests only).',
    properties: { value: P.string() },
    attributes: {},
    create: async (ctx) => {
      const waiting = gate.wait;
      gate.wait = undefined;
      if (waiting) {
        gate.entered?.();
        await waiting;
      }
      const existing = await ctx.reality.findByKey(GATED, ctx.idempotencyKey);
      const id = existing?.id ?? `gated-${ctx.idempotencyKey}`;
      if (!existing)
        await ctx.reality.put({ type: GATED, id, key: ctx.idempotencyKey, status: 'ACTIVE', properties: {} });
      return { physicalId: id };
    },
    update: async () => ({}),
    delete: async (ctx) => {
      if (ctx.physicalId) await ctx.reality.delete(GATED, ctx.physicalId);
      return {};
    },
    getReality: async () => ({ state: 'present', properties: {} }),
    attribute: async () => null,
  };
}

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  server: {type: ${GATED}, properties: {value: one}}
  after: {type: OS::Heat::TestResource, properties: {value: {get_resource: server}}}
`;

describe('an engine presumed dead comes back', () => {
  it('its units are taken over at its heartbeat timeout, and what it records afterwards is fenced off', async () => {
    let open!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const gate: { wait?: Promise<void>; entered?: () => void } = {
      wait: new Promise<void>((resolve) => (open = resolve)),
      entered,
    };
    const h = await Harness.create({ plugins: [gatedPlugin(gate)] });
    const logs: string[] = [];
    const stalled = h.engine;
    await h.create('s', TEMPLATE);
    // The first engine claims the create and stalls inside the plugin call.
    const running = stalled.worker.runDue();
    await inside;

    // Another engine, alive: it reaps the stalled one once its heartbeat is older than the limit.
    const rescuer = new Engine({ ...h.deps, engineId: 'engine-2' }, (m) => logs.push(m));
    await rescuer.heartbeat(true);
    assert.equal(await rescuer.worker.runDue(), 0, 'the stalled engine still holds its unit');
    h.clock.t += h.deps.settings.engineDeadAfterMs + 1;
    await rescuer.heartbeat(true);
    assert.ok(logs.some((m) => m.includes('engine-1 is gone')));
    for (let i = 0; i < 20 && (await h.status('s')) !== 'CREATE_COMPLETE'; i++) {
      if ((await rescuer.worker.runDue()) === 0)
        h.clock.t = Math.max(h.clock.t, (await h.deps.store.nextWorkTime()) ?? h.clock.t);
    }
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const before = await h.rows('s');

    // The stalled engine wakes up and finishes its unit: nothing it records is kept.
    open();
    await running;
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.rows('s'), before, 'the rows are as the rescuer left them');
    const objects = h.reality.list().filter((o) => o.type === GATED);
    assert.equal(objects.length, 1, 'one physical object: the same idempotency key was used');
    assert.equal(before.find((r) => r.name === 'server')?.physicalId, objects[0]!.id);
    assert.equal(await h.deps.store.nextWorkTime(), undefined, 'no work left behind');
  });
});
