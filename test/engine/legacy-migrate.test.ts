import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineSettings } from '../../src/engine/core/deps.js';
import { migrateAll, migrateOnUpdate, migrateStack } from '../../src/engine/legacy/migrate.js';
import { initRow } from '../../src/engine/core/rows.js';
import { environmentJSON, TemplateCache } from '../../src/engine/core/templates.js';
import type { StackRecord } from '../../src/store/contract.js';
import { DEFAULT_LIMITS } from '../../src/template/limits.js';
import { Harness } from './harness.js';
import { legacyShape, snapshot, treeOf } from './legacy-shape.js';

// `hearth manage migrate-convergence` and convergence_migrate_on_update: a legacy stack tree
// (legacy-shape.ts) gets what convergence keeps on its rows, and then behaves as a convergence stack.

const T = 'OS::Heat::TestResource';

const NESTED = `heat_template_version: 2018-08-31
parameters:
  value: {type: string}
resources:
  first: {type: ${T}, properties: {value: {get_param: value}}}
  second: {type: ${T}, properties: {value: {list_join: ['-', [{get_attr: [first, output]}, two]]}}}
outputs:
  out: {value: {get_attr: [second, output]}}
`;

const MEMBER = `heat_template_version: 2018-08-31
parameters:
  name: {type: string}
resources:
  x: {type: ${T}, properties: {value: {get_param: name}}}
  y: {type: ${T}, depends_on: x, properties: {value: y}}
outputs:
  out: {value: {get_attr: [x, output]}}
`;

const FILES = { 'nested.yaml': NESTED, 'member.yaml': MEMBER };

/** A template resource, a ResourceGroup of template members, and resources that need them. */
function tree(value: string, wait = 0): string {
  return `heat_template_version: 2018-08-31
resources:
  base: {type: ${T}, properties: {value: ${value}, action_wait_secs: {update: ${wait}}}}
  nested: {type: nested.yaml, properties: {value: {get_attr: [base, output]}}}
  group:
    type: OS::Heat::ResourceGroup
    depends_on: base
    properties:
      count: 2
      resource_def: {type: member.yaml, properties: {name: 'm-%index%'}}
  after: {type: ${T}, depends_on: group, properties: {value: {get_attr: [nested, out]}}}
  joined: {type: ${T}, properties: {value: {list_join: [',', {get_attr: [group, out]}]}}}
outputs:
  after: {value: {get_attr: [after, output]}}
`;
}

/** a <- b, and c alone. */
function flat(c: string): string {
  return `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
  c: {type: ${T}, properties: {value: ${c}}}
`;
}

/**
 * What convergence records of a tree, by stack (its path of parent resources) and resource name:
 * the names of the rows each row requires, and whether it points at its stack's template.
 */
async function graphOf(h: Harness, rootId: string): Promise<Record<string, Record<string, unknown>>> {
  const { stacks, rows } = await snapshot(h.deps.store, rootId);
  const path = new Map<string, string>();
  for (const s of stacks) path.set(s.id, s.parentId ? `${path.get(s.parentId)}/${s.parentResource}` : '');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const graph: Record<string, Record<string, unknown>> = {};
  for (const row of rows) {
    const stack = stacks.find((s) => s.id === row.stackId)!;
    const requires = row.requires.map((id) => byId.get(id)?.name ?? `missing ${id}`).sort();
    (graph[path.get(stack.id)!] ??= {})[row.name] = {
      requires,
      template: row.templateId === stack.templateId ? 'current' : row.templateId,
    };
  }
  return graph;
}

async function created(h: Harness, name: string, text: string): Promise<StackRecord> {
  await h.create(name, text, { files: FILES });
  await h.settle();
  assert.equal(await h.status(name), 'CREATE_COMPLETE');
  return h.stack(name);
}

async function legacy(h: Harness, name: string, text: string): Promise<StackRecord> {
  const stack = await created(h, name, text);
  await legacyShape(h.deps.store, stack.id);
  return h.stack(name);
}

/** A cache of its own: nothing bound at create time helps the migration. */
function freshCache(h: Harness): TemplateCache {
  return new TemplateCache(h.deps.plugins.typeCatalog, DEFAULT_LIMITS);
}

describe('migrating legacy stacks to convergence', () => {
  it('a tree with nested stacks gets the flags, traversal ids and the graph a convergence create records', async () => {
    const h = await Harness.create();
    const twin = await created(h, 'twin', tree('one'));
    const stack = await legacy(h, 's', tree('one'));
    // The legacy rollback target (an earlier template of the stack) is released.
    const prev = await h.deps.store.tx((tx) => tx.templates.get(stack.templateId!));
    await h.deps.store.tx((tx) => tx.templates.insert({ ...prev!, id: 'legacy-prev' }, stack.id));
    await legacyShape(h.deps.store, stack.id, 'legacy-prev');
    const before = await snapshot(h.deps.store, stack.id);
    assert.equal(before.stacks.length, 5, 'root, template resource, group and its two members');
    assert.ok(before.stacks.every((s) => !s.convergence && s.traversalId === ''));
    assert.ok(before.rows.every((r) => r.requires.length === 0 && r.templateId === null));

    const result = await migrateStack(h.deps, freshCache(h), stack.id);
    assert.equal(result?.outcome, 'migrated');
    assert.deepEqual(result.outcome === 'migrated' && [result.stacks, result.resources], [5, 13]);

    const after = await snapshot(h.deps.store, stack.id);
    for (const s of after.stacks) {
      assert.equal(s.convergence, true, s.name);
      assert.match(s.traversalId, /^[0-9a-f-]{36}$/, s.name);
      assert.equal(s.prevTemplateId, null, s.name);
      assert.equal(`${s.action}_${s.status}`, 'CREATE_COMPLETE');
    }
    assert.equal(new Set(after.stacks.map((s) => s.traversalId)).size, 5, 'a traversal id per stack');
    assert.equal(await h.deps.store.tx((tx) => tx.templates.get('legacy-prev')), undefined);

    const graph = await graphOf(h, stack.id);
    assert.deepEqual(graph, await graphOf(h, twin.id));
    assert.deepEqual(graph['']!.after, { requires: ['group', 'nested'], template: 'current' });
    assert.deepEqual(graph['/group/1']!.y, { requires: ['x'], template: 'current' });
  });

  it('then an update is accepted while another runs, the newest template wins, and delete works', async () => {
    const h = await Harness.create();
    const stack = await legacy(h, 's', tree('one'));
    assert.equal((await migrateStack(h.deps, freshCache(h), stack.id))?.outcome, 'migrated');

    await h.update('s', tree('two', 10), { files: FILES });
    await h.round(); // base's update starts and waits
    assert.equal(await h.status('s'), 'UPDATE_IN_PROGRESS');
    await h.update('s', tree('three'), { files: FILES });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await h.outputs('s'), { after: 'three-two' });
    const values = (await h.live()).map((o) => String(o.properties.value)).sort();
    assert.deepEqual(
      values,
      ['m-0', 'm-1', 'm-0,m-1', 'three', 'three', 'three-two', 'three-two', 'y', 'y'].sort(),
    );

    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
  });

  it('the first update after it leaves unchanged resources alone (their rows record their graph)', async () => {
    const h = await Harness.create();
    const stack = await legacy(h, 's', flat('c1'));
    await migrateStack(h.deps, freshCache(h), stack.id);
    const key = async () => new Map((await h.rows('s')).map((r) => [r.name, r.atomicKey]));
    const before = await key();
    await h.update('s', flat('c2'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const after = await key();
    assert.equal(after.get('a'), before.get('a'), 'a: no node ran');
    assert.equal(after.get('b'), before.get('b'), 'b: no node ran (its requires match)');
    assert.notEqual(after.get('c'), before.get('c'), 'c was updated');
  });

  it('requires name the row that carries a name now, not a replaced one', async () => {
    const h = await Harness.create();
    const stack = await legacy(h, 's', flat('c1'));
    const rows = await h.rows('s');
    const a = rows.find((r) => r.name === 'a')!;
    // An old row of `a` the legacy engine replaced and has not deleted yet.
    const [old] = await h.deps.store.tx((tx) =>
      tx.resources.insert([{ ...a, uuid: 'old-a', physicalId: null, replacedBy: a.id }]),
    );
    await migrateStack(h.deps, freshCache(h), stack.id);
    const migrated = await h.rows('s');
    assert.deepEqual(migrated.find((r) => r.name === 'b')!.requires, [a.id]);
    assert.equal(migrated.find((r) => r.id === old!.id)!.templateId, null, 'the old row is not current');

    await h.update('s', flat('c2'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual((await h.rows('s')).map((r) => r.name).sort(), ['a', 'b', 'c'], 'the old row went');
  });

  it('leaves a tree with an operation running alone, and a second run changes nothing', async () => {
    const h = await Harness.create();
    const stack = await legacy(h, 's', tree('one'));
    const [, child] = await h.deps.store.tx((tx) => treeOf(tx, stack.id));
    await h.deps.store.tx((tx) =>
      tx.stacks.update(child!.id, null, { action: 'UPDATE', status: 'IN_PROGRESS' }),
    );
    const untouched = await snapshot(h.deps.store, stack.id);
    const busy = await migrateStack(h.deps, freshCache(h), stack.id);
    assert.equal(busy?.outcome, 'in_progress');
    assert.equal(busy.outcome === 'in_progress' && busy.stack.id, child!.id);
    assert.deepEqual(await snapshot(h.deps.store, stack.id), untouched);

    await h.deps.store.tx((tx) => tx.stacks.update(child!.id, null, { status: 'FAILED' }));
    assert.equal((await migrateStack(h.deps, freshCache(h), stack.id))?.outcome, 'failed');

    await h.deps.store.tx((tx) =>
      tx.stacks.update(child!.id, null, { action: 'CREATE', status: 'COMPLETE' }),
    );
    assert.equal((await migrateStack(h.deps, freshCache(h), stack.id))?.outcome, 'migrated');
    const once = await snapshot(h.deps.store, stack.id);
    // Named by one of its nested stacks, the tree is found by its root.
    const again = await migrateStack(h.deps, freshCache(h), child!.id);
    assert.equal(again?.outcome, 'already');
    assert.equal(again.root.id, stack.id);
    assert.deepEqual(await snapshot(h.deps.store, stack.id), once);
    assert.equal(await migrateStack(h.deps, freshCache(h), 'no-such-stack'), undefined);
  });

  it('--all migrates every legacy top-level stack with its nested stacks and counts the others', async () => {
    const h = await Harness.create();
    const one = await legacy(h, 'one', tree('one'));
    const two = await legacy(h, 'two', flat('c'));
    const busy = await legacy(h, 'busy', flat('c'));
    await h.deps.store.tx((tx) =>
      tx.stacks.update(busy.id, null, { action: 'UPDATE', status: 'IN_PROGRESS' }),
    );
    await created(h, 'modern', flat('c'));

    const summary = await migrateAll(h.deps, freshCache(h));
    assert.deepEqual(summary.migrated.map((r) => r.root.name).sort(), ['one', 'two']);
    assert.deepEqual(
      summary.inProgress.map((r) => r.root.name),
      ['busy'],
    );
    assert.equal(summary.already, 1, 'modern; nested stacks are not counted');
    assert.deepEqual([summary.failed, summary.errors], [[], []]);
    for (const id of [one.id, two.id]) {
      assert.ok((await snapshot(h.deps.store, id)).stacks.every((s) => s.convergence));
    }
    const again = await migrateAll(h.deps, freshCache(h));
    assert.deepEqual([again.migrated.length, again.inProgress.length, again.already], [0, 1, 3]);
  });
});

describe('convergence_migrate_on_update', () => {
  it('on: an update of a legacy stack migrates its tree in the transaction that begins the traversal', async () => {
    const h = await Harness.create();
    (h.deps.settings as EngineSettings).convergenceMigrateOnUpdate = true;
    const stack = await legacy(h, 's', tree('one'));
    await h.update('s', tree('two'), { files: FILES });
    const running = await snapshot(h.deps.store, stack.id);
    assert.equal(`${running.stacks[0]!.action}_${running.stacks[0]!.status}`, 'UPDATE_IN_PROGRESS');
    assert.ok(running.stacks.every((s) => s.convergence));
    assert.ok(await h.deps.store.tx((tx) => tx.traversals.get(running.stacks[0]!.traversalId)));
    assert.equal(running.stacks[0]!.prevTemplateId, stack.templateId, 'the rollback target');
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await h.outputs('s'), { after: 'two-two' });
    assert.ok((await snapshot(h.deps.store, stack.id)).stacks.every((s) => s.status === 'COMPLETE'));
  });

  it('off (the default), or a stack already converging: the stack is returned as it is', async () => {
    const h = await Harness.create();
    const stack = await legacy(h, 's', flat('c'));
    const before = await snapshot(h.deps.store, stack.id);
    const same = await h.deps.store.tx((tx) => migrateOnUpdate(tx, h.deps, freshCache(h), stack));
    assert.equal(same, stack);
    assert.deepEqual(await snapshot(h.deps.store, stack.id), before);
    (h.deps.settings as EngineSettings).convergenceMigrateOnUpdate = true;
    const modern = await created(h, 'modern', flat('c'));
    assert.equal(await h.deps.store.tx((tx) => migrateOnUpdate(tx, h.deps, freshCache(h), modern)), modern);
  });
});

describe('migrating at scale', () => {
  const N = 10_000;

  it(`migrates a ${N}-resource legacy stack in a few seconds (multi-row writes)`, async (t) => {
    const h = await Harness.create();
    // r<i> needs r<floor(i/2)>: a tree of dependencies, every row but the first requires one.
    const lines = Array.from({ length: N }, (_, i) =>
      i === 0
        ? `  r0: {type: ${T}, properties: {value: r0}}`
        : `  r${i}: {type: ${T}, properties: {value: {get_attr: [r${Math.floor(i / 2)}, output]}}}`,
    );
    const input = h.input(`heat_template_version: 2018-08-31\nresources:\n${lines.join('\n')}\n`);
    const now = h.clock.now();
    const id = 'big';
    const stack: StackRecord = {
      ...legacyRecord(h, id),
      templateId: 'big-template',
    };
    await h.deps.store.tx(async (tx) => {
      await tx.templates.insert(
        {
          id: 'big-template',
          template: input.text,
          url: input.url,
          files: {},
          environment: environmentJSON(input.environment),
          createdAt: new Date(now).toISOString(),
        },
        id,
      );
      await tx.stacks.insert(stack);
      await tx.resources.insert(
        Array.from({ length: N }, (_, i) => ({
          ...initRow({ stackId: id, rootStackId: id, name: `r${i}`, type: T }, now),
          action: 'CREATE' as const,
          physicalId: `phys-${i}`,
        })),
      );
    });

    const start = performance.now();
    const result = await migrateStack(h.deps, freshCache(h), id);
    const ms = Math.round(performance.now() - start);
    t.diagnostic(`migrated ${N} resources in ${ms} ms`);
    assert.deepEqual(result?.outcome === 'migrated' && result.resources, N);
    assert.ok(ms < 15_000, `migrating took ${ms} ms`);
    const rows = await h.deps.store.tx((tx) => tx.resources.listHeads(id));
    const byName = new Map(rows.map((r) => [r.name, r]));
    for (const i of [1, 2, 4_999, N - 1]) {
      assert.deepEqual(byName.get(`r${i}`)!.requires, [byName.get(`r${Math.floor(i / 2)}`)!.id], `r${i}`);
    }
    assert.ok(rows.every((r) => r.templateId === 'big-template'));
  });
});

/** A settled legacy top-level stack's record. */
function legacyRecord(h: Harness, id: string): StackRecord {
  return {
    id,
    name: id,
    projectId: 'p',
    parentId: null,
    parentResource: null,
    rootId: id,
    action: 'CREATE',
    status: 'COMPLETE',
    reason: 'Stack CREATE completed successfully',
    traversalId: '',
    templateId: null,
    prevTemplateId: null,
    convergence: false,
    timeoutMins: null,
    disableRollback: true,
    tags: [],
    createdAt: new Date(h.clock.now()).toISOString(),
    updatedAt: null,
    deletedAt: null,
    observe: null,
    credentials: null,
  };
}
