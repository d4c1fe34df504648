import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import { signalError, signalResource, signalSettled } from '../../src/engine/operations/signal.js';
import { ClaimLostError, type EventRecord, type ResourceRecord } from '../../src/store/contract.js';
import type { JsonObject } from '../../src/util/json.js';
import { Harness } from './harness.js';
import { SIGNALLED, SignalProbe } from './signal-plugin.js';

const TEMPLATE = (properties = '{value: a}') => `heat_template_version: 2018-08-31
resources:
  r: {type: ${SIGNALLED}, properties: ${properties}}
  n: {type: OS::Heat::None}
`;

async function setup(properties?: string): Promise<{ h: Harness; probe: SignalProbe; stackId: string }> {
  const probe = new SignalProbe();
  const h = await Harness.create({ plugins: [probe.plugin] });
  await h.create('s', TEMPLATE(properties));
  await h.settle();
  return { h, probe, stackId: (await findStack(h.deps, 'p', 's')).id };
}

async function row(h: Harness, name = 'r'): Promise<ResourceRecord> {
  return (await h.rows('s')).find((r) => r.name === name)!;
}

async function events(h: Harness, stackId: string, name = 'r'): Promise<EventRecord[]> {
  return h.deps.store.tx((tx) => tx.events.list(stackId, { resourceName: name }));
}

async function signal(h: Harness, stackId: string, details: JsonObject | null): Promise<string> {
  const id = await signalResource(h.deps, stackId, 'r', details);
  await h.settle();
  return id;
}

describe('resource signals', () => {
  it("calls the handler once with the data; its change and the SIGNAL event commit with the unit's end", async () => {
    const { h, probe, stackId } = await setup();
    const id = await signalResource(h.deps, stackId, 'r', { say: 'hello', n: 1 });
    assert.equal(probe.calls.length, 0, 'queued, not handled in the request');
    assert.equal(await signalSettled(h.deps, id), false);

    await h.settle();
    assert.deepEqual(probe.calls, [{ signalId: id, details: { say: 'hello', n: 1 }, data: {} }]);
    assert.deepEqual((await row(h)).data.signals, [{ say: 'hello', n: 1 }]);
    const last = (await events(h, stackId)).at(-1)!;
    assert.deepEqual(
      [last.uuid, last.action, last.status, last.reason, last.resourceType],
      [id, 'SIGNAL', 'COMPLETE', 'Signal: hello', SIGNALLED],
    );
    assert.equal(await signalSettled(h.deps, id), true);
    assert.equal(await signalError(h.deps, stackId, 'r', id), undefined);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE', 'the stack is not touched');
  });

  it("words the event as Heat does when the handler says nothing (no data, an alarm's, other)", async () => {
    const { h, probe, stackId } = await setup();
    await signal(h, stackId, null);
    await signal(h, stackId, { previous: 'ok', current: 'alarm', reason: 'Transition to alarm' });
    await signal(h, stackId, {});
    assert.deepEqual(
      (await events(h, stackId)).slice(-3).map((e) => e.reason),
      ['No signal details provided', 'alarm state changed from ok to alarm (Transition to alarm)', 'Unknown'],
    );
    assert.equal(probe.calls.length, 3);
    assert.equal(((await row(h)).data.signals as unknown[]).length, 3, 'each handled on the data so far');
  });

  it('a failing handler is a SIGNAL_FAILED event and changes nothing; NoActionRequired records nothing', async () => {
    const { h, stackId } = await setup();
    const before = (await events(h, stackId)).length;
    const failed = await signal(h, stackId, { fail: true });
    const last = (await events(h, stackId)).at(-1)!;
    assert.deepEqual(
      [last.action, last.status, last.reason],
      ['SIGNAL', 'FAILED', 'Signal failed: cannot take it'],
    );
    assert.equal(await signalError(h.deps, stackId, 'r', failed), 'Signal failed: cannot take it');
    assert.equal((await row(h)).data.signals, undefined);

    const ignored = await signal(h, stackId, { ignore: true });
    assert.equal((await events(h, stackId)).length, before + 1);
    assert.equal(await signalError(h.deps, stackId, 'r', ignored), undefined);
    assert.equal((await row(h)).data.signals, undefined);
    assert.equal(await h.deps.store.nextWorkTime(), undefined);
  });

  it('refuses a type without a handler, an unknown resource or stack, queueing nothing', async () => {
    const { h, stackId } = await setup();
    const refused = async (p: Promise<unknown>, code: string, message: RegExp) => {
      const err = await p.then(
        () => assert.fail('accepted'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof OperationError);
      assert.equal(err.code, code);
      assert.match(err.message, message);
    };
    await refused(
      signalResource(h.deps, stackId, 'n', null),
      'invalid',
      /^signal is not supported for resource "n" of type OS::Heat::None$/,
    );
    await refused(signalResource(h.deps, stackId, 'nope', null), 'not_found', /resource "nope" not found/);
    await refused(signalResource(h.deps, 'no-such-stack', 'r', null), 'not_found', /stack "no-such-stack"/);
    assert.equal(await h.deps.store.nextWorkTime(), undefined);
  });

  it("refuses a resource being deleted or suspended, recording Heat's event", async () => {
    const { h, probe, stackId } = await setup('{value: a, delete_wait_secs: 10}');
    await h.delete('s');
    await h.round(); // r's delete starts and waits
    assert.equal(`${(await row(h)).action}_${(await row(h)).status}`, 'DELETE_IN_PROGRESS');
    await assert.rejects(signalResource(h.deps, stackId, 'r', { say: 'x' }), {
      name: 'OperationError',
      message: 'Signal resource during DELETE is not supported.',
    });
    const last = (await events(h, stackId)).at(-1)!;
    assert.deepEqual(
      [last.action, last.status, last.reason],
      ['DELETE', 'IN_PROGRESS', 'Cannot signal resource during DELETE'],
    );

    const other = await setup();
    const r = await row(other.h);
    await other.h.deps.store.tx((tx) =>
      tx.resources.update(r.id, r.atomicKey, null, { action: 'SUSPEND', status: 'COMPLETE' }),
    );
    await assert.rejects(signalResource(other.h.deps, other.stackId, 'r', null), {
      message: 'Signal resource during SUSPEND is not supported.',
    });
    assert.equal(probe.calls.length + other.probe.calls.length, 0);
  });

  it('a signal accepted before its resource began to be deleted is refused when it runs', async () => {
    const { h, probe, stackId } = await setup();
    const id = await signalResource(h.deps, stackId, 'r', null);
    const r = await row(h);
    await h.deps.store.tx((tx) =>
      tx.resources.update(r.id, r.atomicKey, null, { action: 'DELETE', status: 'IN_PROGRESS' }),
    );
    await h.settle();
    assert.equal(probe.calls.length, 0);
    assert.equal(
      await signalError(h.deps, stackId, 'r', id),
      'Signal resource during DELETE is not supported.',
    );
  });

  it("does not wait behind an update holding the resource's lock, and neither loses the other's write", async () => {
    const { h, probe, stackId } = await setup();
    await h.update('s', TEMPLATE('{value: b, update_wait_secs: 10}'));
    await h.round(); // r's update starts and waits 10 s
    const locked = await row(h);
    assert.equal(`${locked.action}_${locked.status}`, 'UPDATE_IN_PROGRESS');
    assert.notEqual(locked.engineId, null);

    await signalResource(h.deps, stackId, 'r', { say: 'now' });
    await h.round(); // only the signal is due
    assert.equal(probe.calls.length, 1);
    const during = await row(h);
    assert.equal(`${during.action}_${during.status}`, 'UPDATE_IN_PROGRESS');
    assert.equal(during.engineId, locked.engineId, 'the lock stays the update');
    assert.deepEqual(during.data.signals, [{ say: 'now' }]);

    await h.settle();
    const after = await row(h);
    assert.equal(`${after.action}_${after.status}`, 'UPDATE_COMPLETE');
    assert.equal(after.properties?.value, 'b');
    assert.deepEqual(after.data.signals, [{ say: 'now' }], "the update's write kept the signal's");
    assert.equal(after.data.updated, true);
  });

  it("an update that read the row before a signal's write records its result on fresh data", async () => {
    const { h, probe, stackId } = await setup();
    await h.update('s', TEMPLATE('{value: b, update_wait_secs: 10}'));
    await h.round();
    h.clock.t += 10_000;
    let polls = 0;
    probe.duringUpdate = async () => {
      if (polls++ > 0) return;
      // The update's poll has read the row; the signal is accepted and handled before it writes.
      await signalResource(h.deps, stackId, 'r', { say: 'meanwhile' });
      assert.equal(await h.engine.worker.runDue(), 1);
    };
    await h.settle();
    const after = await row(h);
    assert.equal(`${after.action}_${after.status}`, 'UPDATE_COMPLETE');
    assert.deepEqual(after.data.signals, [{ say: 'meanwhile' }]);
    assert.equal(after.data.updated, true);
    assert.equal(probe.calls.length, 1);
    assert.equal(polls, 2, "the update's write lost its compare-and-swap and polled again");
  });

  it('a write between reading the row and recording runs the handler again on fresh data', async () => {
    const { h, probe, stackId } = await setup();
    let writes = 0;
    probe.during = async () => {
      if (writes++ > 0) return;
      const r = await row(h);
      await h.deps.store.tx((tx) =>
        tx.resources.update(r.id, r.atomicKey, r.engineId, { data: { ...r.data, other: 1 } }),
      );
    };
    const id = await signal(h, stackId, { say: 'x' });
    assert.deepEqual(
      probe.calls.map((c) => [c.signalId, c.data]),
      [
        [id, {}],
        [id, { other: 1 }],
      ],
    );
    assert.deepEqual((await row(h)).data, { other: 1, signals: [{ say: 'x' }] });
    assert.equal((await events(h, stackId)).filter((e) => e.action === 'SIGNAL').length, 1);
  });

  it('survives the engine that claimed it: another one handles it once the claim runs out', async () => {
    const { h, probe, stackId } = await setup();
    const id = await signalResource(h.deps, stackId, 'r', { say: 'late' });
    const [claimed] = await h.deps.store.claimWork('dead-engine', h.clock.now(), 10, 60_000);
    assert.equal(claimed?.traversalId, id);
    assert.equal(await h.engine.worker.runDue(), 0, 'claimed by an engine that will never finish it');
    h.clock.t += 60_001;
    await h.settle();
    assert.equal(probe.calls.length, 1);
    assert.deepEqual((await row(h)).data.signals, [{ say: 'late' }]);
    await assert.rejects(
      h.deps.store.tx((tx) => tx.work.complete(claimed!)),
      ClaimLostError,
    );
  });
});
