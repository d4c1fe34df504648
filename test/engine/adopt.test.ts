import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adoptStack } from '../../src/engine/operations/adopt.js';
import { ADOPT_KEY } from '../../src/engine/core/rows.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { emptyEnvironment } from '../../src/template/environment/index.js';
import { attr, P } from '../../src/template/properties/index.js';
import type { Json } from '../../src/util/json.js';
import { Harness } from './harness.js';

// The ADOPT traversal (engine/operations/adopt.ts, nodes/adopt-node.ts) on each store backend: rows take the document's physical
// ids and data, nothing is created, nested stacks are adopted from their entries.

const TYPE = 'Test::Adoptable';

/** A type whose create must never run during an adopt; its `size` attribute reads its data. */
function adoptable(calls: string[]): ResourcePlugin {
  return {
    type: TYPE,
    description: 'Counts its calls (tests only).',
    properties: { size: P.integer({ required: true, updateAllowed: true }) },
    attributes: { size: attr('The size its data holds.') },
    create: async (ctx) => {
      calls.push(`create ${ctx.resourceName}`);
      return { physicalId: `made-${ctx.resourceName}` };
    },
    adopt: async (ctx) => {
      calls.push(`adopt ${ctx.resourceName} ${ctx.physicalId}`);
    },
    delete: async (ctx) => {
      calls.push(`delete ${ctx.resourceName}`);
      return {};
    },
    getReality: async () => ({ state: 'present', properties: {} }),
    attribute: async (ctx, name) => (name === 'size' ? (ctx.data.size ?? null) : null),
  };
}

const TEMPLATE = {
  heat_template_version: '2018-08-31',
  parameters: { n: { type: 'number', default: 1 } },
  resources: {
    a: { type: TYPE, properties: { size: { get_param: 'n' } } },
    child: { type: 'file:///work/child.yaml', properties: { n: { get_attr: ['a', 'size'] } } },
  },
  outputs: { size: { value: { get_attr: ['child', 'size'] } } },
};
const CHILD = JSON.stringify({
  heat_template_version: '2018-08-31',
  parameters: { n: { type: 'number' } },
  resources: { b: { type: TYPE, properties: { size: { get_param: 'n' } } } },
  outputs: { size: { value: { get_attr: ['b', 'size'] } } },
});

function document(resources: Record<string, unknown>) {
  return {
    name: 'old',
    template: TEMPLATE,
    environment: { parameters: { n: 3 } },
    files: { 'file:///work/child.yaml': CHILD },
    resources,
  };
}
const FULL = {
  a: { resource_id: 'phys-a', resource_data: { size: 3 } },
  child: { id: 'old-child', resources: { b: { resource_id: 'phys-b', resource_data: { size: 30 } } } },
};

async function adopt(h: Harness, resources: Record<string, unknown>) {
  return adoptStack(h.deps, h.engine.cache, {
    name: 's',
    projectId: 'p',
    document: document(resources) as unknown as Json,
    environment: emptyEnvironment(),
  });
}

describe('engine: adopt', () => {
  it('records each resource with the physical id and data of its entry, creating nothing', async () => {
    const calls: string[] = [];
    const h = await Harness.create({ plugins: [adoptable(calls)], enableStackAdopt: true });
    const started = await adopt(h, FULL);
    assert.equal(`${started.action}_${started.status}`, 'ADOPT_IN_PROGRESS');
    await h.settle();
    assert.equal(await h.status('s'), 'ADOPT_COMPLETE');
    assert.deepEqual(calls.sort(), ['adopt a phys-a', 'adopt b phys-b']);
    const [a] = (await h.rows('s')).filter((r) => r.name === 'a');
    assert.deepEqual([a!.physicalId, a!.data, a!.properties], ['phys-a', { size: 3 }, { size: 3 }]);
    assert.equal(`${a!.action}_${a!.status}`, 'ADOPT_COMPLETE');
    const child = (await h.rows('s')).find((r) => r.name === 'child')!;
    assert.equal(ADOPT_KEY in child.data, false, 'the entry left the row');
    const children = await h.deps.store.tx((tx) => tx.stacks.children(started.id));
    assert.equal(children.length, 1);
    assert.equal(`${children[0]!.action}_${children[0]!.status}`, 'ADOPT_COMPLETE');
    assert.equal(child.physicalId, children[0]!.id);
    const [b] = await h.deps.store.tx((tx) => tx.resources.listActive(children[0]!.id));
    assert.deepEqual([b!.physicalId, b!.data, b!.properties], ['phys-b', { size: 30 }, { size: 3 }]);
    assert.deepEqual(await h.outputs('s'), { size: 30 });

    // Adopted resources are the stack's own: a delete deletes them.
    await h.delete('s');
    await h.settle();
    assert.deepEqual(calls.filter((c) => c.startsWith('delete')).sort(), ['delete a', 'delete b']);
  });

  it('fails a resource the document lacks (or gives no id), as Heat does, and creates nothing', async () => {
    const calls: string[] = [];
    const h = await Harness.create({ plugins: [adoptable(calls)], enableStackAdopt: true });
    await adopt(h, { child: FULL.child, a: { resource_data: {} } });
    await h.settle();
    assert.equal(await h.status('s'), 'ADOPT_FAILED');
    assert.equal(
      (await h.stack('s')).reason,
      'Resource ADOPT failed: Exception: resources.a: Resource ID was not provided (its entry in the adopt data has no resource_id)',
    );
    assert.deepEqual(calls, []);

    const h2 = await Harness.create({ plugins: [adoptable(calls)], enableStackAdopt: true });
    await adopt(h2, { a: FULL.a });
    await h2.settle();
    const child = (await h2.rows('s')).find((r) => r.name === 'child')!;
    assert.equal(`${child.action}_${child.status}`, 'ADOPT_FAILED');
    assert.match(child.reason, /Resource ID was not provided \(the adopt data has no nested stack for it\)/);
    assert.deepEqual(calls, ['adopt a phys-a']);
  });
});
