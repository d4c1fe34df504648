import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ResourceFailure } from '../../src/resources/contract.js';
import { testResourcePlugin as plugin } from '../../src/resources/heat/test-resource.js';
import { CountingReality } from '../../src/resources/reality/counting.js';
import { MemoryReality } from '../../src/resources/reality/memory.js';
import { schemaToHeatJSON } from '../../src/template/properties/index.js';
import { FakeResource, rejection } from './helpers.js';
import { API_SAMPLES } from '../support/shared.js';

const TYPE = 'OS::Heat::TestResource';

function counted(): { reality: CountingReality; make: (name?: string) => FakeResource } {
  const reality = new CountingReality(new MemoryReality());
  return { reality, make: (name = 'r') => new FakeResource(plugin, { name, reality }) };
}

describe('OS::Heat::TestResource', () => {
  it('reproduces Heat’s resource_types show through schemaToHeatJSON', () => {
    const text = readFileSync(`${API_SAMPLES}/resource-type-show.txt`, 'utf8');
    const expected = JSON.parse(text.slice(text.indexOf('{')));
    const body = schemaToHeatJSON(plugin.type, plugin.properties, plugin.attributes, {
      supportStatus: plugin.supportStatus!,
    });
    assert.deepEqual(body, expected);
    // The same key order too.
    assert.equal(JSON.stringify(body), JSON.stringify(expected));
  });

  describe('create', () => {
    it('stores the value in a physical object, the output attribute and the data', async () => {
      const { reality, make } = counted();
      const r = make('r1');
      const run = await r.create({ value: 'one' });
      assert.equal(run.polls, 0);
      assert.match(r.physicalId!, /^stack-r1-[a-z2-7]{12}$/);
      assert.deepEqual(r.data, { value: 'one' });
      assert.equal(await r.attribute('output'), 'one');
      assert.equal(r.referenceId(), r.physicalId, 'as Heat, the reference id is the physical id');
      const object = await reality.get(TYPE, r.physicalId!);
      assert.equal(object?.key, r.key);
      assert.equal(object?.properties.value, 'one');
      assert.equal(reality.creates(TYPE), 1);
      const state = await plugin.getReality(r.ctx());
      assert.equal(state.state, 'present');
      assert.deepEqual(state.state === 'present' && state.properties, r.storedProperties);
    });

    it('defaults value to "test_string"', async () => {
      const r = new FakeResource(plugin);
      await r.create();
      assert.equal(await r.attribute('output'), 'test_string');
    });

    it('is idempotent: a retried create finds the object instead of making another', async () => {
      const { reality, make } = counted();
      const r = make();
      await r.create({ value: 'v' });
      const first = r.physicalId;
      // The engine crashed before it saved the result: the retry has no physical id yet.
      r.physicalId = null;
      r.data = {};
      await r.create({ value: 'v' });
      assert.equal(r.physicalId, first);
      assert.equal(reality.creates(TYPE), 1);
      assert.deepEqual(reality.duplicates(), []);
    });

    it('waits wait_secs by persisted polling against the clock', async () => {
      const r = new FakeResource(plugin);
      const started = r.clock.now();
      const result = await r.startCreate({ value: 'slow', wait_secs: 3.5 });
      assert.deepEqual(result.progress, { action: 'create', deadline: started + 3500, fail: false });
      assert.equal(result.pollAfterMs, 1000);
      // The physical object exists at once; the action completes after the wait.
      assert.notEqual(r.physicalId, null);
      r.clock.advance(3499);
      const early = await r.poll('create');
      assert.deepEqual(early, { done: false, progress: result.progress, pollAfterMs: 1 });
      r.clock.advance(1);
      assert.deepEqual(await r.poll('create'), { done: true });
    });

    it('polls at most every second until the deadline', async () => {
      const r = new FakeResource(plugin);
      const run = await r.create({ wait_secs: 2.5 });
      assert.deepEqual(run.pollAfter, [1000, 1000, 500]);
      assert.equal(run.waitedMs, 2500);
      const short = new FakeResource(plugin);
      assert.deepEqual((await short.create({ wait_secs: 0.2 })).pollAfter, [200]);
    });

    it('takes action_wait_secs.create over wait_secs', async () => {
      const r = new FakeResource(plugin);
      const run = await r.create({ wait_secs: 100, action_wait_secs: { create: 2, delete: 5 } });
      assert.equal(run.waitedMs, 2000);
      const del = await r.delete();
      assert.equal(del.waitedMs, 5000);
      const fallback = new FakeResource(plugin);
      assert.equal((await fallback.create({ wait_secs: 3, action_wait_secs: { update: 1 } })).waitedMs, 3000);
    });

    it('waits forever for -1', async () => {
      const r = new FakeResource(plugin);
      const result = await r.startCreate({ action_wait_secs: { create: -1 } });
      assert.deepEqual(result.progress, { action: 'create', deadline: null, fail: false });
      for (let i = 0; i < 5; i++) {
        r.clock.advance(86_400_000);
        const poll = await r.poll('create');
        assert.equal(poll.done, false);
        assert.equal(!poll.done && poll.pollAfterMs, 1000);
      }
    });

    it('fails after the wait when fail is set, leaving no physical object', async () => {
      const { reality, make } = counted();
      const r = make('bad');
      const result = await r.startCreate({ fail: true, wait_secs: 2 });
      assert.equal(r.physicalId, null);
      r.clock.advance(1000);
      assert.equal((await r.poll('create')).done, false);
      r.clock.advance(1000);
      const err = await rejection(() => r.poll('create'));
      assert.ok(err instanceof ResourceFailure);
      assert.equal(err.message, 'Test Resource failed bad');
      assert.ok(result.progress);
      assert.equal(reality.creates(), 0);
      assert.equal(await r.attribute('output'), null);
    });

    it('fails at once when fail is set without a wait', async () => {
      const r = new FakeResource(plugin, { name: 'bad' });
      const err = await rejection(() => r.create({ fail: true }));
      assert.ok(err instanceof ResourceFailure);
      assert.equal(err.message, 'Test Resource failed bad');
    });
  });

  describe('update', () => {
    it('changes the value in place: data, output and the physical object', async () => {
      const { reality, make } = counted();
      const r = make();
      await r.create({ value: 'a' });
      const id = r.physicalId;
      const outcome = await r.update({ value: 'b' });
      assert.ok('polls' in outcome);
      assert.equal(r.physicalId, id);
      assert.equal(await r.attribute('output'), 'b');
      assert.equal((await reality.get(TYPE, id!))?.properties.value, 'b');
      assert.deepEqual(reality.stats(TYPE), {
        creates: 1,
        updates: 1,
        deletes: 0,
        deleteMisses: 0,
        duplicateCreates: 0,
      });
    });

    it('asks for replacement when the value changes and update_replace is set', async () => {
      const r = new FakeResource(plugin);
      await r.create({ value: 'a', update_replace: true });
      assert.deepEqual(await r.update({ value: 'b', update_replace: true }), { replace: 'plugin' });
      // Without a change of value, it updates in place.
      assert.ok('polls' in (await r.update({ value: 'a', update_replace: true, wait_secs: 1 })));
    });

    it('is replaced when update_replace_value changes (not update_allowed)', async () => {
      const r = new FakeResource(plugin);
      await r.create({ update_replace_value: 'x' });
      assert.deepEqual(await r.update({ update_replace_value: 'y' }), {
        replace: 'schema',
        properties: ['update_replace_value'],
      });
    });

    it('waits only when the value changes, as Heat', async () => {
      const r = new FakeResource(plugin);
      await r.create({ value: 'a' });
      const quiet = await r.update({ value: 'a', wait_secs: 5 });
      assert.ok('polls' in quiet && quiet.waitedMs === 0);
      const slow = await r.update({ value: 'b', wait_secs: 5, action_wait_secs: { update: 2 } });
      assert.ok('polls' in slow && slow.waitedMs === 2000);
      assert.equal(await r.attribute('output'), 'b');
    });

    it('fails when fail is set, keeping the old value', async () => {
      const r = new FakeResource(plugin, { name: 'u' });
      await r.create({ value: 'a' });
      const err = await rejection(() => r.update({ value: 'b', fail: true, wait_secs: 1 }));
      assert.ok(err instanceof ResourceFailure);
      assert.equal(await r.attribute('output'), 'a');
      const noChange = await rejection(() => r.update({ value: 'a', fail: true }));
      assert.ok(noChange instanceof ResourceFailure);
    });

    it('fails when the physical object was removed behind its back', async () => {
      const r = new FakeResource(plugin);
      await r.create({ value: 'a' });
      await r.reality.delete(TYPE, r.physicalId!);
      const err = await rejection(() => r.update({ value: 'b' }));
      assert.ok(err instanceof ResourceFailure);
      assert.match(err.message, /not found/);
    });
  });

  describe('delete', () => {
    it('removes the physical object; deleting one already gone succeeds', async () => {
      const { reality, make } = counted();
      const r = make();
      await r.create();
      await r.delete();
      assert.equal(await reality.get(TYPE, r.physicalId!), undefined);
      assert.equal(reality.deletes(TYPE), 1);
      await r.delete();
      assert.equal(reality.deletes(TYPE), 1);
      assert.deepEqual(reality.leaks(), []);
    });

    it('removes the object when the wait is over', async () => {
      const r = new FakeResource(plugin);
      await r.create({ action_wait_secs: { delete: 3 } });
      const result = await plugin.delete(r.ctx());
      r.progress = result.progress;
      assert.notEqual(await r.reality.get(TYPE, r.physicalId!), undefined);
      r.clock.advance(3000);
      assert.deepEqual(await r.poll('delete'), { done: true });
      assert.equal(await r.reality.get(TYPE, r.physicalId!), undefined);
    });

    it('never fails, even with fail set', async () => {
      const r = new FakeResource(plugin);
      await r.create();
      r.storedProperties = { ...r.storedProperties, fail: true, wait_secs: 1 };
      const run = await r.delete();
      assert.equal(run.polls, 1);
      assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    });

    it('finds an object an interrupted create left without a physical id', async () => {
      const { reality, make } = counted();
      const r = make();
      await r.create();
      r.physicalId = null;
      await r.delete();
      assert.deepEqual(reality.liveObjects(), []);
    });
  });

  describe('check and reality', () => {
    it('checks that the object exists', async () => {
      const r = new FakeResource(plugin);
      const notCreated = await rejection(() => plugin.check!(r.ctx()));
      assert.ok(notCreated instanceof ResourceFailure);
      assert.equal(notCreated.message, 'Resource not created');
      await r.create();
      await plugin.check!(r.ctx());
      await r.reality.delete(TYPE, r.physicalId!);
      const gone = await rejection(() => plugin.check!(r.ctx()));
      assert.ok(gone instanceof ResourceFailure);
      assert.deepEqual(await plugin.getReality(r.ctx()), { state: 'gone' });
    });

    it('reads the properties back from the physical object (drift shows)', async () => {
      const r = new FakeResource(plugin);
      await r.create({ value: 'a' });
      const object = (await r.reality.get(TYPE, r.physicalId!))!;
      await r.reality.put({ ...object, properties: { ...object.properties, value: 'drifted' } });
      const state = await plugin.getReality(r.ctx());
      assert.equal(state.state === 'present' && state.properties.value, 'drifted');
    });
  });

  it('rejects malformed progress', async () => {
    const r = new FakeResource(plugin);
    await assert.rejects(plugin.checkCreateComplete!(r.ctx(), { action: 'create' }), /malformed progress/);
    await assert.rejects(plugin.checkCreateComplete!(r.ctx(), 'x'), /malformed progress/);
  });
});
