import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteReality } from '../../src/resources/reality/sqlite.js';
import { workdir } from './helpers.js';
import { hearthNodeArgs } from '../support/hearth-command.js';

const T = 'OS::Heat::TestResource';

const V1 = `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: one}
resources:
  first: {type: ${T}, properties: {value: {get_param: word}}}
  second: {type: ${T}, properties: {value: {get_attr: [first, output]}}}
  extra: {type: OS::Heat::None, properties: {anything: [1, 2]}}
outputs:
  echoed: {value: {get_attr: [second, output]}}
`;

describe('hearth stack (embedded engine)', () => {
  it('creates, shows, updates in place, lists resources, events and outputs, and deletes', () => {
    const w = workdir({ 't.yaml': V1 });
    const created = w.run(['stack', 'create', 'demo', '-t', 't.yaml', '--wait', '-f', 'json']);
    assert.equal(created.code, 0, created.stderr);
    // -f json: the document alone on stdout, the events on stderr.
    const stack = JSON.parse(created.stdout);
    assert.equal(stack.stack_status, 'CREATE_COMPLETE');
    assert.match(created.stderr, /\[first\]: CREATE_COMPLETE/);

    const out = w.run(['stack', 'output', 'show', 'demo', 'echoed', '-f', 'json']);
    assert.equal(JSON.parse(out.stdout).output_value, 'one');

    const before = JSON.parse(w.run(['stack', 'resource', 'list', 'demo', '-f', 'json']).stdout);
    assert.deepEqual(before.map((r: { resource_name: string }) => r.resource_name).sort(), [
      'extra',
      'first',
      'second',
    ]);

    const updated = w.run([
      'stack',
      'update',
      'demo',
      '--existing',
      '--parameter',
      'word=two',
      '--wait',
      '-f',
      'json',
    ]);
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(
      JSON.parse(w.run(['stack', 'output', 'show', 'demo', 'echoed', '-f', 'json']).stdout).output_value,
      'two',
    );
    const after = JSON.parse(w.run(['stack', 'resource', 'list', 'demo', '-f', 'json']).stdout);
    const id = (rows: { resource_name: string; physical_resource_id: string }[], n: string) =>
      rows.find((r) => r.resource_name === n)!.physical_resource_id;
    assert.equal(id(after, 'first'), id(before, 'first'), 'value is update_allowed: updated in place');

    const events = JSON.parse(w.run(['stack', 'event', 'list', 'demo', '-f', 'json']).stdout);
    assert.ok(events.some((e: { resource_status: string }) => e.resource_status === 'UPDATE_COMPLETE'));

    const listed = w.run(['stack', 'list', '-f', 'value']);
    assert.match(listed.stdout, /demo UPDATE_COMPLETE/);

    const deleted = w.run(['stack', 'delete', 'demo', '--yes', '--wait']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(w.run(['stack', 'list', '-f', 'value']).stdout, '');
    const gone = w.run(['stack', 'show', 'demo']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /stack "demo" not found/);
  });

  it('--wait without a terminal prints plain lines: progress counts when an operation starts, then events', () => {
    const w = workdir({ 't.yaml': V1 });
    const created = w.run(['stack', 'create', 'p', '-t', 't.yaml', '--wait', '-f', 'value']);
    assert.equal(created.code, 0, created.stderr);
    // -f value: the values alone on stdout; the lines on stderr, plain: it is not a terminal.
    assert.ok(!created.stderr.includes('\r') && !created.stderr.includes('\u001b'), 'nothing redrawn');
    assert.doesNotMatch(created.stdout, /Progress|\[first\]/);
    assert.match(created.stdout, /^p$/m);
    const lines = created.stderr.split('\n');
    assert.equal(lines[0], 'Progress: 0/3 done, 2 in progress, 1 waiting, 0 failed (0.0s)');
    assert.ok(lines.some((l) => /^\S+ \[first\]: CREATE_COMPLETE {2}state changed$/.test(l)));
    assert.ok(
      lines.some((l) => /^\S+ \[p\]: CREATE_COMPLETE {2}Stack CREATE completed successfully$/.test(l)),
    );

    // An update counts only what it touches: `extra` is unchanged. A table goes with its lines.
    const args = ['stack', 'update', 'p', '--existing', '--parameter', 'word=two', '--wait'];
    const updated = w.run(args);
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.stderr, '', 'no status line: stderr is not a terminal');
    assert.equal(
      updated.stdout.split('\n')[0],
      'Progress: 0/2 done, 1 in progress, 1 waiting, 0 failed (0.0s)',
    );
    assert.doesNotMatch(updated.stdout, /\[extra\]/);

    const deleted = w.run(['stack', 'delete', 'p', '--yes', '--wait']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(
      deleted.stdout.split('\n')[0],
      'Progress: 0/3 done, 2 in progress, 1 waiting, 0 failed (0.0s)',
    );
    assert.match(deleted.stdout, /^DELETE_COMPLETE: 3 resources in \d+\.\ds/m);
    assert.match(deleted.stdout, /\[p\]: DELETE_COMPLETE/);
  });

  it('stack list hides nested stacks unless --show-nested (or --nested) asks, which adds their parent', () => {
    const w = workdir({
      'top.yaml': 'heat_template_version: 2018-08-31\nresources:\n  member: {type: member.yaml}\n',
      'member.yaml': 'heat_template_version: 2018-08-31\nresources:\n  inner: {type: OS::Heat::None}\n',
    });
    assert.equal(w.run(['stack', 'create', 'top', '-t', 'top.yaml', '--wait']).code, 0);
    const top = JSON.parse(w.run(['stack', 'show', 'top', '-f', 'json']).stdout).id;

    const plain = JSON.parse(w.run(['stack', 'list', '-f', 'json']).stdout);
    assert.deepEqual(
      plain.map((s: { stack_name: string }) => s.stack_name),
      ['top'],
    );
    assert.ok(!('parent' in plain[0]));

    for (const flag of ['--show-nested', '--nested']) {
      const listed = JSON.parse(w.run(['stack', 'list', flag, '-f', 'json']).stdout);
      assert.equal(listed.length, 2);
      assert.deepEqual(listed[0], { ...plain[0], parent: null });
      assert.match(listed[1].stack_name, /^top-member-/);
      assert.equal(listed[1].parent, top);
      assert.equal(listed[1].stack_status, 'CREATE_COMPLETE');
    }
    const table = w.run(['stack', 'list', '--show-nested']).stdout;
    assert.match(
      table.split('\n')[1]!,
      /\| id +\| stack_name +\| stack_status +\| creation_time +\| updated_time +\| parent +\|/,
    );
  });

  it('exits non-zero with the reason when the operation fails', () => {
    const w = workdir({
      'bad.yaml': `heat_template_version: 2018-08-31\nresources:\n  r: {type: ${T}, properties: {fail: true}}\n`,
    });
    const r = w.run(['stack', 'create', 'broken', '-t', 'bad.yaml', '--wait']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /CREATE_FAILED: Resource CREATE failed/);
  });

  it('checks a healthy stack: exit 0, CHECK_COMPLETE, every resource CHECK_COMPLETE', () => {
    const w = workdir({ 't.yaml': V1 });
    assert.equal(w.run(['stack', 'create', 'ok', '-t', 't.yaml', '--wait']).code, 0);
    const checked = w.run(['stack', 'check', 'ok', '--wait', '-f', 'json']);
    assert.equal(checked.code, 0, checked.stderr);
    const stack = JSON.parse(checked.stdout);
    assert.equal(stack.stack_status, 'CHECK_COMPLETE');
    const rows = JSON.parse(w.run(['stack', 'resource', 'list', 'ok', '-f', 'json']).stdout);
    assert.deepEqual(
      rows.map((r: { resource_status: string }) => r.resource_status),
      ['CHECK_COMPLETE', 'CHECK_COMPLETE', 'CHECK_COMPLETE'],
    );
  });

  it('refuses an invalid template before touching anything', () => {
    const w = workdir({
      'bad.yaml': 'heat_template_version: 2018-08-31\nresources:\n  r: {type: OS::Nope}\n',
    });
    const r = w.run(['stack', 'create', 'x', '-t', 'bad.yaml']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /The Resource Type \(OS::Nope\) could not be found\. \(bad\.yaml:3:7: resources\.r\.type\)/,
    );
    assert.equal(w.run(['stack', 'list', '-f', 'value']).stdout, '');
  });

  it('rolls back a failed create when asked', () => {
    const w = workdir({
      'bad.yaml': `heat_template_version: 2018-08-31\nresources:\n  ok: {type: ${T}}\n  r: {type: ${T}, depends_on: ok, properties: {fail: true}}\n`,
    });
    const r = w.run(['stack', 'create', 'rb', '-t', 'bad.yaml', '--enable-rollback', '--wait', '-f', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ROLLBACK_COMPLETE/);
    assert.equal(w.run(['stack', 'resource', 'list', 'rb', '-f', 'value']).stdout, '');
  });

  it('a second update from another process supersedes the running one; the last template wins', async () => {
    const slow = (v: string, secs: number) =>
      `heat_template_version: 2018-08-31\nresources:\n  a: {type: ${T}, properties: {value: ${v}, action_wait_secs: {create: ${secs}, update: ${secs}}}}\n  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}\n`;
    const w = workdir({ 'v1.yaml': slow('v1', 0), 'v2.yaml': slow('v2', 2), 'v3.yaml': slow('v3', 0) });
    assert.equal(w.run(['stack', 'create', 'c', '-t', 'v1.yaml', '--wait']).code, 0);
    // Start a slow update in the background, then supersede it from this process.
    const db = join(w.dir, 'state.db');
    const first = spawn(
      process.execPath,
      [...hearthNodeArgs(), '--db', db, 'stack', 'update', 'c', '-t', 'v2.yaml', '--wait'],
      { cwd: w.dir, stdio: 'ignore' },
    );
    const firstDone = new Promise<number>((res) => first.on('exit', (code) => res(code ?? -1)));
    await new Promise((res) => setTimeout(res, 1500));
    const second = w.run(['stack', 'update', 'c', '-t', 'v3.yaml', '--wait', '-f', 'json']);
    assert.equal(second.code, 0, second.stderr);
    await firstDone;
    const out = JSON.parse(w.run(['stack', 'resource', 'show', 'c', 'b', '-f', 'json']).stdout);
    assert.equal(out.attributes.output, 'v3');
    assert.match(w.run(['stack', 'show', 'c', '-f', 'json']).stdout, /UPDATE_COMPLETE/);
  });

  it('retries a create whose object went to ERROR (HEARTH_ACTION_RETRY_LIMIT), or fails it at 0', async () => {
    const w = workdir({
      't.yaml': `heat_template_version: 2018-08-31\nresources:\n  server: {type: ${T}}\n`,
    });
    const row = (stack: string) => {
      const state = new Database(w.db, { readonly: true });
      try {
        return state
          .prepare(
            'SELECT r.uuid, r.physical_id, r.create_retries FROM resources r JOIN stacks s ON s.id = r.stack_id WHERE s.name = ?',
          )
          .get(stack) as { uuid: string; physical_id: string | null; create_retries: number };
      } finally {
        state.close();
      }
    };
    const liveObjects = () => {
      const reality = new SqliteReality(`${w.db}.reality`);
      try {
        return reality.list().map((o) => o.id);
      } finally {
        reality.close();
      }
    };
    // The create is only queued; before an engine runs it, the cloud already holds an object in
    // ERROR under its idempotency key (as an interrupted attempt whose server failed would leave).
    const plantFailed = async (stack: string) => {
      assert.equal(w.run(['stack', 'create', stack, '-t', 't.yaml']).code, 0);
      const reality = new SqliteReality(`${w.db}.reality`);
      await reality.put({
        id: `${stack}-failed`,
        key: row(stack).uuid,
        type: T,
        properties: {},
        status: 'ERROR',
      });
      reality.close();
    };

    await plantFailed('retried');
    const run = w.run(['stack', 'run', 'retried'], { HEARTH_ACTION_RETRY_LIMIT: '2' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /CREATE_COMPLETE/);
    const events = JSON.parse(w.run(['stack', 'event', 'list', 'retried', '-f', 'json']).stdout);
    assert.deepEqual(
      (events as Record<string, string>[])
        .filter((e) => e.resource_name === 'server')
        .map((e) => `${e.resource_status} ${e.resource_status_reason}`),
      [
        'CREATE_IN_PROGRESS state changed',
        `CREATE_FAILED ResourceInError: resources.server: Went to status ERROR due to "Unknown" (${T} retried-failed)`,
        'DELETE_IN_PROGRESS Deleting what the failed create made, before retry 1',
        'DELETE_COMPLETE state changed',
        'CREATE_IN_PROGRESS Retrying CREATE (retry 1 of 2)',
        'CREATE_COMPLETE state changed',
      ],
    );
    const retried = row('retried');
    assert.equal(retried.create_retries, 1);
    assert.deepEqual(
      liveObjects(),
      [retried.physical_id],
      'the failed object was deleted, the retry made one',
    );

    await plantFailed('once');
    const failed = w.run(['stack', 'run', 'once'], { HEARTH_ACTION_RETRY_LIMIT: '0' });
    assert.notEqual(failed.code, 0);
    assert.match(
      failed.stderr,
      /CREATE_FAILED: Resource CREATE failed: ResourceInError: resources\.server: Went to status ERROR due to "Unknown"/,
    );
    assert.equal(row('once').create_retries, 0);
    assert.ok(liveObjects().includes('once-failed'), 'no retry, so nothing was deleted');
  });
});
