import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SqlStore } from '../../src/store/sql/index.js';
import { Harness } from './harness.js';

// Past one PostgreSQL, the schema is distributed by root stack: every row a traversal touches
// must carry its tree's root stack id, the same on every row of the tree. (`after` waits on one
// resource: a direct dependent, it gets no input row; `joined` waits on two, and gets them.)

const CHILD = `heat_template_version: 2018-08-31
resources:
  leaf: {type: OS::Heat::TestResource, properties: {value: child}}
outputs:
  out: {value: {get_attr: [leaf, output]}}
`;

const parent = (value: string) => `heat_template_version: 2018-08-31
resources:
  nested: {type: child.yaml}
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: OS::Heat::TestResource, properties: {value: ${value}}}
  after: {type: OS::Heat::TestResource, properties: {value: {get_attr: [nested, out]}}}
  joined:
    type: OS::Heat::TestResource
    properties: {value: {list_join: ['-', [{get_attr: [nested, out]}, {get_resource: group}]]}}
`;

/** Tables whose rows belong to one stack tree, and how to find the root a row should carry. */
const TREE_TABLES: Record<string, string> = {
  stacks: 'SELECT root_stack_id AS expected, root_stack_id AS actual FROM stacks',
  resources:
    'SELECT s.root_stack_id AS expected, r.root_stack_id AS actual FROM resources r JOIN stacks s ON s.id = r.stack_id',
  events:
    'SELECT s.root_stack_id AS expected, e.root_stack_id AS actual FROM events e JOIN stacks s ON s.id = e.stack_id',
  traversals:
    'SELECT s.root_stack_id AS expected, t.root_stack_id AS actual FROM traversals t JOIN stacks s ON s.id = t.stack_id',
  sync_points:
    'SELECT s.root_stack_id AS expected, p.root_stack_id AS actual FROM sync_points p JOIN stacks s ON s.id = p.stack_id',
  sync_inputs:
    'SELECT t.root_stack_id AS expected, i.root_stack_id AS actual FROM sync_inputs i JOIN traversals t ON t.id = i.traversal_id',
  work: 'SELECT s.root_stack_id AS expected, w.root_stack_id AS actual FROM work w JOIN stacks s ON s.id = w.stack_id',
  templates: `SELECT s.root_stack_id AS expected, t.root_stack_id AS actual FROM templates t
    JOIN stacks s ON s.template_id = t.id OR s.prev_template_id = t.id`,
};

async function checkRoots(h: Harness, seen: Map<string, number>): Promise<void> {
  const { driver } = h.deps.store as SqlStore;
  for (const [table, sql] of Object.entries(TREE_TABLES)) {
    const rows = await driver.query(sql);
    seen.set(table, (seen.get(table) ?? 0) + rows.length);
    const wrong = rows.filter((r) => r.actual === null || r.actual !== r.expected);
    assert.deepEqual(wrong, [], `${table}: rows without their tree's root stack id`);
  }
}

describe('root stack id on every row of a tree', () => {
  it('parent, nested stack and group rows all carry the root, mid-traversal and after', async () => {
    const h = await Harness.create();
    const seen = new Map<string, number>();
    const files = { 'child.yaml': CHILD };
    await h.create('tree', parent('one'), { files });
    // Mid-traversal: sync points, inputs and queued work exist now.
    for (let i = 0; i < 3; i++) {
      await h.round();
      await checkRoots(h, seen);
    }
    await h.settle();
    assert.equal(await h.status('tree'), 'CREATE_COMPLETE');
    await h.update('tree', parent('two'), { files });
    await h.round();
    await checkRoots(h, seen);
    await h.settle();
    assert.equal(await h.status('tree'), 'UPDATE_COMPLETE');
    await checkRoots(h, seen);
    for (const table of Object.keys(TREE_TABLES)) assert.ok(seen.get(table)! > 0, `${table} was checked`);
  });
});
