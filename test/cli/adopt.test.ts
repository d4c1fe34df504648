import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { type ServeProcess, startNoauthServe } from '../api/serve-process.js';
import { API_SAMPLES } from '../support/shared.js';
import { type AbandonEntry as Entry, documentIds } from '../support/abandon-document.js';
import { history, type ResourceRow, Workdir } from './workdir.js';

// `stack adopt`: a stack made from an abandon document, with no physical resource created. The
// document a real Heat printed (../shared/heat-api-samples, read at test time), and Hearth's own.

// Adopt is off by default (as Heat): every `hearth` child of this file is told to allow it.
process.env.HEARTH_ENABLE_STACK_ADOPT = 'true';

const sample = (name: string) => readFileSync(join(API_SAMPLES, name), 'utf8');
const HEAT_DOC = join(API_SAMPLES, 'abandon-document.json');

/**
 * Physical ids by `<stack path>/<name>` of a stack's resources, nested stacks' included (a nested
 * stack's own resource, whose id is its child's, is left out: adopting makes new child stacks).
 */
async function stackIds(w: Workdir, stack: string, url: string[] = []): Promise<Record<string, string>> {
  const stacks = await w.json<{ id: string; stack_name: string }[]>([...url, 'stack', 'list', '--nested']);
  const names = new Map(stacks.map((s) => [s.id, s.stack_name]));
  const rows = await w.json<(ResourceRow & { stack_name: string })[]>([
    ...url,
    ...['stack', 'resource', 'list', stack, '--nested-depth', '3'],
  ]);
  const paths = new Map([[stack, '']]);
  const out: Record<string, string> = {};
  for (const row of rows) {
    const path = paths.get(row.stack_name);
    assert.ok(path !== undefined, `${row.stack_name} is listed after its parent resource`);
    const child = names.get(row.physical_resource_id);
    if (child !== undefined) paths.set(child, `${path}${row.resource_name}/`);
    else out[`${path}${row.resource_name}`] = row.physical_resource_id;
  }
  return out;
}

/** What the reality store holds: every physical object, by id. */
function physical(w: Workdir): string[] {
  const db = new Database(`${w.db}.reality`, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return tables.flatMap(({ name }) =>
      db
        .prepare(`SELECT * FROM "${name}"`)
        .all()
        .map((r) => JSON.stringify(r)),
    );
  } finally {
    db.close();
  }
}

/** The Heat sample's template changed: `rs` is longer (replaced), the member file a local one. */
const CHANGED = sample('abandon-template.yaml').replace('length: 10', 'length: 12');

describe('stack adopt', () => {
  it('adopts the document a real Heat printed: same resources and ids, nested ones too, and its outputs', async () => {
    const w = new Workdir({ 't2.yaml': CHANGED, 'member.yaml': sample('abandon-member.yaml') });
    const doc = JSON.parse(sample('abandon-document.json')) as Entry;
    const shown = await w.json<{ stack_status: string }>([
      'stack',
      'adopt',
      'mine',
      '--adopt-file',
      HEAT_DOC,
      '--wait',
    ]);
    assert.equal(shown.stack_status, 'ADOPT_COMPLETE');
    assert.deepEqual(await stackIds(w, 'mine'), documentIds(doc));
    assert.deepEqual(await w.outputs('mine'), { out: 'one', member: 'm-one-U2TEtD' });
    const resources = await w.resources('mine', 3);
    assert.ok(
      resources.every((r) => r.resource_status === 'ADOPT_COMPLETE'),
      JSON.stringify(resources),
    );
    assert.deepEqual(history(await w.events('mine'), 't1'), ['ADOPT_IN_PROGRESS', 'ADOPT_COMPLETE']);
    const nested = await w.json<{ stack_status: string }[]>(['stack', 'list', '--nested']);
    assert.deepEqual(
      nested.map((s) => s.stack_status),
      ['ADOPT_COMPLETE', 'ADOPT_COMPLETE', 'ADOPT_COMPLETE'],
    );

    // A new parameter value: t1 updated in place, the member's child follows; nothing replaced.
    assert.equal(
      await w.finished(['stack', 'update', 'mine', '--existing', '--parameter', 'v=two', '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.deepEqual(await w.outputs('mine'), { out: 'two', member: 'm-two-U2TEtD' });
    assert.deepEqual(await stackIds(w, 'mine'), documentIds(doc));

    // A template change replaces rs (a new string); the others keep their physical resources.
    await w.ok(['stack', 'update', 'mine', '-t', 't2.yaml', '--parameter', 'v=two', '--wait']);
    const after = await stackIds(w, 'mine');
    assert.notEqual(after.rs, documentIds(doc).rs);
    assert.match(String(await w.attribute('mine', 'rs', 'value')), /^[A-Za-z0-9]{12}$/);
    assert.deepEqual({ ...after, rs: undefined }, { ...documentIds(doc), rs: undefined });
    assert.deepEqual(await w.outputs('mine'), { out: 'two', member: 'm-two-U2TEtD' });

    await w.ok(['stack', 'delete', 'mine', '--wait']);
    assert.equal((await w.json<unknown[]>(['stack', 'list', '--nested'])).length, 0);
  });

  it("takes back what Hearth's own abandon printed: same resources, ids and outputs, unchanged", async () => {
    const w = new Workdir({
      't.yaml': `heat_template_version: 2018-08-31
parameters:
  v: {type: string, default: one}
resources:
  t1: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  val: {type: OS::Heat::Value, properties: {value: {get_attr: [t1, output]}}}
  rs: {type: OS::Heat::RandomString, properties: {length: 10}}
  grp:
    type: OS::Heat::ResourceGroup
    properties: {count: 2, resource_def: {type: OS::Heat::RandomString, properties: {length: 4}}}
  tmplres: {type: member.yaml, properties: {idx: {get_attr: [val, value]}}}
outputs:
  out: {value: {get_attr: [val, value]}}
  member: {value: {get_attr: [tmplres, name]}}
  group: {value: {get_attr: [grp, value]}}
  rs: {value: {get_resource: rs}}
`,
      'member.yaml': sample('abandon-member.yaml'),
    });
    await w.ok(['stack', 'create', 'round', '-t', 't.yaml', '--parameter', 'v=two', '--wait']);
    const ids = await stackIds(w, 'round');
    const outputs = await w.outputs('round');
    const objects = physical(w).sort();
    await w.ok(['stack', 'abandon', 'round', '--output-file', 'round.json']);

    assert.equal(
      await w.finished(['stack', 'adopt', 'round', '--adopt-file', 'round.json', '--wait']),
      'ADOPT_COMPLETE',
    );
    assert.deepEqual(await stackIds(w, 'round'), ids);
    assert.deepEqual(await w.outputs('round'), outputs);
    assert.equal(outputs.out, 'two', 'the parameters it was created with came back with it');
    assert.deepEqual(physical(w).sort(), objects, 'no physical resource was made or changed');

    // Nothing to change: an update with the same template leaves every resource alone.
    await w.ok(['stack', 'update', 'round', '--existing', '--wait']);
    assert.deepEqual(await stackIds(w, 'round'), ids);
    assert.deepEqual(physical(w).sort(), objects);
    const events = await w.events('round');
    assert.deepEqual(history(events, 't1'), ['ADOPT_IN_PROGRESS', 'ADOPT_COMPLETE']);

    await w.ok(['stack', 'delete', 'round', '--wait']);
    assert.deepEqual(physical(w), [], 'a delete removes the adopted resources');
  });

  it('refuses malformed documents with a message naming what is wrong', async () => {
    const w = new Workdir({
      'text.json': 'this is { not json',
      'list.json': '[1, 2]',
      'notemplate.json': '{"resources": {}}',
      'resources.json': '{"template": {"heat_template_version": "2018-08-31"}, "resources": [1]}',
      'entry.json': '{"template": {"heat_template_version": "2018-08-31"}, "resources": {"a": "x"}}',
      'id.json':
        '{"template": {"heat_template_version": "2018-08-31"}, "resources": {"a": {"resource_id": 7}}}',
    });
    const cases: [string, RegExp][] = [
      ['text.json', /Invalid adopt data: /],
      ['list.json', /Invalid adopt data: the document must be an object/],
      ['notemplate.json', /Invalid adopt data: the document has no "template"/],
      ['resources.json', /Invalid adopt data: "resources" must be an object/],
      ['entry.json', /Invalid adopt data: "resources.a" must be an object/],
      ['id.json', /Invalid adopt data: "resources.a.resource_id" must be a string/],
      ['missing.json', /cannot read "missing.json"/],
    ];
    for (const [file, message] of cases) {
      const r = await w.run(['stack', 'adopt', 's', '--adopt-file', file]);
      assert.notEqual(r.code, 0, file);
      assert.match(r.stderr, message, file);
      assert.doesNotMatch(r.stderr, /at .*\.(js|ts):\d+/, `${file}: no stack trace`);
    }
    assert.deepEqual(await w.json<unknown[]>(['stack', 'list']), []);
  });

  it('fails a resource the document does not describe, as Heat does, creating nothing', async () => {
    const doc = JSON.parse(sample('abandon-document.json')) as { resources: Record<string, unknown> };
    delete doc.resources.t1;
    const w = new Workdir({ 'partial.json': JSON.stringify(doc) });
    const r = await w.run(['stack', 'adopt', 'p', '--adopt-file', 'partial.json', '--wait']);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /ADOPT_FAILED: Resource ADOPT failed: Exception: resources\.t1: Resource ID was not provided/,
    );
    const t1 = (await w.resources('p')).find((row) => row.resource_name === 't1')!;
    assert.equal(t1.resource_status, 'ADOPT_FAILED');
    assert.equal(t1.physical_resource_id, '');
  });

  it('is refused by default (enable_stack_adopt false, as Heat), and nothing is stored', async () => {
    const w = new Workdir();
    delete process.env.HEARTH_ENABLE_STACK_ADOPT;
    try {
      const r = await w.run(['stack', 'adopt', 's', '--adopt-file', HEAT_DOC]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Stack Adopt is not supported/);
      assert.equal((await w.run(['stack', 'show', 's'])).code, 1);
    } finally {
      process.env.HEARTH_ENABLE_STACK_ADOPT = 'true';
    }
  });
});

describe('stack adopt --url (through the API)', () => {
  let server: ServeProcess;
  before(async () => {
    server = await startNoauthServe();
  });
  after(() => server?.stop());

  it("adopts Heat's document through hearth serve, then updates and deletes it", async () => {
    const w = new Workdir();
    const url = ['--url', `${server.url}/v1/admin`];
    const doc = JSON.parse(sample('abandon-document.json')) as Entry;
    const shown = await w.json<{ stack_status: string }>([
      ...url,
      'stack',
      'adopt',
      'api',
      '--adopt-file',
      HEAT_DOC,
      '--wait',
    ]);
    assert.equal(shown.stack_status, 'ADOPT_COMPLETE');
    assert.deepEqual(await stackIds(w, 'api', url), documentIds(doc));
    const outputs = async () =>
      Object.fromEntries(
        Object.entries(
          await w.json<Record<string, { output_value: unknown }>>([
            ...url,
            'stack',
            'output',
            'show',
            'api',
            '--all',
          ]),
        ).map(([k, v]) => [k, v.output_value]),
      );
    assert.deepEqual(await outputs(), { out: 'one', member: 'm-one-U2TEtD' });
    await w.ok([...url, 'stack', 'update', 'api', '--existing', '--parameter', 'v=three', '--wait']);
    assert.deepEqual(await outputs(), { out: 'three', member: 'm-three-U2TEtD' });
    await w.ok([...url, 'stack', 'delete', 'api', '--wait']);
    assert.deepEqual(await w.json<unknown[]>([...url, 'stack', 'list']), []);
  });
});
