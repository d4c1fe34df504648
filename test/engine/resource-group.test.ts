import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceRecord, StackRecord } from '../../src/store/contract.js';
import { Harness } from './harness.js';

// OS::Heat::ResourceGroup: a child stack generated from the group's properties, run by the
// template-resource machinery (the parent parks on the child and is woken by its end).

const T = 'OS::Heat::TestResource';

function group(count: number, options: { policies?: string[] } = {}): string {
  const policies = options.policies
    ? `\n      removal_policies: [{resource_list: ${JSON.stringify(options.policies)}}]`
    : '';
  return `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}${policies}
      resource_def:
        type: ${T}
        properties: {value: 'member-%index%'}
  after:
    type: ${T}
    properties: {value: {list_join: [',', {get_attr: [group, output]}]}}
outputs:
  refs: {value: {get_attr: [group, refs]}}
  outputs: {value: {get_attr: [group, output]}}
  one: {value: {get_attr: [group, resource.1, output]}}
  one_ref: {value: {get_attr: [group, resource.1]}}
  dotted: {value: {get_attr: [group, resource.0.output]}}
  removed: {value: {get_attr: [group, removed_rsrc_list]}}
  refs_map: {value: {get_attr: [group, refs_map]}}
  by_name: {value: {get_attr: [group, attributes, output]}}
  absent: {value: {get_attr: [group, resource.9]}}
  whole: {value: {get_attr: [group]}}
  after: {value: {get_attr: [after, output]}}
`;
}

async function child(h: Harness): Promise<StackRecord> {
  const top = await h.stack('s');
  const kids = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
  assert.equal(kids.length, 1);
  return kids[0]!;
}

async function members(h: Harness): Promise<ResourceRecord[]> {
  const c = await child(h);
  const rows = await h.deps.store.tx((tx) => tx.resources.listActive(c.id));
  return rows.sort((a, b) => Number(a.name) - Number(b.name));
}

async function values(h: Harness): Promise<string[]> {
  return (await h.live()).map((o) => String(o.properties.value)).sort();
}

describe('OS::Heat::ResourceGroup', () => {
  it('creates count members with index_var substituted; attributes reach outputs and dependents', async () => {
    const h = await Harness.create();
    await h.create('s', group(3));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const rows = await members(h);
    assert.deepEqual(
      rows.map((r) => r.name),
      ['0', '1', '2'],
    );
    const ids = rows.map((r) => r.physicalId);
    const after = 'member-0,member-1,member-2';
    assert.deepEqual(await values(h), ['member-0', after, 'member-1', 'member-2']);
    const c = await child(h);
    const groupRow = (await h.rows('s')).find((r) => r.name === 'group')!;
    assert.equal(groupRow.physicalId, c.id);
    const refsMap = { 0: ids[0], 1: ids[1], 2: ids[2] };
    const { whole, ...out } = await h.outputs('s');
    assert.deepEqual(out, {
      refs: ids,
      outputs: ['member-0', 'member-1', 'member-2'],
      one: 'member-1',
      one_ref: ids[1],
      dotted: 'member-0',
      removed: [],
      refs_map: refsMap,
      by_name: { 0: 'member-0', 1: 'member-1', 2: 'member-2' },
      absent: null,
      after,
    });
    // Every attribute, the derived maps included, and nothing internal.
    const all = whole as Record<string, unknown>;
    assert.deepEqual(all.refs_map, refsMap);
    assert.equal(all['resource.2'], ids[2]);
    assert.equal(all['resource.2.output'], 'member-2');
    assert.deepEqual(all.output, ['member-0', 'member-1', 'member-2']);
    assert.equal(all['OS::stack_id'], c.id);
    assert.equal(Object.keys(all).filter((k) => k.startsWith('OS::member')).length, 0);
  });

  it('scales up and down: kept members keep their physical ids, the highest indexes go', async () => {
    const h = await Harness.create();
    await h.create('s', group(3));
    await h.settle();
    const before = (await members(h)).map((r) => [r.name, r.physicalId]);

    await h.update('s', group(5));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const grown = (await members(h)).map((r) => [r.name, r.physicalId]);
    assert.deepEqual(grown.slice(0, 3), before);
    assert.deepEqual(
      grown.map(([n]) => n),
      ['0', '1', '2', '3', '4'],
    );
    assert.equal((await h.outputs('s')).after, 'member-0,member-1,member-2,member-3,member-4');

    await h.update('s', group(2));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(
      (await members(h)).map((r) => [r.name, r.physicalId]),
      before.slice(0, 2),
    );
    assert.deepEqual(await values(h), ['member-0', 'member-0,member-1', 'member-1']);
    assert.deepEqual((await h.outputs('s')).outputs, ['member-0', 'member-1']);
  });

  it('removal_policies remove a middle member first, and its index is not reused', async () => {
    const h = await Harness.create();
    await h.create('s', group(3));
    await h.settle();
    const before = await members(h);

    await h.update('s', group(2, { policies: ['1'] }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const rows = await members(h);
    assert.deepEqual(
      rows.map((r) => [r.name, r.physicalId]),
      [
        ['0', before[0]!.physicalId],
        ['2', before[2]!.physicalId],
      ],
    );
    const out = await h.outputs('s');
    assert.deepEqual(out.removed, ['1']);
    assert.deepEqual(out.outputs, ['member-0', 'member-2']);

    // Growing again skips the removed index.
    await h.update('s', group(3, { policies: ['1'] }));
    await h.settle();
    assert.deepEqual(
      (await members(h)).map((r) => r.name),
      ['0', '2', '3'],
    );
    assert.deepEqual(await values(h), ['member-0', 'member-0,member-2,member-3', 'member-2', 'member-3']);
  });

  it('delete removes the members, the child stack and the group', async () => {
    const h = await Harness.create();
    await h.create('s', group(3));
    await h.settle();
    const c = await child(h);
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
    const gone = await h.deps.store.tx((tx) => tx.stacks.get(c.id));
    assert.ok(!gone || gone.deletedAt || `${gone.action}_${gone.status}` === 'DELETE_COMPLETE');
  });

  it('count 0 makes an empty group; an unknown member type fails validation', async () => {
    const h = await Harness.create();
    await h.create('s', group(0));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual((await h.outputs('s')).refs, []);
    await assert.rejects(
      h.create(
        'bad',
        group(1).replace(`type: ${T}\n        properties`, 'type: No::Such\n        properties'),
      ),
      /No::Such/,
    );
  });
});

describe('ResourceGroup update_policy', () => {
  const policyGroup = (value: string, policy: string) => `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    update_policy: ${policy}
    properties:
      count: 4
      resource_def: {type: ${T}, properties: {value: '${value}-%index%'}}
outputs:
  refs: {value: {get_attr: [group, refs]}}
`;

  /** The child's events of one status, as [member, time] in order. */
  async function childEvents(h: Harness, status: string): Promise<[string, number][]> {
    const c = await child(h);
    const events = await h.deps.store.tx((tx) => tx.events.list(c.id));
    return events
      .filter((e) => `${e.action}_${e.status}` === status)
      .map((e) => [e.resourceName, Date.parse(e.createdAt)] as [string, number]);
  }

  it('batch_create creates members in batches with a pause between them, hidden from the attributes', async () => {
    const h = await Harness.create();
    await h.create('s', policyGroup('a', '{batch_create: {max_batch_size: 2, pause_time: 30}}'));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const at = Object.fromEntries(await childEvents(h, 'CREATE_COMPLETE'));
    const started = Object.fromEntries(await childEvents(h, 'CREATE_IN_PROGRESS'));
    for (const second of ['2', '3'])
      for (const first of ['0', '1']) {
        assert.ok(
          started[second]! >= at[first]! + 30_000,
          `member ${second} waited for ${first} and the pause`,
        );
      }
    assert.equal(((await h.outputs('s')).refs as unknown[]).length, 4, 'the pauses are not members');
  });

  it('rolling_update updates at most max_batch_size members at a time, keeping min_in_service', async () => {
    const h = await Harness.create();
    const policy = '{rolling_update: {max_batch_size: 3, min_in_service: 3}}';
    await h.create('s', policyGroup('a', policy));
    await h.settle();
    const ids = (await members(h)).map((r) => r.physicalId);
    await h.update('s', policyGroup('b', policy));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    // count 4 - min_in_service 3: one member at a time, each after the one before it.
    const childId = (await child(h)).id;
    const events = await h.deps.store.tx((tx) => tx.events.list(childId));
    const seq = events
      .filter((e) => e.action === 'UPDATE' && /^\d+$/.test(e.resourceName))
      .map((e) => `${e.resourceName}:${e.status}`);
    assert.deepEqual(seq, [
      '0:IN_PROGRESS',
      '0:COMPLETE',
      '1:IN_PROGRESS',
      '1:COMPLETE',
      '2:IN_PROGRESS',
      '2:COMPLETE',
      '3:IN_PROGRESS',
      '3:COMPLETE',
    ]);
    assert.deepEqual(
      (await members(h)).map((r) => r.physicalId),
      ids,
      'updated in place',
    );
  });
});
