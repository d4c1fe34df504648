import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { signalWaitKey } from '../../src/engine/context/peers.js';
import { signalError, signalResource } from '../../src/engine/operations/signal.js';
import type { ResourceRecord, WorkItem } from '../../src/store/contract.js';
import type { JsonObject } from '../../src/util/json.js';
import { Harness } from './harness.js';

const TEMPLATE = ({ count = 1, timeout = 600, dependsOn = '' } = {}) => `heat_template_version: 2018-08-31
resources:
  handle: {type: OS::Heat::WaitConditionHandle}
  ${dependsOn ? `${dependsOn}: {type: OS::Heat::TestResource, properties: {wait_secs: 30}}` : ''}
  wc:
    type: OS::Heat::WaitCondition
    ${dependsOn ? `depends_on: ${dependsOn}` : ''}
    properties: {handle: {get_resource: handle}, count: ${count}, timeout: ${timeout}}
  after: {type: OS::Heat::Value, properties: {value: {get_attr: [wc, data]}}}
outputs:
  data: {value: {get_attr: [wc, data]}}
  after: {value: {get_attr: [after, value]}}
  signal: {value: {get_attr: [handle, signal]}}
  curl_cli: {value: {get_attr: [handle, curl_cli]}}
`;

interface Setup {
  h: Harness;
  stackId: string;
  /** Signals the handle and runs what is due now (the signal, and what it wakes), the clock standing still. */
  signal(details: JsonObject | null): Promise<string>;
}

async function setup(options: Parameters<typeof TEMPLATE>[0] = {}): Promise<Setup> {
  const h = await Harness.create();
  await h.create('s', TEMPLATE(options));
  const stackId = (await findStack(h.deps, 'p', 's')).id;
  await runDueNow(h);
  const signal = async (details: JsonObject | null) => {
    const id = await signalResource(h.deps, stackId, 'handle', details);
    await runDueNow(h);
    return id;
  };
  return { h, stackId, signal };
}

/** Runs what is due without moving the clock: a wait is only ended by what wakes it. */
async function runDueNow(h: Harness): Promise<void> {
  while ((await h.engine.worker.runDue(10_000)) > 0);
}

async function row(h: Harness, name: string): Promise<ResourceRecord> {
  return (await h.rows('s')).find((r) => r.name === name)!;
}

async function state(h: Harness, name: string): Promise<string> {
  const r = await row(h, name);
  return `${r.action}_${r.status}`;
}

async function conditionUnit(h: Harness): Promise<WorkItem | undefined> {
  const stack = await h.stack('s');
  const wc = await row(h, 'wc');
  const items = await h.deps.store.tx((tx) => tx.work.listForTraversal(stack.traversalId));
  return items.find((i) => i.node === `u:${wc.id}`);
}

describe('OS::Heat::WaitCondition and WaitConditionHandle', () => {
  it('waits parked on the handle, woken by each signal, until `count` signals arrived', async () => {
    const { h, stackId, signal } = await setup({ count: 2 });
    const start = h.clock.t;
    assert.equal(await state(h, 'wc'), 'CREATE_IN_PROGRESS');
    const parked = await conditionUnit(h);
    assert.equal(parked?.waitingFor, signalWaitKey(stackId, 'handle'));
    assert.equal(parked?.runAt, start + 60_000, 'not polled meanwhile');

    await signal({ data: 'one' });
    assert.equal(await state(h, 'wc'), 'CREATE_IN_PROGRESS', 'one of two');
    assert.equal((await conditionUnit(h))?.runAt, start + 60_000, 'parked again after looking');

    await signal(null);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal(h.clock.t, start, 'the signals woke it: no poll interval passed');
    const outputs = await h.outputs('s');
    assert.equal(outputs.data, '{"1": "one", "2": null}');
    assert.equal(outputs.after, outputs.data, "dependents get the condition's data");
  });

  it("a FAILURE signal fails the condition at once with the failures' reasons", async () => {
    const { h, signal } = await setup({ count: 3 });
    await signal({ status: 'SUCCESS', reason: 'fine' });
    await signal({ status: 'FAILURE', reason: 'disk full' });
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    const wc = await row(h, 'wc');
    assert.equal(`${wc.action}_${wc.status}`, 'CREATE_FAILED');
    assert.equal(wc.reason, 'WaitConditionFailure: resources.wc: disk full');
    assert.equal(
      (await h.stack('s')).reason,
      'Resource CREATE failed: WaitConditionFailure: resources.wc: disk full',
    );
    assert.equal(await state(h, 'after'), 'INIT_COMPLETE', 'its dependents never start');
  });

  it("times out with Heat's message, naming the signals received", async () => {
    const { h, signal } = await setup({ count: 2, timeout: 30 });
    await signal({ reason: 'first' });
    await h.settle(); // the clock jumps to the deadline
    const wc = await row(h, 'wc');
    assert.equal(wc.reason, 'WaitConditionTimeout: resources.wc: 1 of 2 received - first');
    assert.equal(await h.status('s'), 'CREATE_FAILED');

    const none = await setup({ timeout: 5 });
    await none.h.settle();
    assert.equal((await row(none.h, 'wc')).reason, 'WaitConditionTimeout: resources.wc: 0 of 1 received');
  });

  it('counts the signals the handle received before the condition started', async () => {
    const { h, signal } = await setup({ count: 2, dependsOn: 'slow' });
    assert.equal(await state(h, 'handle'), 'CREATE_COMPLETE');
    assert.equal(await state(h, 'slow'), 'CREATE_IN_PROGRESS');
    await signal({ id: 'a', data: 'A' });
    await signal({ id: 'b', data: 'B' });
    assert.equal(await state(h, 'wc'), 'INIT_COMPLETE', 'not started yet');
    h.clock.t += 30_000; // slow is done; the condition starts and finds both signals
    await runDueNow(h);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal((await h.outputs('s')).data, '{"a": "A", "b": "B"}');
  });

  it("keeps signals by id in arrival order (a repeated id replaces its entry), as Heat's data", async () => {
    const { h, signal } = await setup({ count: 4 });
    await signal({ data: 'd1' });
    await signal({ id: 'b', data: { x: [1, 'y'] } });
    await signal({ id: 'b', data: 'b2' });
    await signal({ id: 10, data: 'ten' });
    assert.equal(await state(h, 'wc'), 'CREATE_IN_PROGRESS', 'three distinct ids of four');
    await signal({ id: 'a', status: 'SUCCESS', reason: 'last', data: null });
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal((await h.outputs('s')).data, '{"1": "d1", "b": "b2", "10": "ten", "a": null}');
    const handle = await row(h, 'handle');
    assert.deepEqual(
      (handle.data.signals as JsonObject[]).map((s) => [s.id, s.status, s.reason]),
      [
        ['1', 'SUCCESS', 'Signal 1 received'],
        ['b', 'SUCCESS', 'Signal 3 received'],
        ['10', 'SUCCESS', 'Signal 3 received'],
        ['a', 'SUCCESS', 'last'],
      ],
    );
    const events = await h.deps.store.tx((tx) => tx.events.list(handle.stackId, { resourceName: 'handle' }));
    assert.deepEqual(
      events.filter((e) => e.action === 'SIGNAL').map((e) => e.reason),
      [
        'Signal: status:SUCCESS reason:Signal 1 received',
        'Signal: status:SUCCESS reason:Signal 2 received',
        'Signal: status:SUCCESS reason:Signal 3 received',
        'Signal: status:SUCCESS reason:Signal 3 received',
        'Signal: status:SUCCESS reason:last',
      ],
    );
  });

  it('signals sent together are handled in turn, with distinct sequence numbers in order', async () => {
    const { h, stackId } = await setup({ count: 3 });
    for (let i = 0; i < 3; i++) await signalResource(h.deps, stackId, 'handle', null);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal((await h.outputs('s')).data, '{"1": null, "2": null, "3": null}');
  });

  it("refuses a signal with another status or an unknown key (Heat's message), keeping nothing", async () => {
    const { h, stackId, signal } = await setup();
    const bad = await signal({ status: 'DONE' });
    assert.equal(await signalError(h.deps, stackId, 'handle', bad), 'Signal failed: Metadata format invalid');
    const extra = await signal({ status: 'SUCCESS', colour: 'red' });
    assert.equal(
      await signalError(h.deps, stackId, 'handle', extra),
      'Signal failed: Metadata format invalid',
    );
    assert.equal((await row(h, 'handle')).data.signals, undefined);
    assert.equal(await state(h, 'wc'), 'CREATE_IN_PROGRESS');
  });

  it('handle attributes: no token, endpoint or curl command without signal credentials; `signal` names it', async () => {
    const { h, stackId, signal } = await setup();
    await signal(null);
    const outputs = await h.outputs('s');
    assert.equal(outputs.curl_cli, null);
    assert.equal(outputs.signal, `{"stack_id": "${stackId}", "resource_name": "handle"}`);
    const handle = await row(h, 'handle');
    assert.deepEqual([handle.attributes.token, handle.attributes.endpoint], [null, null]);
  });

  it('a handle that is not a wait condition handle fails the condition', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  other: {type: OS::Heat::None}
  wc: {type: OS::Heat::WaitCondition, properties: {handle: {get_resource: other}, timeout: 10}}
`,
    );
    await h.settle();
    const wc = (await h.rows('s')).find((r) => r.name === 'wc')!;
    assert.equal(wc.reason, 'Error: resources.wc: other is not a valid wait condition handle.');
  });

  it('an update of `count` waits again, counting the signals received so far', async () => {
    const { h, signal } = await setup();
    await signal({ data: 'x' });
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    await h.update('s', TEMPLATE({ count: 2 }));
    await runDueNow(h);
    assert.equal(await state(h, 'wc'), 'UPDATE_IN_PROGRESS');
    await signal({ data: 'y' });
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await h.outputs('s')).after, '{"1": "x", "2": "y"}');
  });
});
