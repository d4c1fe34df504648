import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseJson, statuses, T, Workdir } from './workdir.js';

// python-heatclient's stack create/update options (--parameter-file, --pre-create, --pre-update,
// --poll) and cliff's -c/--column, through the real `hearth` on the embedded engine.

const HOT = 'heat_template_version: 2018-08-31';
const KEYED = `${HOT}
parameters:
  key: {type: string}
resources:
  r: {type: OS::Heat::Value, properties: {value: {get_param: key}}}
outputs:
  key: {value: {get_attr: [r, value]}}
`;
const STEPS = (value = 'a') => `${HOT}
resources:
  step1: {type: ${T}, properties: {value: step1}}
  step2: {type: ${T}, depends_on: step1, properties: {value: ${value}}}
  member: {type: member.yaml}
`;
const MEMBER = `${HOT}
resources:
  inner: {type: ${T}, properties: {value: inner}}
`;

interface PollRow {
  resource_name: string;
  pending_hook: string;
}

/** Waits until each of `resources` (paths from the top stack) waits at `hook`. */
async function pausedAt(w: Workdir, stack: string, hook: string, resources: string[]): Promise<void> {
  await w.until(`${resources.join(', ')} wait at ${hook}`, async () => {
    const r = await w.run(['stack', 'hook', 'poll', stack, '-f', 'json']);
    if (r.code !== 0) return false; // the create may not have made the stack yet
    const rows = parseJson<PollRow[]>(r.stdout || '[]');
    return resources.every((name) =>
      rows.some((row) => row.resource_name === name && row.pending_hook === hook),
    );
  });
}

describe('hearth stack: -c/--column (cliff)', () => {
  it("prints only the named columns, in the command's order, in every format; none recognized is an error", async () => {
    const w = new Workdir({ 't.yaml': STEPS(), 'member.yaml': MEMBER });
    // On an operation's record too: the stack it ended with.
    const created = await w.ok([
      'stack',
      'create',
      's',
      '-t',
      't.yaml',
      '--wait',
      '-f',
      'value',
      '-c',
      'stack_status',
    ]);
    assert.equal(created, 'CREATE_COMPLETE\n');

    const id = (await w.show('s')).id;
    assert.equal(
      await w.ok(['stack', 'show', 's', '-f', 'value', '-c', 'stack_status', '--column', 'id']),
      `${id}\nCREATE_COMPLETE\n`,
      'the command keeps its own column order (id before stack_status)',
    );
    assert.deepEqual(
      parseJson(await w.ok(['stack', 'show', 's', '-f', 'json', '-c', 'stack_name', '-c', 'nope'])),
      {
        stack_name: 's',
      },
    );
    assert.equal(await w.ok(['stack', 'show', 's', '-f', 'yaml', '-c', 'stack_name']), 'stack_name: s\n');
    const table = await w.ok(['stack', 'list', '-c', 'stack_name']);
    assert.deepEqual(
      table.split('\n').filter((l) => l.startsWith('|')),
      ['| stack_name |', '| s          |'],
    );
    const rows = parseJson<Record<string, string>[]>(
      await w.ok([
        'stack',
        'resource',
        'list',
        's',
        '-f',
        'json',
        '-c',
        'resource_status',
        '-c',
        'resource_name',
      ]),
    );
    assert.deepEqual(
      rows.map((r) => Object.keys(r)),
      rows.map(() => ['resource_name', 'resource_status']),
    );
    assert.match(
      await w.ok(['stack', 'event', 'list', 's', '-f', 'value', '-c', 'resource_status']),
      /^CREATE_COMPLETE$/m,
    );

    const bad = await w.run(['stack', 'show', 's', '-c', 'Name', '-c', 'Status']);
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(
      bad.stderr,
      /^Error: No recognized column names in \['Name', 'Status'\]\. Recognized columns are \['id', 'stack_name', 'stack_status', /m,
    );
    assert.equal(bad.stdout, '');
  });
});

describe('hearth stack: --parameter-file', () => {
  it("takes the file's content as the value: from the template's directory, from the working directory for --existing", async () => {
    const w = new Workdir();
    mkdirSync(join(w.dir, 'tpl'));
    w.write('tpl/t.yaml', KEYED);
    w.write('tpl/key.pub', 'ssh-ed25519 AAAA first@host\n');
    w.write('tpl/key2.pub', 'ssh-ed25519 BBBB second@host\n');
    w.write('here.pub', 'ssh-ed25519 CCCC third@host\n');

    // The file wins over --parameter for the same key, as in heatclient.
    await w.ok([
      'stack',
      'create',
      'p',
      '-t',
      'tpl/t.yaml',
      '--parameter',
      'key=plain',
      '--parameter-file',
      'key=key.pub',
      '--wait',
    ]);
    assert.deepEqual(await w.outputs('p'), { key: 'ssh-ed25519 AAAA first@host\n' });

    await w.ok(['stack', 'update', 'p', '-t', 'tpl/t.yaml', '--parameter-file', 'key=key2.pub', '--wait']);
    assert.deepEqual(await w.outputs('p'), { key: 'ssh-ed25519 BBBB second@host\n' });

    await w.ok(['stack', 'update', 'p', '--existing', '--parameter-file', 'key=here.pub', '--wait']);
    assert.deepEqual(await w.outputs('p'), { key: 'ssh-ed25519 CCCC third@host\n' });
  });

  it('names a file it cannot read and says KEY=FILE for a bad pair, creating nothing', async () => {
    const w = new Workdir({ 't.yaml': KEYED });
    const missing = await w.run([
      'stack',
      'create',
      'p',
      '-t',
      't.yaml',
      '--parameter-file',
      'key=nothere.pub',
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--parameter-file key: cannot read "nothere\.pub": ENOENT.*nothere\.pub/);
    const bad = await w.run(['stack', 'create', 'p', '-t', 't.yaml', '--parameter-file', 'key.pub']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--parameter-file expects KEY=FILE, got "key\.pub"/);
    assert.equal((await w.run(['stack', 'show', 'p'])).code, 1, 'no stack was made');
  });
});

describe('hearth stack: --pre-create and --pre-update', () => {
  it('--pre-create stops the create before each named resource, a nested one by parent/child', async () => {
    const w = new Workdir({ 't.yaml': STEPS(), 'member.yaml': MEMBER });
    const create = w.start([
      'stack',
      'create',
      's',
      '-t',
      't.yaml',
      '--pre-create',
      'step2',
      '--pre-create',
      'member/inner',
      '--wait',
    ]);
    await pausedAt(w, 's', 'pre-create', ['step2', 'member/inner']);
    const during = statuses(await w.resources('s'));
    assert.equal(during.step1, 'CREATE_COMPLETE');
    assert.equal(during.step2, 'INIT_COMPLETE', 'nothing was done to the hooked resource');

    await w.ok(['stack', 'hook', 'clear', 's', 'step2', 'member/inner', '--pre-create']);
    const done = await create.done;
    assert.equal(done.code, 0, done.stderr);
    assert.equal(await w.status('s'), 'CREATE_COMPLETE');
  });

  it('--pre-update stops the update before the named resource; it needs a template', async () => {
    const w = new Workdir({ 't.yaml': STEPS(), 't2.yaml': STEPS('b'), 'member.yaml': MEMBER });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const refused = await w.run(['stack', 'update', 's', '--existing', '--pre-update', 'step2']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--pre-update needs -t\/--template/);

    const update = w.start(['stack', 'update', 's', '-t', 't2.yaml', '--pre-update', 'step2', '--wait']);
    await pausedAt(w, 's', 'pre-update', ['step2']);
    assert.equal(await w.status('s'), 'UPDATE_IN_PROGRESS');
    await w.ok(['stack', 'hook', 'clear', 's', 'step2', '--pre-update']);
    const done = await update.done;
    assert.equal(done.code, 0, done.stderr);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
    assert.equal(await w.attribute('s', 'step2'), 'b');
  });
});

describe('hearth stack: --poll', () => {
  it('waits as --wait does on create, update and delete (the value optional); refuses what is not a positive whole number', async () => {
    const w = new Workdir({ 't.yaml': STEPS(), 't2.yaml': STEPS('b'), 'member.yaml': MEMBER });
    // Tests run no background engine: without a wait the stack would stay IN_PROGRESS.
    const created = parseJson<{ stack_status: string }>(
      await w.ok(['stack', 'create', 's', '--poll', '-t', 't.yaml', '-f', 'json']),
    );
    assert.equal(created.stack_status, 'CREATE_COMPLETE');
    const updated = parseJson<{ stack_status: string }>(
      await w.ok(['stack', 'update', 's', '-t', 't2.yaml', '--poll', '2', '-f', 'json']),
    );
    assert.equal(updated.stack_status, 'UPDATE_COMPLETE');

    for (const bad of ['0', '-3', '1.5', 'soon']) {
      const r = await w.run(['stack', 'delete', 's', `--poll=${bad}`]);
      assert.equal(r.code, 2, `--poll ${bad}: ${r.stderr}`);
      assert.match(r.stderr, /--poll.*expected a whole number of seconds above 0/);
    }
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE', 'a refused command does nothing');

    const deleted = await w.ok(['stack', 'delete', 's', '--yes', '--poll', '1']);
    assert.doesNotMatch(deleted, /Request to delete/, 'it waited instead');
    assert.equal((await w.run(['stack', 'show', 's'])).code, 1, 'the stack is gone');
  });
});
