import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { markUnhealthy } from '../../src/engine/operations/lifecycle.js';
import { type PreviewedChange, previewStackUpdate } from '../../src/engine/operations/preview.js';
import type { EventRecord } from '../../src/store/contract.js';
import { Harness } from './harness.js';

// The update preview asks the engine's own deciders, so it must agree with what the update then
// does: each resource's category is checked against the events and rows the update leaves.

const T = 'OS::Heat::TestResource';

const V1 = `heat_template_version: 2018-08-31
resources:
  same: {type: ${T}, properties: {value: s}}
  inplace: {type: ${T}, properties: {value: one}}
  follows: {type: ${T}, properties: {value: {get_attr: [inplace, output]}}}
  ordered: {type: ${T}, properties: {value: o}, depends_on: inplace}
  fixed: {type: ${T}, properties: {value: f, update_replace_value: one}}
  retyped: {type: ${T}, properties: {value: r}}
  sick: {type: ${T}, properties: {value: k}}
  flagged: {type: ${T}, properties: {value: x}}
  dropped: {type: ${T}, properties: {value: d}}
`;
const V2 = `heat_template_version: 2018-08-31
resources:
  same: {type: ${T}, properties: {value: s}}
  inplace: {type: ${T}, properties: {value: two}}
  follows: {type: ${T}, properties: {value: {get_attr: [inplace, output]}}}
  ordered: {type: ${T}, properties: {value: o}, depends_on: inplace}
  fixed: {type: ${T}, properties: {value: f, update_replace_value: two}}
  retyped: {type: OS::Heat::None}
  sick: {type: ${T}, properties: {value: k}}
  flagged: {type: ${T}, properties: {value: y, update_replace: true}}
  added: {type: ${T}, properties: {value: {get_resource: fixed}}}
`;

/** What the update did to each resource, read from its events (and whether a row is new). */
function observed(events: readonly EventRecord[], before: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of events) {
    if (e.resourceType === 'OS::Heat::Stack' || e.status !== 'COMPLETE') continue;
    if (e.action === 'UPDATE') out[e.resourceName] = 'updated';
    else if (e.action === 'CREATE') out[e.resourceName] = before.has(e.resourceName) ? 'replaced' : 'added';
    else if (e.action === 'DELETE' && out[e.resourceName] === undefined) out[e.resourceName] = 'deleted';
  }
  return out;
}

function byName(changes: readonly PreviewedChange[]): Record<string, string> {
  return Object.fromEntries(changes.map((c) => [c.name, c.change]));
}

describe('update preview (preview.ts)', () => {
  it('classifies each resource as the update then treats it, and writes nothing', async () => {
    const h = await Harness.create();
    await h.create('s', V1);
    await h.settle();
    const stack = await findStack(h.deps, 'p', 's');
    await markUnhealthy(h.deps, stack.id, 'sick', 'testing');
    const rowsBefore = await h.rows('s');
    const eventsBefore = await h.deps.store.tx((tx) => tx.events.list(stack.id));

    const changes = await previewStackUpdate(
      h.deps,
      h.engine.cache,
      stack.id,
      { template: h.input(V2) },
      false,
    );
    assert.deepEqual(await h.rows('s'), rowsBefore, 'no row written');
    assert.equal((await h.deps.store.tx((tx) => tx.events.list(stack.id))).length, eventsBefore.length);
    assert.equal((await h.stack('s')).status, 'COMPLETE');

    const predicted = byName(changes);
    assert.deepEqual(predicted, {
      same: 'unchanged',
      inplace: 'updated',
      follows: 'updated',
      ordered: 'unchanged',
      fixed: 'replaced',
      retyped: 'replaced',
      sick: 'replaced',
      flagged: 'replaced',
      added: 'added',
      dropped: 'deleted',
    });

    await h.update('s', V2);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const events = (await h.deps.store.tx((tx) => tx.events.list(stack.id))).slice(eventsBefore.length);
    const did = observed(events, new Set(rowsBefore.map((r) => r.name)));
    const expected = Object.fromEntries(Object.entries(predicted).filter(([, c]) => c !== 'unchanged'));
    assert.deepEqual(did, expected, 'the update did what the preview said, and nothing to the unchanged');
  });
});

// A ResourceGroup's members are a generated child stack: --show-nested classifies them too.
const group = (count: number, value: string) => `heat_template_version: 2018-08-31
resources:
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}
      resource_def: {type: ${T}, properties: {value: ${value}}}
`;

describe('update preview of a nested-stack type (ResourceGroup)', () => {
  it('shows the members an update would add, update and delete, as the update then does', async () => {
    const h = await Harness.create();
    await h.create('s', group(3, 'a'));
    await h.settle();
    const stack = await findStack(h.deps, 'p', 's');
    const grow = await previewStackUpdate(
      h.deps,
      h.engine.cache,
      stack.id,
      { template: h.input(group(4, 'a')) },
      true,
    );
    assert.deepEqual(
      grow.map((c) => [c.path.join('/'), c.name, c.change]),
      [
        ['', 'g', 'updated'],
        ['g', '0', 'unchanged'],
        ['g', '1', 'unchanged'],
        ['g', '2', 'unchanged'],
        ['g', '3', 'added'],
      ],
    );
    const change = await previewStackUpdate(
      h.deps,
      h.engine.cache,
      stack.id,
      { template: h.input(group(2, 'b')) },
      true,
    );
    assert.deepEqual(
      change.filter((c) => c.path.length > 0).map((c) => [c.name, c.change]),
      [
        ['0', 'updated'],
        ['1', 'updated'],
        ['2', 'deleted'],
      ],
    );
    const flat = await previewStackUpdate(
      h.deps,
      h.engine.cache,
      stack.id,
      { template: h.input(group(2, 'b')) },
      false,
    );
    assert.deepEqual(
      flat.map((c) => c.name),
      ['g'],
      'without show_nested the members are not listed',
    );
  });

  it('a create preview lists the members a group would make', async () => {
    const h = await Harness.create();
    const { previewStackCreate } = await import('../../src/engine/operations/preview.js');
    const made = await previewStackCreate(h.deps, h.engine.cache, {
      name: 'n',
      projectId: 'p',
      template: h.input(group(2, 'a')),
    });
    assert.deepEqual(
      made.resources.map((r) => [r.path.join('/'), r.name, r.type]),
      [
        ['', 'g', 'OS::Heat::ResourceGroup'],
        ['g', '0', T],
        ['g', '1', T],
      ],
    );
  });
});
