import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { parseJson, Workdir } from './workdir.js';
import { API_SAMPLES } from '../support/shared.js';

// `stack abandon`: Heat's abandon document (the real one Heat printed for the same template is in
// ../shared/heat-api-samples), and the stack leaves Hearth with every physical resource untouched.

const SAMPLES = API_SAMPLES;
const sample = (name: string) => readFileSync(join(SAMPLES, name), 'utf8');

type Doc = Record<string, unknown> & { resources: Record<string, Doc> };

/** The document's shape: its keys at every level, nested stacks and resources alike. */
function shape(doc: Doc): unknown {
  const own = Object.keys(doc).sort();
  if (!doc.resources || typeof doc.resources !== 'object') return own;
  const resources = Object.fromEntries(Object.entries(doc.resources).map(([k, v]) => [k, shape(v)]));
  return { keys: own, resources };
}

/** What the reality store holds: every physical object, by id. */
function physical(w: Workdir): string[] {
  const db = new Database(`${w.db}.reality`, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    const rows: string[] = [];
    for (const { name } of tables)
      rows.push(
        ...db
          .prepare(`SELECT * FROM "${name}"`)
          .all()
          .map((r) => JSON.stringify(r)),
      );
    return rows.sort();
  } finally {
    db.close();
  }
}

describe('stack abandon', () => {
  it("prints Heat's document (same shape as Heat's for the same template) and leaves every resource", async () => {
    const w = new Workdir({
      't.yaml': sample('abandon-template.yaml'),
      'member.yaml': sample('abandon-member.yaml'),
    });
    await w.ok(['stack', 'create', 'abandon-me', '-t', 't.yaml', '--wait']);
    const before = physical(w);
    assert.ok(before.length > 0);
    const ids = await w.ids('abandon-me');

    const doc = parseJson<Doc>(await w.ok(['stack', 'abandon', 'abandon-me']));
    const heat = JSON.parse(sample('abandon-document.json')) as Doc;
    assert.deepEqual(shape(doc), shape(heat));
    assert.equal(doc.name, 'abandon-me');
    assert.deepEqual([doc.action, doc.status], ['CREATE', 'COMPLETE']);
    assert.equal(doc.resources.t1!.resource_id, ids.t1);
    assert.equal(doc.resources.rs!.type, 'OS::Heat::RandomString');
    assert.equal(typeof (doc.resources.rs!.resource_data as Record<string, unknown>).value, 'string');
    assert.deepEqual(Object.keys(doc.resources.grp!.resources).sort(), ['0', '1']);
    assert.equal(
      (doc.template as { resources: Record<string, unknown> }).resources.tmplres !== undefined,
      true,
    );

    assert.deepEqual(physical(w), before, 'no physical resource was touched');
    const gone = await w.run(['stack', 'show', 'abandon-me']);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /not found/);
    assert.equal((await w.json<unknown[]>(['stack', 'list'])).length, 0, 'nested stacks went too');
  });

  it('writes the document to a file with --output-file, and refuses a stack with an operation running', async () => {
    const w = new Workdir({
      't.yaml': `heat_template_version: 2018-08-31
resources:
  slow: {type: OS::Heat::TestResource, properties: {action_wait_secs: {create: 30}}}
`,
      'fast.yaml': `heat_template_version: 2018-08-31
resources:
  v: {type: OS::Heat::Value, properties: {value: x}}
`,
    });
    await w.ok(['stack', 'create', 'f', '-t', 'fast.yaml', '--wait']);
    await w.ok(['stack', 'abandon', 'f', '--output-file', 'f.json']);
    const doc = JSON.parse(readFileSync(join(w.dir, 'f.json'), 'utf8')) as Doc;
    assert.equal(doc.resources.v!.type, 'OS::Heat::Value');

    await w.ok(['stack', 'create', 's', '-t', 't.yaml']);
    const refused = await w.run(['stack', 'abandon', 's']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /operation in progress/);
    assert.equal(await w.status('s'), 'CREATE_IN_PROGRESS', 'the stack is still there');
  });
});
