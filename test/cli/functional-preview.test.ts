import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snapshot } from './state-snapshot.js';
import { parseJson, T, Workdir } from './workdir.js';

// Heat's functional test test_preview_update (heat_integrationtests/functional/
// test_preview_update.py), end to end through the `hearth` CLI: `stack update --dry-run` sorts
// the resources into added, deleted, replaced, updated and unchanged, nested stacks' too with
// --show-nested; `stack create --dry-run` lists what a create would make. Neither writes
// anything: every table of the state database (but the engines' heartbeats) and of the
// reality's file is the same before and after.

const HOT = 'heat_template_version: 2013-05-23';

const test1 = (props = 'value: Test1') => `  test1:
    type: ${T}
    properties: {${props}, fail: false, update_replace: false, wait_secs: 0, action_wait_secs: {create: 1}}
`;
const test2 = `  test2:
    type: ${T}
    properties: {value: Test2, fail: false, update_replace: false, wait_secs: 0}
`;
const ONE = `${HOT}\nresources:\n${test1()}`;
const TWO = `${HOT}\nresources:\n${test1()}${test2}`;

type Entry = { resource_name: string; parent_resource: string | null; resource_type: string };
type Changes = Record<'unchanged' | 'updated' | 'replaced' | 'added' | 'deleted', Entry[]>;

/** `stack update --dry-run -f json` (extra arguments after the template), checking nothing was written. */
async function preview(w: Workdir, template: string, ...extra: string[]): Promise<Changes> {
  const before = snapshot(w);
  const out = await w.ok(['stack', 'update', 's', '-t', template, '--dry-run', ...extra, '-f', 'json']);
  assert.equal(snapshot(w), before, 'a preview writes nothing');
  return parseJson<{ resource_changes: Changes }>(out).resource_changes;
}

/** The names in each category (categories with none left out), as `name` or `parent/name`. */
function names(changes: Changes): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [change, entries] of Object.entries(changes)) {
    if (entries.length === 0) continue;
    out[change] = entries
      .map((e) => (e.parent_resource ? `${e.parent_resource}/${e.resource_name}` : e.resource_name))
      .sort();
  }
  return out;
}

describe('stack update --dry-run (Heat functional test_preview_update)', { concurrency: true }, () => {
  it('test_add_resource: the new resource is added, the other unchanged', async () => {
    const w = new Workdir({ 'one.yaml': ONE, 'two.yaml': TWO });
    await w.ok(['stack', 'create', 's', '-t', 'one.yaml', '--wait']);
    assert.deepEqual(names(await preview(w, 'two.yaml')), { unchanged: ['test1'], added: ['test2'] });
  });

  it('test_no_change: the same template changes nothing', async () => {
    const w = new Workdir({ 'one.yaml': ONE });
    await w.ok(['stack', 'create', 's', '-t', 'one.yaml', '--wait']);
    assert.deepEqual(names(await preview(w, 'one.yaml')), { unchanged: ['test1'] });
  });

  it('test_update_resource: a changed updatable property is an update in place, as the update then does', async () => {
    const w = new Workdir({
      'one.yaml': ONE,
      'new.yaml': `${HOT}\nresources:\n${test1('value: New Test1')}`,
    });
    await w.ok(['stack', 'create', 's', '-t', 'one.yaml', '--wait']);
    const before = await w.ids('s');
    assert.deepEqual(names(await preview(w, 'new.yaml')), { updated: ['test1'] });
    await w.ok(['stack', 'update', 's', '-t', 'new.yaml', '--wait']);
    assert.equal((await w.ids('s')).test1, before.test1, 'updated in place');
  });

  it('test_replaced_resource: update_replace with a new value is a replacement, as the update then does', async () => {
    const replaced = `${HOT}\nresources:\n  test1:\n    type: ${T}\n    properties: {update_replace: true}\n`;
    const w = new Workdir({ 'one.yaml': ONE, 'replaced.yaml': replaced });
    await w.ok(['stack', 'create', 's', '-t', 'one.yaml', '--wait']);
    const before = await w.ids('s');
    assert.deepEqual(names(await preview(w, 'replaced.yaml')), { replaced: ['test1'] });
    await w.ok(['stack', 'update', 's', '-t', 'replaced.yaml', '--wait']);
    assert.notEqual((await w.ids('s')).test1, before.test1, 'replaced');
  });

  it('test_delete_resource: a resource the template drops is deleted; a type change is a replacement', async () => {
    const retyped = `${HOT}\nresources:\n${test1()}  test2: {type: OS::Heat::None}\n`;
    const w = new Workdir({ 'one.yaml': ONE, 'two.yaml': TWO, 'retyped.yaml': retyped });
    await w.ok(['stack', 'create', 's', '-t', 'two.yaml', '--wait']);
    assert.deepEqual(names(await preview(w, 'one.yaml')), { unchanged: ['test1'], deleted: ['test2'] });
    assert.deepEqual(names(await preview(w, 'retyped.yaml')), { unchanged: ['test1'], replaced: ['test2'] });
  });

  it('a dependent of a changing resource is updated, one that only needs unchanged ones is not; a table lists each', async () => {
    const v = (value: string) => `${HOT}
resources:
  base: {type: ${T}, properties: {value: ${value}}}
  uses: {type: ${T}, properties: {value: {get_attr: [base, output]}}}
  after: {type: ${T}, properties: {value: fixed}, depends_on: base}
`;
    const w = new Workdir({ 'v1.yaml': v('one'), 'v2.yaml': v('two') });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    assert.deepEqual(names(await preview(w, 'v2.yaml')), { updated: ['base', 'uses'], unchanged: ['after'] });
    const table = await w.ok(['stack', 'update', 's', '-t', 'v2.yaml', '--dry-run']);
    assert.match(table, /\| state +\| resource_name +\|/);
    assert.match(table, /\| unchanged \| after +\|/);
    assert.match(table, /\| updated +\| base +\|/);
  });

  it('an --existing update with a new parameter value previews what that value changes', async () => {
    const tmpl = `${HOT}
parameters:
  v: {type: string, default: a}
resources:
  fixed: {type: ${T}, properties: {value: same}}
  param: {type: ${T}, properties: {value: {get_param: v}}}
`;
    const w = new Workdir({ 't.yaml': tmpl });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const before = snapshot(w);
    const out = await w.ok([
      'stack',
      'update',
      's',
      '--existing',
      '--parameter',
      'v=b',
      '--dry-run',
      '-f',
      'yaml',
    ]);
    assert.equal(snapshot(w), before);
    assert.match(out, /resource_changes:\n {2}unchanged:\n {4}- resource_name: fixed/);
    assert.match(out, /updated:\n {4}- resource_name: param/);
  });
});

describe('stack update --dry-run --show-nested (test_preview_update nested)', { concurrency: true }, () => {
  const parent = 'heat_template_version: 2016-04-08\nresources:\n  nested1:\n    type: nested1.yaml\n';
  const nested1 = 'heat_template_version: 2016-04-08\nresources:\n  nested2:\n    type: nested2.yaml\n';
  const nested2 = (extra = '') =>
    `heat_template_version: 2016-04-08\nresources:\n  random:\n    type: OS::Heat::RandomString\n${extra}`;

  async function nestedStack(): Promise<Workdir> {
    const w = new Workdir({ 'parent.yaml': parent, 'nested1.yaml': nested1, 'nested2.yaml': nested2() });
    await w.ok(['stack', 'create', 's', '-t', 'parent.yaml', '--wait']);
    return w;
  }

  it('test_nested_resources_nochange: nested stacks are always updated, their resources unchanged', async () => {
    const w = await nestedStack();
    assert.deepEqual(names(await preview(w, 'parent.yaml', '--show-nested')), {
      unchanged: ['nested2/random'],
      updated: ['nested1', 'nested1/nested2'],
    });
    assert.deepEqual(
      names(await preview(w, 'parent.yaml')),
      { updated: ['nested1'] },
      'without --show-nested',
    );
    const misused = await w.run(['stack', 'update', 's', '-t', 'parent.yaml', '--show-nested']);
    assert.notEqual(misused.code, 0);
    assert.match(misused.stderr, /--show-nested goes with --dry-run/);
  });

  it('test_nested_resources_add: a resource added deep down', async () => {
    const w = await nestedStack();
    w.write('nested2.yaml', nested2('  random2:\n    type: OS::Heat::RandomString\n'));
    assert.deepEqual(names(await preview(w, 'parent.yaml', '--show-nested')), {
      unchanged: ['nested2/random'],
      updated: ['nested1', 'nested1/nested2'],
      added: ['nested2/random2'],
    });
  });

  it('test_nested_resources_delete: a resource deleted deep down', async () => {
    const w = await nestedStack();
    w.write('nested2.yaml', 'heat_template_version: 2016-04-08\nresources: {}\n');
    assert.deepEqual(names(await preview(w, 'parent.yaml', '--show-nested')), {
      updated: ['nested1', 'nested1/nested2'],
      deleted: ['nested2/random'],
    });
  });

  it('test_nested_resources_replace: a resource replaced deep down', async () => {
    const w = await nestedStack();
    w.write('nested2.yaml', nested2('    properties: {length: 10}\n'));
    assert.deepEqual(names(await preview(w, 'parent.yaml', '--show-nested')), {
      updated: ['nested1', 'nested1/nested2'],
      replaced: ['nested2/random'],
    });
  });

  it('a template resource removed or added takes its nested resources with it', async () => {
    const w = await nestedStack();
    w.write(
      'empty.yaml',
      'heat_template_version: 2016-04-08\nresources:\n  other:\n    type: nested2.yaml\n',
    );
    assert.deepEqual(names(await preview(w, 'empty.yaml', '--show-nested')), {
      added: ['other', 'other/random'],
      deleted: ['nested1', 'nested1/nested2', 'nested2/random'],
    });
  });
});

describe('stack create --dry-run (Heat stack preview)', () => {
  it('lists every resource with its resolved properties, nested ones too, and creates nothing', async () => {
    const tmpl = `heat_template_version: 2018-08-31
parameters:
  v: {type: string, default: one}
resources:
  r1: {type: ${T}, properties: {value: {get_param: v}}}
  r2: {type: ${T}, properties: {value: {get_attr: [r1, output]}}}
  child: {type: child.yaml, properties: {p: {get_param: v}}}
`;
    const child = `heat_template_version: 2018-08-31
parameters:
  p: {type: string}
resources:
  inner: {type: OS::Heat::Value, properties: {value: {get_param: p}}}
`;
    const w = new Workdir({ 't.yaml': tmpl, 'child.yaml': child });
    const doc = await w.json<{
      stack_name: string;
      resources: (Entry & { required_by: string[]; properties: Record<string, unknown> })[];
    }>(['stack', 'create', 'p', '-t', 't.yaml', '--parameter', 'v=two', '--dry-run']);
    assert.equal(doc.stack_name, 'p');
    const byName = Object.fromEntries(doc.resources.map((r) => [r.resource_name, r]));
    assert.deepEqual(Object.keys(byName).sort(), ['child', 'inner', 'r1', 'r2']);
    assert.equal(byName.r1!.properties.value, 'two');
    assert.equal(byName.r1!.properties.update_replace, false, 'defaults applied');
    assert.deepEqual(byName.r1!.required_by, ['r2']);
    assert.equal(byName.r2!.properties.value, null, 'not known before r1 exists');
    assert.deepEqual(byName.child!.properties, { p: 'two' });
    assert.equal(byName.inner!.parent_resource, 'child');
    assert.equal(byName.inner!.properties.value, 'two');

    const list = await w.run(['stack', 'list', '-f', 'json']);
    assert.deepEqual(list.stdout.trim() === '' ? [] : parseJson(list.stdout), [], 'no stack was created');
    const bad = await w.run(['stack', 'create', '1bad', '-t', 't.yaml', '--dry-run']);
    assert.notEqual(bad.code, 0, 'the request is validated as a create would be');
  });
});
