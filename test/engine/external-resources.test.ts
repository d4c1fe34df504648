import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../src/engine/engine.js';
import { checkStack, suspendOrResume } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { prepareUpdate } from '../../src/engine/operations/prepare.js';
import { previewStackCreate, previewUpdate } from '../../src/engine/operations/preview.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { attr, P } from '../../src/template/properties/index.js';
import { Harness } from './harness.js';

// External resources (HOT `external_id`): adopted, never created, updated or deleted, as in Heat.

const TYPE = 'Test::Thing';

/** A type whose every call is counted; its objects live in the harness's reality. */
class Probe {
  readonly calls: string[] = [];
  readonly plugin: ResourcePlugin = {
    type: TYPE,
    description: 'Counts its calls (tests only).',
    properties: {
      size: P.integer({ required: true, updateAllowed: true }),
      zone: P.string({ default: 'a' }),
    },
    attributes: { name: attr('The name of the object.'), size: attr('Its size.') },
    create: async (ctx, properties) => {
      this.calls.push(`create ${ctx.resourceName}`);
      const id = `made-${ctx.idempotencyKey}`;
      await ctx.reality.put({
        id,
        key: ctx.idempotencyKey,
        type: TYPE,
        properties: { name: 'made', size: properties.size as number },
        status: 'ACTIVE',
      });
      return { physicalId: id };
    },
    update: async (ctx) => {
      this.calls.push(`update ${ctx.resourceName}`);
      return {};
    },
    delete: async (ctx) => {
      this.calls.push(`delete ${ctx.resourceName}`);
      if (ctx.physicalId) await ctx.reality.delete(TYPE, ctx.physicalId);
      return {};
    },
    getReality: async (ctx) => {
      this.calls.push(`look ${ctx.resourceName}`);
      const object = ctx.physicalId ? await ctx.reality.get(TYPE, ctx.physicalId) : undefined;
      return object ? { state: 'present', properties: object.properties } : { state: 'gone' };
    },
    attribute: async (ctx, name) => {
      const object = ctx.physicalId ? await ctx.reality.get(TYPE, ctx.physicalId) : undefined;
      return object?.properties[name] ?? null;
    },
    check: async (ctx) => {
      this.calls.push(`check ${ctx.resourceName}`);
      if (!(ctx.physicalId && (await ctx.reality.get(TYPE, ctx.physicalId)))) throw new Error('it is gone');
    },
    suspend: async (ctx) => {
      this.calls.push(`suspend ${ctx.resourceName}`);
      return {};
    },
    resume: async (ctx) => {
      this.calls.push(`resume ${ctx.resourceName}`);
      return {};
    },
  };

  /** Calls other than looks (the engine's existence checks). */
  actions(): string[] {
    return this.calls.filter((c) => !c.startsWith('look '));
  }
}

/** `thing` names an existing object by a parameter; it has no `size` although the type requires one. */
const TEMPLATE = (extra = '') => `heat_template_version: newton
parameters:
  id: {type: string}
resources:
  thing:
    type: ${TYPE}
    external_id: {get_param: id}
${extra}
  reader:
    type: OS::Heat::Value
    properties: {value: {get_attr: [thing, name]}}
  ref:
    type: OS::Heat::Value
    properties: {value: {get_resource: thing}}
outputs:
  name: {value: {get_attr: [thing, name]}}
  size: {value: {get_attr: [thing, size]}}
  ref: {value: {get_attr: [ref, value]}}
`;

async function setup(id = 'ext-1', options: { rollback?: boolean } = {}) {
  const probe = new Probe();
  const h = await Harness.create({ plugins: [probe.plugin] });
  await h.reality.put({
    id: 'ext-1',
    key: 'theirs',
    type: TYPE,
    properties: { name: 'db', size: 3 },
    status: 'ACTIVE',
  });
  await h.create('s', TEMPLATE(), { parameters: { id }, ...options });
  await h.settle();
  return { h, probe };
}

async function thingRow(h: Harness) {
  return (await h.rows('s')).find((r) => r.name === 'thing')!;
}

describe('external resources', () => {
  it('adopts an existing object: no create, its id as physical id, attributes read from it', async () => {
    const { h, probe } = await setup();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const row = await thingRow(h);
    assert.equal(row.physicalId, 'ext-1');
    assert.equal(`${row.action}_${row.status}`, 'CREATE_COMPLETE');
    assert.deepEqual(probe.calls, ['look thing']);
    assert.deepEqual(await h.outputs('s'), { name: 'db', size: 3, ref: 'ext-1' });
  });

  it('an adoption whose engine died is looked at again by the engine that takes it over', async () => {
    const probe = new Probe();
    let open!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (open = resolve));
    const look = probe.plugin.getReality.bind(probe.plugin);
    let first = true;
    const stalling: ResourcePlugin = {
      ...probe.plugin,
      getReality: async (ctx) => {
        if (first) {
          first = false;
          entered();
          await gate;
        }
        return look(ctx);
      },
    };
    const h = await Harness.create({ plugins: [stalling] });
    await h.reality.put({
      id: 'ext-1',
      key: 'theirs',
      type: TYPE,
      properties: { name: 'db', size: 3 },
      status: 'ACTIVE',
    });
    await h.create('s', TEMPLATE(), { parameters: { id: 'ext-1' } });
    const running = h.engine.worker.runDue();
    await inside;
    const row = await thingRow(h);
    assert.equal(`${row.action}_${row.status}`, 'CREATE_IN_PROGRESS');

    const rescuer = new Engine({ ...h.deps, engineId: 'engine-2' });
    h.clock.t += h.deps.settings.engineDeadAfterMs + 1;
    await rescuer.heartbeat(true);
    for (let i = 0; i < 20 && (await h.status('s')) !== 'CREATE_COMPLETE'; i++) {
      if ((await rescuer.worker.runDue()) === 0)
        h.clock.t = Math.max(h.clock.t, (await h.deps.store.nextWorkTime()) ?? h.clock.t);
    }
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const adopted = await thingRow(h);
    assert.equal(`${adopted.action}_${adopted.status}`, 'CREATE_COMPLETE');
    assert.equal(adopted.engineId, null);
    assert.equal(adopted.physicalId, 'ext-1');
    open();
    await running;
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(probe.actions(), []);
    assert.deepEqual(probe.calls, ['look thing', 'look thing']);
  });

  it('fails the create naming the id when the object does not exist, and deletes nothing after', async () => {
    const { h, probe } = await setup('nope');
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    const row = await thingRow(h);
    assert.equal(`${row.action}_${row.status}`, 'CREATE_FAILED');
    assert.match(
      row.reason,
      /^InvalidExternalResource: resources\.thing: Invalid external resource: Resource nope \(Test::Thing\) can not be found/,
    );
    assert.equal((await h.stack('s')).reason, `Resource CREATE failed: ${row.reason}`);
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(probe.actions(), []);
  });

  it('rolls a failed adoption back without deleting anything', async () => {
    const { h, probe } = await setup('nope', { rollback: true });
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(probe.actions(), []);
    assert.equal((await h.live()).length, 1);
  });

  it('looks again at a failed adoption on the next update, and completes once the object exists', async () => {
    const { h } = await setup('later');
    await h.reality.put({
      id: 'later',
      key: 'theirs',
      type: TYPE,
      properties: { name: 'late', size: 1 },
      status: 'ACTIVE',
    });
    await h.update('s', TEMPLATE(), { parameters: { id: 'later' } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(`${(await thingRow(h)).action}_${(await thingRow(h)).status}`, 'CREATE_COMPLETE');
    assert.equal((await h.outputs('s')).name, 'late');
  });

  it('ignores a change of its properties: no update call, the row left alone', async () => {
    const { h, probe } = await setup();
    const before = await thingRow(h);
    await h.update('s', TEMPLATE('    properties: {size: 9, zone: b}'), { parameters: { id: 'ext-1' } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(probe.actions(), []);
    const after = await thingRow(h);
    assert.equal(after.id, before.id);
    assert.equal(after.physicalId, 'ext-1');
    assert.equal((await h.live()).length, 1);
  });

  it('refuses to change, add or remove external_id, as Heat does', async () => {
    const { h, probe } = await setup();
    await h.reality.put({
      id: 'ext-2',
      key: 'theirs',
      type: TYPE,
      properties: { name: 'other', size: 1 },
      status: 'ACTIVE',
    });
    await h.update('s', TEMPLATE(), { parameters: { id: 'ext-2' } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_FAILED');
    const row = await thingRow(h);
    assert.equal(`${row.action}_${row.status}`, 'UPDATE_FAILED');
    assert.match(
      row.reason,
      /^NotSupported: resources\.thing: Update to property external_id of thing \(Test::Thing\) is not supported/,
    );
    assert.equal(row.physicalId, 'ext-1');

    // Removed: the type's create is not called either (the object is not the stack's to remake).
    const plain = `heat_template_version: newton
resources:
  thing: {type: ${TYPE}, properties: {size: 1}}
`;
    await h.update('s', plain);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_FAILED');
    assert.match((await thingRow(h)).reason, /Update to property external_id of thing/);

    // Added to a resource the stack made.
    const other = await Harness.create({ plugins: [probe.plugin] });
    await other.reality.put({
      id: 'ext-1',
      key: 'theirs',
      type: TYPE,
      properties: { name: 'db', size: 3 },
      status: 'ACTIVE',
    });
    await other.create('s', plain);
    await other.settle();
    await other.update('s', TEMPLATE(), { parameters: { id: 'ext-1' } });
    await other.settle();
    assert.equal(await other.status('s'), 'UPDATE_FAILED');
    assert.match((await thingRow(other)).reason, /Update to property external_id of thing/);
    assert.deepEqual(probe.actions(), ['create thing']);
  });

  it('leaves the object when the stack is deleted, or the resource removed from the template', async () => {
    const { h, probe } = await setup();
    await h.update(
      's',
      `heat_template_version: newton
resources:
  other: {type: OS::Heat::None}
`,
    );
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal(
      (await h.rows('s')).some((r) => r.name === 'thing'),
      false,
    );
    assert.equal((await h.live()).length, 1);

    const again = await setup();
    await again.h.delete('s');
    await again.h.settle();
    assert.equal(await again.h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(
      (await again.h.live()).map((o) => o.id),
      ['ext-1'],
    );
    assert.deepEqual([...probe.actions(), ...again.probe.actions()], []);
  });

  it('is checked by its type; suspend and resume leave it alone', async () => {
    const { h, probe } = await setup();
    const stack = await findStack(h.deps, 'p', 's');
    await checkStack(h.deps, h.engine.cache, stack.id);
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_COMPLETE');
    assert.deepEqual(probe.actions(), ['check thing']);

    await suspendOrResume(h.deps, stack.id, 'SUSPEND');
    await h.settle();
    assert.equal(await h.status('s'), 'SUSPEND_COMPLETE');
    await suspendOrResume(h.deps, stack.id, 'RESUME');
    await h.settle();
    assert.equal(await h.status('s'), 'RESUME_COMPLETE');
    assert.deepEqual(probe.actions(), ['check thing']);

    await h.reality.delete(TYPE, 'ext-1');
    await checkStack(h.deps, h.engine.cache, stack.id);
    await h.settle();
    assert.equal(await h.status('s'), 'CHECK_FAILED');
  });

  it('previews an update of its properties as unchanged, and a new id as updated', async () => {
    const { h } = await setup();
    const stack = await findStack(h.deps, 'p', 's');
    const preview = async (id: string) => {
      const input = h.input(TEMPLATE('    properties: {size: 9}'), { id });
      const prepared = await prepareUpdate(h.deps, h.engine.cache, stack.id, { template: input });
      const changes = await previewUpdate(h.deps, stack.id, prepared.definition, false, prepared.environment);
      return changes.find((c) => c.name === 'thing')?.change;
    };
    assert.equal(await preview('ext-1'), 'unchanged');
    assert.equal(await preview('ext-2'), 'updated');
  });
});

describe('external resources: validation', () => {
  async function refused(template: string, parameters: Record<string, string | number> = {}) {
    const h = await Harness.create({ plugins: [new Probe().plugin] });
    return h.create('s', template, { parameters });
  }
  const head = `heat_template_version: newton
parameters:
  id: {type: string, default: ext-1}
  n: {type: number, default: 4}
resources:
  other: {type: OS::Heat::None}
`;

  it('does not validate its properties, nor make edges of their references', async () => {
    const h = await Harness.create({ plugins: [new Probe().plugin] });
    await h.create(
      's',
      `${head}  thing:
    type: ${TYPE}
    external_id: {get_param: id}
    properties: {size: {get_attr: [other, nothing_here]}, zone: 42, unknown: x}
`,
    );
    await h.reality.put({
      id: 'ext-1',
      key: 'theirs',
      type: TYPE,
      properties: { name: 'db', size: 3 },
      status: 'ACTIVE',
    });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const thing = await thingRow(h);
    assert.deepEqual(thing.requires, []);
    // Stored as written (Heat ignores them), the unresolvable reference as null.
    assert.deepEqual(thing.properties, { size: null, zone: 42, unknown: 'x' });
  });

  it('previews a create showing its properties as written', async () => {
    const h = await Harness.create({ plugins: [new Probe().plugin] });
    const input = h.input(`${head}  thing: {type: ${TYPE}, external_id: x, properties: {zone: 42}}\n`);
    const { resources } = await previewStackCreate(h.deps, h.engine.cache, {
      name: 's',
      projectId: 'p',
      template: input,
    });
    assert.deepEqual(resources.find((r) => r.name === 'thing')?.properties, { zone: 42 });
  });

  it('refuses an external_id that is not a string', async () => {
    await assert.rejects(
      refused(`${head}  thing: {type: ${TYPE}, external_id: {get_param: n}}\n`),
      /Resource thing external_id type must be string/,
    );
    await assert.rejects(
      refused(`${head}  thing: {type: ${TYPE}, external_id: [a]}\n`),
      /Resource thing external_id type must be string/,
    );
  });

  it('refuses an external_id that refers to another resource, and depends_on', async () => {
    await assert.rejects(
      refused(`${head}  thing: {type: ${TYPE}, external_id: {get_resource: other}}\n`),
      /external_id of "thing" may not refer to resource "other"/,
    );
    await assert.rejects(
      refused(`${head}  thing: {type: ${TYPE}, external_id: {get_param: id}, depends_on: other}\n`),
      /Invalid dependency with external Test::Thing resource: ext-1/,
    );
  });

  it('refuses external_id on a template resource', async () => {
    const h = await Harness.create({ plugins: [new Probe().plugin] });
    const nested = 'heat_template_version: newton\nresources: {}\n';
    await assert.rejects(
      h.create('s', `${head}  thing: {type: nested.yaml, external_id: x}\n`, {
        files: { 'nested.yaml': nested },
      }),
      /a template resource \("nested.yaml"\) cannot have an external_id/,
    );
  });

  it('takes any external_id on OS::Heat::TestResource, as Heat (its tests use it)', async () => {
    // Heat's functional test: the id is its reference; changing it afterwards fails the update.
    const h = await Harness.create();
    const withId = (id: string) => `heat_template_version: 2016-10-14
resources:
  test1:
    type: OS::Heat::TestResource
    external_id: ${id}
outputs:
  str: {value: {get_resource: test1}}
`;
    await h.create('t', withId('foobar'));
    await h.settle();
    assert.equal(await h.status('t'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.outputs('t'), { str: 'foobar' });
    await h.update('t', withId('barfoo'));
    await h.settle();
    assert.equal(await h.status('t'), 'UPDATE_FAILED');
    const [row] = await h.rows('t');
    assert.match(
      row!.reason,
      /Update to property external_id of test1 \(OS::Heat::TestResource\) is not supported/,
    );
    // Deleting the stack leaves the external object: it was never the stack's.
    await h.delete('t');
    await h.settle();
    assert.ok(await h.reality.get('OS::Heat::TestResource', 'foobar'));
  });
});
