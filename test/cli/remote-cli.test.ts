import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hearth } from './helpers.js';
import { normalized, ok, remoteSetup } from './remote-helpers.js';

// The stack commands with --url against a real `hearth serve` child process, each command a new
// process as a user would run it; what they print is compared with the embedded engine's.

describe('hearth stack --url (remote mode, against hearth serve)', () => {
  const { dir, url, remote, embedded } = remoteSetup();

  it('creates, lists, shows, updates, checks, suspends, resumes and deletes as the embedded engine does', () => {
    const both = (args: string[]) => {
      const local = ok(embedded(args), `embedded ${args.join(' ')}`);
      const api = ok(remote(args), `--url ${args.join(' ')}`);
      return { local, api };
    };
    const same = (args: string[]) => {
      const { local, api } = both(args);
      assert.deepEqual(normalized(api), normalized(local), `stack ${args.join(' ')}`);
      return normalized(api) as Record<string, unknown>;
    };

    const created = same(['stack', 'create', 'demo', '-t', 't.yaml', '--wait', '-f', 'json']);
    assert.equal(created.stack_status, 'CREATE_COMPLETE');
    assert.equal(created.updated_time, null);
    same(['stack', 'list', '-f', 'json']);
    // With nested stacks (whose names end in a random suffix of their own in each mode).
    const nested = both(['stack', 'list', '--nested', '-f', 'json']);
    const rows = (text: string) =>
      (normalized(text) as { stack_name: string }[]).map((r) => ({
        ...r,
        stack_name: r.stack_name.replace(/^demo-member-.+$/, 'demo-member-*'),
      }));
    assert.deepEqual(rows(nested.api), rows(nested.local));
    assert.deepEqual(
      rows(nested.api).map((r) => r.stack_name),
      ['demo', 'demo-member-*'],
    );
    const shown = same(['stack', 'show', 'demo', '-f', 'json']);
    assert.deepEqual(shown.outputs, [
      { output_key: 'echoed', description: 'No description given', output_value: 'one' },
      { output_key: 'file', description: 'No description given', output_value: 'from a file' },
    ]);
    // The table has the same columns (and so the same header) either way.
    const header = (text: string) => text.split('\n').slice(0, 3).join('\n');
    const lists = both(['stack', 'list']);
    assert.equal(header(lists.api), header(lists.local));
    assert.match(ok(remote(['stack', 'list', '-f', 'value']), 'list'), /demo CREATE_COMPLETE/);

    const updated = same([
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
    assert.equal(updated.stack_status, 'UPDATE_COMPLETE');
    assert.equal(updated.updated_time, '<time>');
    const outputs = same(['stack', 'output', 'show', 'demo', '--all', '-f', 'json']);
    assert.equal((outputs.echoed as { output_value: string }).output_value, 'two');

    for (const verb of ['check', 'suspend', 'resume']) {
      const visited = same(['stack', verb, 'demo', '--wait', '-f', 'json']);
      assert.equal(visited.stack_status, `${verb.toUpperCase()}_COMPLETE`);
    }

    const deleted = remote(['stack', 'delete', 'demo', '--yes', '--wait']);
    ok(deleted, 'delete');
    ok(embedded(['stack', 'delete', 'demo', '--yes', '--wait']), 'embedded delete');
    assert.equal(ok(remote(['stack', 'list', '-f', 'value']), 'list'), '');
    const gone = remote(['stack', 'show', 'demo']);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, 'Error: The Stack (demo) could not be found.\n');
  });

  it('--wait shows the status as it changes, and a create that fails exits 1 with the reason', () => {
    const r = remote(['stack', 'create', 'broken', '-t', 'bad.yaml', '--wait']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /^Error: CREATE_FAILED: Resource CREATE failed/);
    assert.match(r.stdout, /^Status: CREATE_(IN_PROGRESS|FAILED) \(\d+\.\ds\)$/m);
    assert.equal(remote(['stack', 'show', 'broken', '-f', 'value']).code, 0);
  });

  it('waits through the rollback of a failed create when rollback is enabled', () => {
    const r = remote([
      'stack',
      'create',
      'rb',
      '-t',
      'bad.yaml',
      '--enable-rollback',
      '--wait',
      '-f',
      'json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((normalized(r.stdout) as { stack_status: string }).stack_status, 'ROLLBACK_COMPLETE');
  });

  it('cancels a running update (rolling back, or not with --no-rollback); without --wait says so', () => {
    ok(remote(['stack', 'create', 'slow', '-t', 'slow.yaml', '--enable-rollback', '--wait']), 'create');
    const slowUpdate = (v: string) =>
      ok(
        remote(['stack', 'update', 'slow', '--existing', '--parameter', `v=${v}`, '--parameter', 'secs=12']),
        'update',
      );
    slowUpdate('b');
    const cancelled = remote(['stack', 'cancel', 'slow']);
    assert.equal(ok(cancelled, 'cancel'), 'Request to cancel the UPDATE of stack slow has been accepted.\n');
    assert.match(ok(remote(['stack', 'run', 'slow']), 'run'), /\| stack_status +\| ROLLBACK_COMPLETE/);

    slowUpdate('c');
    const waited = ok(remote(['stack', 'cancel', 'slow', '--no-rollback', '--wait']), 'cancel --wait');
    assert.match(waited, /\| stack_status +\| UPDATE_FAILED/);
    assert.match(waited, /\| stack_status_reason +\| Stack UPDATE cancelled/);
  });

  it('abandons a stack: prints the document and the stack is gone', () => {
    ok(remote(['stack', 'create', 'left', '-t', 't.yaml', '--wait']), 'create');
    const doc = JSON.parse(ok(remote(['stack', 'abandon', 'left']), 'abandon')) as Record<string, unknown>;
    assert.equal(doc.name, 'left');
    assert.equal(doc.status, 'COMPLETE');
    assert.deepEqual(Object.keys(doc.resources as object).sort(), ['first', 'member', 'second']);
    assert.equal(remote(['stack', 'show', 'left']).code, 1);
  });

  it('refuses a bad --url, --db with --url, and an unreachable server, with exit 1', () => {
    const bad = hearth(['--url', 'http://127.0.0.1:1', 'stack', 'list'], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--url must be the API's project endpoint/);
    const both = hearth(['--url', url(), '--db', 'x.db', 'stack', 'list'], dir);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--db is for the embedded engine/);
    const down = hearth(['--url', 'http://127.0.0.1:9/v1/admin', 'stack', 'list'], dir);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /^Error: cannot reach the API at http:\/\/127\.0\.0\.1:9: /);
    const token = hearth(['--token', 't', 'stack', 'list'], dir);
    assert.equal(token.code, 1);
    assert.equal(token.stderr, 'Error: --token goes with --url (the embedded engine takes none)\n');
    // HEARTH_URL is the same as --url.
    assert.equal(hearth(['stack', 'list'], dir, { HEARTH_URL: url() }).code, 0);
  });
});
