import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../src/engine/engine.js';
import { Harness } from './harness.js';

const T = 'OS::Heat::TestResource';

/** Deletes run in batches (cleanup-batch.ts) and one by one (cleanup-node.ts): both must agree. */
describe('deleting resources', () => {
  const mixed = `heat_template_version: 2018-08-31
resources:
  kept: {type: ${T}, deletion_policy: Retain, properties: {value: kept}}
  plain: {type: ${T}, properties: {value: plain}}
  gone: {type: ${T}, properties: {value: gone}}
  val: {type: OS::Heat::Value, properties: {value: {get_attr: [plain, output]}}}
  slow: {type: ${T}, properties: {value: slow, action_wait_secs: {delete: 5}}}
`;

  async function eventsOf(h: Harness, name: string) {
    const stack = await h.stack(name);
    const events = await h.deps.store.tx((tx) => tx.events.list(stack.id));
    return events.filter((e) => e.resourceName !== name);
  }

  it('a stack delete keeps Retain resources, treats a vanished one as deleted, waits for slow ones', async () => {
    const h = await Harness.create();
    await h.create('s', mixed);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    // Someone removed `gone` behind the engine's back.
    const gone = (await h.live()).find((o) => o.properties.value === 'gone')!;
    await h.reality.delete(gone.type, gone.id);

    await h.delete('s');
    await h.round();
    await h.round();
    const rows = await h.rows('s');
    const slow = rows.find((r) => r.name === 'slow')!;
    assert.equal(`${slow.action}_${slow.status}`, 'DELETE_IN_PROGRESS', 'the slow delete is polled');
    // A stack's delete removes a row once its resource is gone (retained or not), as Heat does.
    const stackId = (await h.stack('s')).id;
    assert.deepEqual(
      (await h.deps.store.tx((tx) => tx.resources.listAll(stackId))).map((r) => r.name),
      ['slow'],
    );
    assert.equal(await h.status('s'), 'DELETE_IN_PROGRESS');

    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(
      (await h.live()).map((o) => o.properties.value),
      ['kept'],
      'only the retained resource is left',
    );
    const events = await eventsOf(h, 's');
    for (const name of ['plain', 'gone', 'val', 'slow', 'kept']) {
      const deletes = events
        .filter((e) => e.resourceName === name && e.action === 'DELETE')
        .map((e) => e.status);
      assert.equal(deletes.at(-1), 'COMPLETE', `${name} ends DELETE_COMPLETE`);
      if (name !== 'kept') assert.deepEqual(deletes, ['IN_PROGRESS', 'COMPLETE'], `${name}'s delete events`);
    }
    const kept = events.find((e) => e.resourceName === 'kept' && e.action === 'DELETE')!;
    assert.match(kept.reason, /database only/);
  });

  it('dependents are deleted before what they depend on', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, output]}}}
  c: {type: ${T}, properties: {value: {get_attr: [b, value]}}}
`,
    );
    await h.settle();
    await h.delete('s');
    await h.settle();
    const order = (await eventsOf(h, 's'))
      .filter((e) => e.action === 'DELETE' && e.status === 'COMPLETE')
      .map((e) => e.resourceName);
    assert.deepEqual(order, ['c', 'b', 'a']);
    assert.deepEqual(await h.live(), []);
  });

  it('a stack delete binds no template that cannot retain a resource', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, output]}}}
`,
    );
    await h.settle();
    // Another engine process (an empty template cache) runs the delete.
    h.engine = new Engine(h.deps);
    const { id, templateId } = await h.stack('s');
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
    assert.equal(h.engine.cache.peek(templateId!, id), undefined, 'the template was not bound');
  });

  it('a resource removed by an update is deleted, unless it is retained', async () => {
    const h = await Harness.create();
    await h.create('s', mixed);
    await h.settle();
    await h.update(
      's',
      `heat_template_version: 2018-08-31
resources:
  plain: {type: ${T}, properties: {value: plain}}
`,
    );
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(
      (await h.rows('s')).map((r) => r.name),
      ['plain'],
    );
    assert.deepEqual((await h.live()).map((o) => o.properties.value).sort(), ['kept', 'plain']);
  });
});
