import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceRecord } from '../../src/store/contract.js';
import { Harness } from './harness.js';

// OS::Heat::ResourceChain: a generated child stack of one member per listed type, each depending
// on the one before it unless `concurrent` (Heat's resource_chain.py).

const T = 'OS::Heat::TestResource';

function chain(types: string[], options: { concurrent?: boolean; props?: string } = {}): string {
  return `heat_template_version: 2018-08-31
resources:
  chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: ${JSON.stringify(types)}
      concurrent: ${options.concurrent ?? false}
      resource_properties: ${options.props ?? "{value: 'v'}"}
outputs:
  refs: {value: {get_attr: [chain, refs]}}
  refs_map: {value: {get_attr: [chain, refs_map]}}
  outputs: {value: {get_attr: [chain, output]}}
  by_name: {value: {get_attr: [chain, attributes, output]}}
  first_ref: {value: {get_attr: [chain, resource.0]}}
  second_output: {value: {get_attr: [chain, resource.1, output]}}
`;
}

async function members(h: Harness): Promise<ResourceRecord[]> {
  const top = await h.stack('s');
  const [child] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
  assert.ok(child, 'the chain has a child stack');
  const rows = await h.deps.store.tx((tx) => tx.resources.listActive(child.id));
  return rows.sort((a, b) => Number(a.name) - Number(b.name));
}

/** The order members were created in, from their CREATE_COMPLETE events. */
async function createOrder(h: Harness): Promise<string[]> {
  const top = await h.stack('s');
  const [child] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
  const events = await h.deps.store.tx((tx) => tx.events.list(child!.id));
  return events
    .filter((e) => e.action === 'CREATE' && e.status === 'COMPLETE' && e.resourceName !== child!.name)
    .map((e) => e.resourceName);
}

describe('OS::Heat::ResourceChain', () => {
  it('creates one member per type, in order, each given resource_properties; group-like attributes', async () => {
    const h = await Harness.create();
    await h.create('s', chain([T, T, T]));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const rows = await members(h);
    assert.deepEqual(
      rows.map((r) => [r.name, r.type, r.properties?.value]),
      [
        ['0', T, 'v'],
        ['1', T, 'v'],
        ['2', T, 'v'],
      ],
    );
    // Each member depends on the one before it: created one after the other.
    assert.deepEqual(
      rows.map((r) => r.requires),
      [[], [rows[0]!.id], [rows[1]!.id]],
    );
    assert.deepEqual(await createOrder(h), ['0', '1', '2']);
    const ids = rows.map((r) => r.physicalId);
    assert.deepEqual(await h.outputs('s'), {
      refs: ids,
      refs_map: { 0: ids[0], 1: ids[1], 2: ids[2] },
      outputs: ['v', 'v', 'v'],
      by_name: { 0: 'v', 1: 'v', 2: 'v' },
      first_ref: ids[0],
      second_output: 'v',
    });
  });

  it('concurrent: no member depends on another', async () => {
    const h = await Harness.create();
    await h.create('s', chain([T, T, T], { concurrent: true }));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(
      (await members(h)).map((r) => r.requires),
      [[], [], []],
    );
  });

  it('updates: members added at the end, a changed type replaced, members past the end removed', async () => {
    const h = await Harness.create();
    await h.create('s', chain([T, T]));
    await h.settle();
    const before = await members(h);

    await h.update('s', chain([T, T, T]));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const grown = await members(h);
    assert.deepEqual(
      grown.map((r) => r.physicalId).slice(0, 2),
      before.map((r) => r.physicalId),
      'kept members keep their physical ids',
    );
    assert.deepEqual(grown[2]!.requires, [grown[1]!.id], 'the new member follows the last one');

    await h.update('s', chain(['OS::Heat::None', T], { props: '{}' }));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const shrunk = await members(h);
    assert.deepEqual(
      shrunk.map((r) => [r.name, r.type]),
      [
        ['0', 'OS::Heat::None'],
        ['1', T],
      ],
    );
    assert.notEqual(shrunk[0]!.physicalId, before[0]!.physicalId, 'a member whose type changed is replaced');
    assert.equal((await h.live()).length, 1, 'the replaced and removed members are deleted');
    assert.deepEqual((await h.outputs('s')).refs, [shrunk[0]!.physicalId, shrunk[1]!.physicalId]);
  });

  it('refuses an unknown member type at validation, naming its position', async () => {
    const h = await Harness.create();
    await assert.rejects(h.create('bad', chain([T, 'No::Such'])), /No::Such/);
    await h.create('empty', chain([]));
    await h.settle();
    assert.equal(await h.status('empty'), 'CREATE_COMPLETE');
    assert.deepEqual((await h.outputs('empty')).refs, []);
  });
});
