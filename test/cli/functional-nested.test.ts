import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outputValues, params, type ResourceRow, statuses, T, Workdir } from './workdir.js';

// Heat's functional tests of nested stacks, end to end through the CLI: template resources by file
// name and through the environment's resource_registry, and OS::Heat::Stack
// (test_template_resource.py, test_nested_get_attr.py, test_create_update.py's provider tests),
// and OS::Heat::ResourceGroup scaling (test_resource_group.py).

const HOT = 'heat_template_version: 2018-08-31';

const CHILD = `${HOT}
parameters:
  value: {type: string}
resources:
  first: {type: ${T}, properties: {value: {get_param: value}}}
  second: {type: ${T}, properties: {value: {list_join: ['-', [{get_attr: [first, output]}, child]]}}}
outputs:
  out: {value: {get_attr: [second, output]}}
`;

/** Two levels: a template resource whose template has a template resource. */
const MIDDLE = `${HOT}
parameters:
  value: {type: string}
resources:
  inner: {type: child.yaml, properties: {value: {get_param: value}}}
outputs:
  out: {value: {get_attr: [inner, out]}}
`;

const PARENT = `${HOT}
parameters:
  word: {type: string, default: one}
resources:
  viafile: {type: child.yaml, properties: {value: {get_param: word}}}
  viareg: {type: My::Middle, properties: {value: reg}}
  inline:
    type: OS::Heat::Stack
    properties: {template: {get_file: child.yaml}, parameters: {value: inline}}
  after: {type: ${T}, properties: {value: {get_attr: [viafile, out]}}}
outputs:
  from_file: {value: {get_attr: [viafile, out]}}
  from_registry: {value: {get_attr: [viareg, out]}}
  from_inline: {value: {get_attr: [inline, outputs, out]}}
  after: {value: {get_attr: [after, output]}}
  file_ref: {value: {get_resource: viafile}}
`;

const ENV = `resource_registry:\n  My::Middle: middle.yaml\n`;

/** The rows of a listing by stack name, each as name → status. */
function byStack(rows: ResourceRow[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of rows) (out[r.stack_name!] ??= {})[r.resource_name] = r.resource_status;
  return out;
}

describe('nested stacks through the CLI (Heat functional tests)', { concurrency: true }, () => {
  it('template resources by file and by resource_registry (two levels), OS::Heat::Stack: create, update, delete', async () => {
    const w = new Workdir({
      'child.yaml': CHILD,
      'middle.yaml': MIDDLE,
      'parent.yaml': PARENT,
      'env.yaml': ENV,
    });
    await w.ok(['stack', 'create', 's', '-t', 'parent.yaml', '-e', 'env.yaml', '--wait']);

    const top = await w.resources('s');
    assert.deepEqual(statuses(top), {
      viafile: 'CREATE_COMPLETE',
      viareg: 'CREATE_COMPLETE',
      inline: 'CREATE_COMPLETE',
      after: 'CREATE_COMPLETE',
    });
    assert.deepEqual(
      top.map((r) => r.resource_type),
      ['child.yaml', 'My::Middle', 'OS::Heat::Stack', T],
    );
    assert.ok(
      top.every((r) => r.stack_name === undefined),
      'no stack_name column without --nested-depth',
    );
    assert.deepEqual(await w.resources('s', 0), top);
    assert.deepEqual(outputValues(await w.show('s')), {
      from_file: 'one-child',
      from_registry: 'reg-child',
      from_inline: 'inline-child',
      after: 'one-child',
      file_ref: top[0]!.physical_resource_id,
    });

    // Each nested resource's physical id is its child stack, which can be shown by id.
    const shallow = await w.resources('s', 1);
    const stackOf = async (row: ResourceRow) => {
      const child = await w.show(row.physical_resource_id);
      assert.equal(child.id, row.physical_resource_id);
      assert.match(child.stack_name, new RegExp(`^${row.stack_name}-${row.resource_name}-`));
      assert.equal(child.stack_status, 'CREATE_COMPLETE');
      return child;
    };
    const [viafile, viareg, inline] = await Promise.all(
      shallow.filter((r) => r.stack_name === 's' && r.resource_name !== 'after').map((row) => stackOf(row)),
    );
    assert.deepEqual(
      shallow.map((r) => `${r.stack_name} ${r.resource_name}`),
      [
        's viafile',
        `${viafile!.stack_name} first`,
        `${viafile!.stack_name} second`,
        's viareg',
        `${viareg!.stack_name} inner`,
        's inline',
        `${inline!.stack_name} first`,
        `${inline!.stack_name} second`,
        's after',
      ],
      'one level down: each nested stack listed after its resource',
    );
    const deep = await w.resources('s', 2);
    const inner = await stackOf(deep.find((r) => r.resource_name === 'inner')!);
    const childRows = { first: 'CREATE_COMPLETE', second: 'CREATE_COMPLETE' };
    assert.deepEqual(byStack(deep), {
      s: statuses(top),
      [viafile!.stack_name]: childRows,
      [viareg!.stack_name]: { inner: 'CREATE_COMPLETE' },
      [inner.stack_name]: childRows,
      [inline!.stack_name]: childRows,
    });
    assert.equal(await w.attribute(inner.id, 'second'), 'reg-child', 'a nested stack answers on its own');

    // Update with a changed parameter and a changed child template: the nested stacks are updated
    // in place, the child template's new resource appears in each of them, two levels down too.
    w.write(
      'child.yaml',
      CHILD.replace('outputs:', `  third: {type: ${T}, properties: {value: three}}\noutputs:`),
    );
    await w.ok([
      'stack',
      'update',
      's',
      '-t',
      'parent.yaml',
      '-e',
      'env.yaml',
      ...params({ word: 'two' }),
      '--wait',
    ]);
    const updated = await w.resources('s', 2);
    const ids = (rows: ResourceRow[]) =>
      rows.map((r) => `${r.stack_name} ${r.resource_name} ${r.physical_resource_id}`);
    assert.deepEqual(
      ids(updated.filter((r) => r.resource_name !== 'third')),
      ids(deep),
      'the same nested stacks and resources, updated in place',
    );
    const grown = { ...childRows, third: 'CREATE_COMPLETE' };
    assert.deepEqual(byStack(updated), {
      s: {
        viafile: 'UPDATE_COMPLETE',
        viareg: 'UPDATE_COMPLETE',
        inline: 'UPDATE_COMPLETE',
        after: 'UPDATE_COMPLETE',
      },
      [viafile!.stack_name]: { ...grown, first: 'UPDATE_COMPLETE', second: 'UPDATE_COMPLETE' },
      [viareg!.stack_name]: { inner: 'UPDATE_COMPLETE' },
      [inner.stack_name]: grown,
      [inline!.stack_name]: grown,
    });
    assert.deepEqual(outputValues(await w.show('s')), {
      from_file: 'two-child',
      from_registry: 'reg-child',
      from_inline: 'inline-child',
      after: 'two-child',
      file_ref: viafile!.id,
    });

    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    assert.equal(await w.ok(['stack', 'list', '-f', 'value']), '');
    for (const child of [viafile!, viareg!, inner, inline!]) {
      const gone = await w.run(['stack', 'show', child.id]);
      assert.equal(gone.code, 1, `${child.stack_name} is deleted too`);
      assert.match(gone.stderr, /not found/);
    }
  });

  it('resource groups: rolling_update updates members one batch at a time, with the pause between', async () => {
    const group = (value: string) => `${HOT}
resources:
  group:
    type: OS::Heat::ResourceGroup
    update_policy: {rolling_update: {max_batch_size: 2, min_in_service: 1, pause_time: 1}}
    properties:
      count: 3
      resource_def: {type: ${T}, properties: {value: '${value}'}}
`;
    const w = new Workdir({ 'a.yaml': group('a'), 'b.yaml': group('b') });
    await w.ok(['stack', 'create', 's', '-t', 'a.yaml', '--wait']);
    assert.equal(await w.finished(['stack', 'update', 's', '-t', 'b.yaml', '--wait']), 'UPDATE_COMPLETE');
    const childId = (await w.resources('s')).find((r) => r.resource_name === 'group')!.physical_resource_id;
    const events = await w.events(childId);
    const at = (name: string, status: string) =>
      events.findIndex((e) => e.resource_name === name && e.resource_status === status);
    // Batches of two (3 members, one kept in service): 0 and 1, a pause, then 2.
    assert.ok(at('2', 'UPDATE_IN_PROGRESS') > at('0', 'UPDATE_COMPLETE'));
    assert.ok(at('2', 'UPDATE_IN_PROGRESS') > at('1', 'UPDATE_COMPLETE'));
    assert.ok(
      at('1', 'UPDATE_IN_PROGRESS') < at('0', 'UPDATE_COMPLETE') ||
        at('0', 'UPDATE_IN_PROGRESS') < at('1', 'UPDATE_COMPLETE'),
      'one batch runs together',
    );
    const pause = events.find(
      (e) => e.resource_name.startsWith('batch-pause-') && e.resource_status === 'CREATE_COMPLETE',
    );
    assert.ok(
      pause && events.indexOf(pause) < at('2', 'UPDATE_IN_PROGRESS'),
      'the pause comes between the batches',
    );
    const members = (await w.resources('s', 1)).filter((r) => /^\d+$/.test(r.resource_name));
    assert.deepEqual(
      members.map((r) => r.resource_status),
      ['UPDATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_COMPLETE'],
    );
  });

  it('resource groups scale up and down: survivors keep their names and ids; removal_policies', async () => {
    const w = new Workdir({
      'group.yaml': `${HOT}
parameters:
  count: {type: number, default: 2}
  remove: {type: comma_delimited_list, default: []}
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: {get_param: count}
      removal_policies: [{resource_list: {get_param: remove}}]
      resource_def: {type: ${T}, properties: {value: 'member-%index%'}}
  after: {type: ${T}, properties: {value: {list_join: [',', {get_attr: [group, output]}]}}}
outputs:
  values: {value: {get_attr: [group, output]}}
  refs: {value: {get_attr: [group, refs]}}
  after: {value: {get_attr: [after, output]}}
`,
    });
    await w.ok(['stack', 'create', 's', '-t', 'group.yaml', '--wait']);

    /** The group's members (name → physical id), checked against the outputs. */
    const members = async (): Promise<Record<string, string>> => {
      const rows = await w.resources('s', 1);
      const group = rows.find((r) => r.stack_name === 's' && r.resource_name === 'group')!;
      const child = rows.filter((r) => r.stack_name !== 's');
      assert.ok(child.every((r) => r.resource_type === T && r.resource_status.endsWith('_COMPLETE')));
      const names = child.map((r) => r.resource_name).sort((a, b) => Number(a) - Number(b));
      const ids = Object.fromEntries(child.map((r) => [r.resource_name, r.physical_resource_id]));
      const values = names.map((n) => `member-${n}`);
      assert.deepEqual(outputValues(await w.show('s')), {
        values,
        refs: names.map((n) => ids[n]),
        after: values.join(','),
      });
      assert.match((await w.show(group.physical_resource_id)).stack_status, /^(CREATE|UPDATE)_COMPLETE$/);
      return ids;
    };
    const two = await members();
    assert.deepEqual(Object.keys(two).sort(), ['0', '1']);

    await w.ok(['stack', 'update', 's', '--existing', ...params({ count: 4 }), '--wait']);
    const four = await members();
    assert.deepEqual(Object.keys(four).sort(), ['0', '1', '2', '3']);
    assert.deepEqual([four['0'], four['1']], [two['0'], two['1']], 'the first two are kept');

    // removal_policies: member 1 goes first, and its index is not reused.
    await w.ok(['stack', 'update', 's', '--existing', ...params({ count: 3, remove: '1' }), '--wait']);
    const three = await members();
    assert.deepEqual(three, { 0: four['0'], 2: four['2'], 3: four['3'] });

    // Scaling down removes the highest indexes.
    await w.ok(['stack', 'update', 's', '--existing', ...params({ count: 1 }), '--wait']);
    assert.deepEqual(await members(), { 0: two['0'] });
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
  });
});
