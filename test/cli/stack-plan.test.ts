import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalized, ok, remoteSetup } from './remote-helpers.js';
import { snapshot } from './state-snapshot.js';
import { parseJson, Workdir } from './workdir.js';

// `hearth stack plan`: what an update would do per resource, with the properties that change,
// the reason of a replacement, hidden values masked and a summary line; then the update does
// exactly that.

const OLD = `heat_template_version: 2018-08-31
parameters:
  v: {type: string, default: one}
  secret: {type: string, hidden: true}
resources:
  t: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  r: {type: OS::Heat::RandomString, properties: {length: 8}}
  s: {type: OS::Heat::TestResource, properties: {value: {get_param: secret}}}
  gone: {type: OS::Heat::None}
  same: {type: OS::Heat::TestResource, properties: {value: same}}
`;

const NEW = `heat_template_version: 2018-08-31
parameters:
  v: {type: string, default: one}
  secret: {type: string, hidden: true}
resources:
  t: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  r: {type: OS::Heat::RandomString, properties: {length: 12}}
  s: {type: OS::Heat::TestResource, properties: {value: {get_param: secret}}}
  n: {type: OS::Heat::TestResource, properties: {value: {get_attr: [r, value]}}}
  same: {type: OS::Heat::TestResource, properties: {value: same}}
`;

const GROUP = (count: number) => `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}
      resource_def: {type: OS::Heat::TestResource, properties: {value: member}}
`;

const CHILD = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
  n: {type: number}
resources:
  inner: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  rs: {type: OS::Heat::RandomString, properties: {length: {get_param: n}}}
outputs:
  val: {value: {get_attr: [inner, output]}}
`;

const PARENT = (v: string, n: number, value: string) => `heat_template_version: 2018-08-31
resources:
  kid: {type: child.yaml, properties: {v: ${v}, n: ${n}}}
  t: {type: OS::Heat::TestResource, properties: {value: ${value}}}
`;

const FILES = {
  'old.yaml': OLD,
  'new.yaml': NEW,
  'g1.yaml': GROUP(1),
  'g2.yaml': GROUP(2),
  'child.yaml': CHILD,
  'p1.yaml': PARENT('a', 5, 'x'),
  'p2.yaml': PARENT('b', 6, '{get_attr: [kid, val]}'),
};
const CREATE = ['stack', 'create', 's', '-t', 'old.yaml', '--parameter', 'secret=first-secret', '--wait'];
const PLAN = [
  'stack',
  'plan',
  's',
  '-t',
  'new.yaml',
  '--parameter',
  'v=two',
  '--parameter',
  'secret=second-secret',
];

interface Plan {
  resources: {
    resource_name: string;
    action: string;
    reason?: string;
    changes: { path: string; old: unknown; new: unknown; known_after_apply?: true }[];
  }[];
  summary: Record<string, number>;
}

describe('hearth stack plan', { concurrency: true }, () => {
  it('prints each action with its changed properties, the reason of a replacement and the summary', async () => {
    const w = new Workdir(FILES);
    await w.ok(CREATE);
    const before = snapshot(w);
    const text = await w.ok(PLAN);
    assert.equal(snapshot(w), before, 'a plan writes nothing');
    const lines = text.trimEnd().split('\n');
    const block = (head: string) => {
      const i = lines.findIndex((l) => l.startsWith(head));
      assert.ok(i >= 0, `no "${head}" in:\n${text}`);
      const end = lines.findIndex((l, j) => j > i && !l.startsWith('    '));
      return lines.slice(i, end < 0 ? undefined : end);
    };
    assert.deepEqual(block('~ update in place t '), [
      '~ update in place t (OS::Heat::TestResource)',
      '    value: "one" → "two"',
    ]);
    assert.deepEqual(block('-/+ replace r '), [
      '-/+ replace r (OS::Heat::RandomString) (cannot update in place: length)',
      '    length: 8 → 12',
    ]);
    // A create lists every property it will have (defaults too); one depending on r is not known yet.
    const created = block('+ create n ');
    assert.equal(created[0], '+ create n (OS::Heat::TestResource)');
    assert.ok(created.includes('    value: null → (known after apply)'), created.join('\n'));
    assert.ok(created.includes('    fail: null → false'), created.join('\n'));
    assert.deepEqual(block('- delete gone '), ['- delete gone (OS::Heat::None)']);
    // The hidden parameter's old and new values are masked; the property still shows as changed.
    assert.deepEqual(block('~ update in place s '), [
      '~ update in place s (OS::Heat::TestResource)',
      '    value: ****** → ******',
    ]);
    assert.doesNotMatch(text, /first-secret|second-secret/);
    assert.doesNotMatch(text, /\bsame\b/, 'an unchanged resource is left out');
    assert.equal(lines.at(-1), 'Plan: 1 to create, 2 to update, 1 to replace, 1 to delete.');

    // The update then does what the plan said: r gets a new physical resource, t keeps its own.
    const ids = await w.ids('s');
    await w.ok([
      'stack',
      'update',
      's',
      '-t',
      'new.yaml',
      '--parameter',
      'v=two',
      '--parameter',
      'secret=x-secret',
      '--wait',
    ]);
    const after = await w.ids('s');
    assert.equal(after.t, ids.t);
    assert.notEqual(after.r, ids.r);
    assert.equal(after.gone, undefined);
    assert.ok(after.n);
  });

  it('-f json gives the same as data', async () => {
    const w = new Workdir(FILES);
    await w.ok(CREATE);
    const plan = parseJson<Plan>(await w.ok([...PLAN, '-f', 'json']));
    assert.deepEqual(plan.summary, { create: 1, update: 2, replace: 1, delete: 1 });
    const r = plan.resources.find((x) => x.resource_name === 'r')!;
    assert.equal(r.action, 'replace');
    assert.equal(r.reason, 'cannot update in place: length');
    assert.deepEqual(r.changes, [{ path: 'length', old: 8, new: 12 }]);
    const n = plan.resources.find((x) => x.resource_name === 'n')!;
    assert.deepEqual(
      n.changes.find((c) => c.path === 'value'),
      { path: 'value', old: null, new: null, known_after_apply: true },
    );
    assert.doesNotMatch(JSON.stringify(plan), /first-secret|second-secret/);
  });

  it("shows a group's new member under the group, and --existing with a parameter only", async () => {
    const w = new Workdir(FILES);
    await w.ok(['stack', 'create', 'g', '-t', 'g1.yaml', '--wait']);
    const text = await w.ok(['stack', 'plan', 'g', '-t', 'g2.yaml']);
    assert.match(text, /^~ update in place group \(OS::Heat::ResourceGroup\)\n {4}count: 1 → 2$/m);
    assert.match(
      text,
      /^\+ create group\.1 \(OS::Heat::TestResource\)\n( {4}.*\n)* {4}value: null → "member"$/m,
    );
    assert.doesNotMatch(text, /group\.0/);
    await w.ok(CREATE);
    const existing = await w.ok(['stack', 'plan', 's', '--existing', '--parameter', 'v=three']);
    assert.match(existing, /^~ update in place t \(OS::Heat::TestResource\)\n {4}value: "one" → "three"$/m);
    assert.match(existing, /^Plan: 0 to create, 1 to update, 0 to replace, 0 to delete\.$/m);
  });

  it("shows a template resource's nested changes under it, and no changes for the same template", async () => {
    const w = new Workdir(FILES);
    await w.ok(['stack', 'create', 'p', '-t', 'p1.yaml', '--wait']);
    // Heat's preview counts a nested stack as updated whatever: the plan leaves out one with nothing changing.
    assert.equal(
      await w.ok(['stack', 'plan', 'p', '-t', 'p1.yaml']),
      'No changes.\nPlan: 0 to create, 0 to update, 0 to replace, 0 to delete.\n',
    );
    const text = await w.ok(['stack', 'plan', 'p', '-t', 'p2.yaml']);
    assert.equal(
      text,
      [
        '~ update in place kid (child.yaml)',
        '    n: 5 → 6',
        '    v: "a" → "b"',
        '~ update in place kid.inner (OS::Heat::TestResource)',
        '    value: "a" → "b"',
        '-/+ replace kid.rs (OS::Heat::RandomString) (cannot update in place: length)',
        '    length: 5 → 6',
        '~ update in place t (OS::Heat::TestResource)',
        '    value: "x" → (known after apply)',
        'Plan: 0 to create, 3 to update, 1 to replace, 0 to delete.',
        '',
      ].join('\n'),
    );
  });

  it('refuses a plan without a template or --existing', async () => {
    const w = new Workdir(FILES);
    const r = await w.run(['stack', 'plan', 's']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /stack plan needs -t\/--template or --existing/);
  });
});

describe('hearth stack plan --url: the Hearth plan route, printed as the embedded engine prints', () => {
  const { remote, embedded } = remoteSetup(FILES);
  const both = (args: string[]) => ({
    local: ok(embedded(args), `embedded ${args.join(' ')}`),
    api: ok(remote(args), `--url ${args.join(' ')}`),
  });

  it('prints the same plan in both modes', () => {
    both(CREATE);
    const text = both(PLAN);
    assert.equal(text.api, text.local);
    assert.match(
      text.api,
      /^-\/\+ replace r \(OS::Heat::RandomString\) \(cannot update in place: length\)$/m,
    );
    assert.match(text.api, /^Plan: 1 to create, 2 to update, 1 to replace, 1 to delete\.$/m);
    assert.doesNotMatch(text.api, /first-secret|second-secret/);
    const json = both([...PLAN, '-f', 'json']);
    assert.deepEqual(normalized(json.api), normalized(json.local));
  });
});
