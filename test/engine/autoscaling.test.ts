import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { signalError, signalResource } from '../../src/engine/operations/signal.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { autoScalingGroupPlugin } from '../../src/resources/heat/autoscaling-group.js';
import { newCapacity } from '../../src/resources/heat/scaling.js';
import type { ResourceRecord } from '../../src/store/contract.js';
import { Harness } from './harness.js';

// OS::Heat::AutoScalingGroup and OS::Heat::ScalingPolicy: sizes within [min, max], Heat's capacity
// arithmetic, and scaling signals as desired-state changes that supersede a running update.

const T = 'OS::Heat::TestResource';

function template(
  opts: { desired?: number; min?: number; max?: number; extra?: string; cooldown?: number } = {},
) {
  const desired = opts.desired === undefined ? '' : `\n      desired_capacity: ${opts.desired}`;
  return `heat_template_version: 2018-08-31
resources:
  asg:
    type: OS::Heat::AutoScalingGroup
    properties:
      min_size: ${opts.min ?? 1}
      max_size: ${opts.max ?? 5}${desired}
      resource: {type: ${T}, properties: {value: member}}
  up:
    type: OS::Heat::ScalingPolicy
    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: change_in_capacity, scaling_adjustment: 1, cooldown: ${opts.cooldown ?? 0}}
  down:
    type: OS::Heat::ScalingPolicy
    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: percent_change_in_capacity, scaling_adjustment: -50}
  exact:
    type: OS::Heat::ScalingPolicy
    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: exact_capacity, scaling_adjustment: 10}${opts.extra ?? ''}
outputs:
  size: {value: {get_attr: [asg, current_size]}}
  values: {value: {get_attr: [asg, outputs_list, output]}}
  by_name: {value: {get_attr: [asg, outputs, output]}}
`;
}

async function members(h: Harness): Promise<ResourceRecord[]> {
  const top = await h.stack('s');
  const [child] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
  return h.deps.store.tx((tx) => tx.resources.listActive(child!.id));
}

async function signal(h: Harness, policy: string): Promise<void> {
  const stack = await findStack(h.deps, 'p', 's');
  await signalResource(h.deps, stack.id, policy, null);
  await h.settle();
}

describe('capacity arithmetic (Heat scalingutil)', () => {
  it('adjusts by change, exact value or percentage, with the minimum step, within bounds', () => {
    assert.equal(newCapacity(2, 1, 'change_in_capacity', undefined, 1, 5), 3);
    assert.equal(newCapacity(5, 1, 'change_in_capacity', undefined, 1, 5), 5);
    assert.equal(newCapacity(2, 10, 'exact_capacity', undefined, 1, 5), 5);
    assert.equal(newCapacity(2, -3, 'change_in_capacity', undefined, 1, 5), 1);
    // Below one member a percentage rounds away from zero, above towards zero.
    assert.equal(newCapacity(4, 10, 'percent_change_in_capacity', undefined, 0, 100), 5);
    assert.equal(newCapacity(4, -10, 'percent_change_in_capacity', undefined, 0, 100), 3);
    assert.equal(newCapacity(10, 33, 'percent_change_in_capacity', undefined, 0, 100), 13);
    assert.equal(newCapacity(10, -33, 'percent_change_in_capacity', undefined, 0, 100), 7);
    assert.equal(newCapacity(10, 10, 'percent_change_in_capacity', 3, 0, 100), 13);
  });
});

describe('OS::Heat::AutoScalingGroup', () => {
  it('starts at desired_capacity, follows a changed one, removes the oldest members first', async () => {
    const h = await Harness.create();
    await h.create('s', template({ desired: 2 }));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const first = (await members(h)).map((r) => r.name);
    assert.equal(first.length, 2);
    const out = await h.outputs('s');
    assert.equal(out.size, 2);
    assert.deepEqual(out.values, ['member', 'member']);
    assert.deepEqual(Object.keys(out.by_name as object).sort(), [...first].sort());

    await h.update('s', template({ desired: 4 }));
    await h.settle();
    const grown = (await members(h)).map((r) => r.name);
    assert.equal(grown.length, 4);
    for (const name of first) assert.ok(grown.includes(name), 'existing members stay');

    await h.update('s', template({ desired: 1 }));
    await h.settle();
    const shrunk = (await members(h)).map((r) => r.name);
    assert.equal(shrunk.length, 1);
    assert.ok(!first.includes(shrunk[0]!), 'the newest member is kept');
  });

  it('refuses min_size above max_size and a desired_capacity outside them', async () => {
    const h = await Harness.create();
    await assert.rejects(
      h.create('a', template({ min: 3, max: 2 })),
      /min_size can not be greater than max_size/,
    );
    await assert.rejects(h.create('b', template({ desired: 9 })), /desired_capacity must be between 1 and 5/);
  });
});

/** The member names each member of the child's current template depends on. */
async function memberDependencies(h: Harness): Promise<Record<string, unknown>> {
  const top = await h.stack('s');
  const [child] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
  const record = await h.deps.store.tx((tx) => tx.templates.get(child!.templateId!));
  const resources = (JSON.parse(record!.template) as { resources: Record<string, { depends_on?: unknown }> })
    .resources;
  return Object.fromEntries(Object.entries(resources).map(([name, r]) => [name, r.depends_on ?? null]));
}

describe('OS::Heat::AutoScalingGroup rolling_updates', () => {
  function rolling(value: string, desired: number, policy = ''): string {
    return template({ desired }).replace(
      'resource: {type: OS::Heat::TestResource, properties: {value: member}}',
      `resource: {type: ${T}, properties: {value: ${value}}}${policy}`,
    );
  }

  it('replaces members one at a time by default when the definition changes; a resize adds them at once', async () => {
    const h = await Harness.create();
    await h.create('s', rolling('a', 3));
    await h.settle();
    assert.deepEqual(Object.values(await memberDependencies(h)), [null, null, null], 'created at once');

    await h.update('s', rolling('b', 3));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const chained = await memberDependencies(h);
    const order = (await members(h)).sort((x, y) => x.id - y.id).map((r) => r.name);
    assert.deepEqual(
      order.map((name) => chained[name]),
      [null, [order[0]], [order[1]]],
      "Heat's default rolling_updates: max_batch_size 1",
    );
    const top = await h.stack('s');
    const [child] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
    const events = await h.deps.store.tx((tx) => tx.events.list(child!.id));
    const seq = events
      .filter((e) => e.action === 'UPDATE' && order.includes(e.resourceName))
      .map((e) => `${e.resourceName}:${e.status}`);
    assert.deepEqual(
      seq,
      order.flatMap((name) => [`${name}:IN_PROGRESS`, `${name}:COMPLETE`]),
      'each member after the one before it',
    );
    assert.deepEqual((await h.outputs('s')).values, ['b', 'b', 'b']);

    await h.update('s', rolling('b', 5));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const grown = await memberDependencies(h);
    assert.equal(Object.keys(grown).length, 5);
    assert.deepEqual(Object.values(grown), [null, null, null, null, null], 'a resize alone is not batched');
  });

  it('takes max_batch_size and min_in_service from rolling_updates', async () => {
    const h = await Harness.create();
    const policy = '\n      rolling_updates: {max_batch_size: 2, min_in_service: 1}';
    await h.create('s', rolling('a', 4, policy));
    await h.settle();
    await h.update('s', rolling('b', 4, policy));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const deps = await memberDependencies(h);
    const order = (await members(h)).sort((x, y) => x.id - y.id).map((r) => r.name);
    assert.deepEqual(
      order.map((name) => deps[name]),
      [null, null, order.slice(0, 2), order.slice(0, 2)],
    );
  });

  it('a retried update (data already recorded, the child in flight) keeps its batches', () => {
    const properties = {
      min_size: 1,
      max_size: 5,
      desired_capacity: 2,
      resource: { type: T, properties: { value: 'a' } },
      rolling_updates: { min_in_service: 0, max_batch_size: 1, pause_time: 0 },
    };
    const nested = autoScalingGroupPlugin.nested;
    const created = nested.child(properties, {}, { creating: true });
    const changed = { ...properties, resource: { type: T, properties: { value: 'b' } } };
    const first = nested.child(changed, created.data!, { settled: true });
    assert.match(first.template, /depends_on/);
    const retried = nested.child(changed, { ...created.data!, ...first.data! }, { settled: false });
    assert.equal(retried.template, first.template, 'the same child as the first attempt');
    const later = nested.child(changed, { ...created.data!, ...first.data! }, { settled: true });
    assert.doesNotMatch(later.template, /depends_on/, "once settled, the definition is the members' own");
  });
});

describe('OS::Heat::ScalingPolicy', () => {
  it('scales its group by signal, within [min, max]; an update keeping desired_capacity keeps the size', async () => {
    const h = await Harness.create();
    await h.create('s', template());
    await h.settle();
    assert.equal((await members(h)).length, 1, 'min_size without desired_capacity');

    await signal(h, 'up');
    assert.equal((await members(h)).length, 2);
    assert.equal((await h.outputs('s')).size, 2);
    await signal(h, 'exact');
    assert.equal((await members(h)).length, 5, 'exact_capacity 10 stops at max_size');
    await signal(h, 'down');
    assert.equal((await members(h)).length, 3, '-50% of 5 rounds towards zero: 3');

    await h.update('s', template({ extra: '\n  more: {type: OS::Heat::None}' }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await members(h)).length, 3, 'the scaled size stays');
  });

  it('ignores a signal within its cooldown, and an alarm that is not alarming', async () => {
    const h = await Harness.create();
    await h.create('s', template({ cooldown: 60 }));
    await h.settle();
    await signal(h, 'up');
    await signal(h, 'up');
    assert.equal((await members(h)).length, 2, 'the second signal came within the cooldown');
    h.clock.t += 61_000;
    const stack = await findStack(h.deps, 'p', 's');
    await signalResource(h.deps, stack.id, 'up', { current: 'ok', previous: 'alarm', reason: 'calm' });
    await h.settle();
    assert.equal((await members(h)).length, 2, 'an ok alarm asks for nothing');
    await signal(h, 'up');
    assert.equal((await members(h)).length, 3);
  });

  it('a signal during a running update supersedes it: both the update and the new size land', async () => {
    const h = await Harness.create();
    await h.create('s', template());
    await h.settle();
    const slow = `\n  slow: {type: ${T}, properties: {value: v2, action_wait_secs: {create: 20}}}`;
    await h.update('s', template({ extra: slow }));
    await h.rounds(3);
    assert.equal(await h.status('s'), 'UPDATE_IN_PROGRESS');
    const stack = await findStack(h.deps, 'p', 's');
    for (let i = 0; i < 3; i++) await signalResource(h.deps, stack.id, 'up', null);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await members(h)).length, 4, 'every signal applied');
    assert.ok(
      (await h.rows('s')).some((r) => r.name === 'slow' && r.status === 'COMPLETE'),
      'the update landed',
    );
  });
});

describe('SignalContext.adjustResource', () => {
  it('a change whose resource does not exist fails the signal and records nothing of the handler', async () => {
    const adjuster: ResourcePlugin = {
      type: 'Test::Adjuster',
      description: 'Adjusts the resource its signal names (tests only).',
      properties: {},
      attributes: {},
      create: async (ctx) => ({ physicalId: `adjuster-${ctx.idempotencyKey}` }),
      delete: async () => ({}),
      getReality: async () => ({ state: 'gone' }),
      attribute: async () => null,
      handleSignal: async (ctx, details) => {
        // Like a policy's cooldown mark: it must not stay when the adjustment did not happen.
        ctx.setData({ adjusted_at: ctx.now() });
        ctx.adjustResource(String(details?.target), (peer) => ({ n: Number(peer.data.n ?? 0) + 1 }));
      },
    };
    const h = await Harness.create({ plugins: [adjuster] });
    await h.create(
      's',
      `heat_template_version: 2018-08-31
resources:
  target: {type: OS::Heat::None}
  adjuster: {type: Test::Adjuster, depends_on: target}
`,
    );
    await h.settle();
    const stackId = (await findStack(h.deps, 'p', 's')).id;
    const missing = await signalResource(h.deps, stackId, 'adjuster', { target: 'nowhere' });
    await h.settle();
    assert.equal(
      await signalError(h.deps, stackId, 'adjuster', missing),
      'Signal failed: no resource "nowhere" in the stack',
    );
    const row = (name: string) => h.rows('s').then((rows) => rows.find((r) => r.name === name)!);
    assert.equal(
      (await row('adjuster')).data.adjusted_at,
      undefined,
      'nothing of the failed signal was kept',
    );

    await signalResource(h.deps, stackId, 'adjuster', { target: 'target' });
    await h.settle();
    assert.equal((await row('target')).data.n, 1);
    assert.equal(typeof (await row('adjuster')).data.adjusted_at, 'number');
  });
});
