import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { FILES, normalized, ok, remoteSetup } from './remote-helpers.js';

// The stack commands whose routes other branches add (resources, events, outputs, template,
// previews, signals), with --url against `hearth serve`, compared with the embedded engine.

const T = 'OS::Heat::TestResource';
const DETAIL_FILES = {
  ...FILES,
  'hooked.yaml': 'resource_registry:\n  resources:\n    second: {hooks: pre-create}\n',
  'wait.yaml': `heat_template_version: 2018-08-31
resources:
  handle: {type: OS::Heat::WaitConditionHandle}
  wait: {type: OS::Heat::WaitCondition, properties: {count: 1, handle: {get_resource: handle}, timeout: 60}}
outputs:
  data: {value: {get_attr: [wait, data]}}
`,
  'one.yaml': `heat_template_version: 2018-08-31\nresources:\n  r: {type: ${T}, properties: {value: x}}\n`,
};

/** Rows sorted by name: the order of a listing is the server's. */
function byName(rows: unknown): unknown {
  return (rows as { resource_name: string }[]).toSorted((a, b) =>
    a.resource_name.localeCompare(b.resource_name),
  );
}

describe('hearth stack --url: resources, events, outputs, template, previews, signals, hooks', () => {
  const { remote, embedded } = remoteSetup(DETAIL_FILES);
  const both = (args: string[]) => ({
    local: ok(embedded(args), `embedded ${args.join(' ')}`),
    api: ok(remote(args), `--url ${args.join(' ')}`),
  });
  const created = new Set<string>();
  /** A stack made from t.yaml in both modes. */
  const stack = (name: string) => {
    if (!created.has(name)) both(['stack', 'create', name, '-t', 't.yaml', '--wait']);
    created.add(name);
    return name;
  };
  /** Polls a remote command until `probe` accepts what it printed (30 s at most). */
  const until = async (args: string[], probe: (out: string) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = remote(args);
      if (r.code === 0 && probe(r.stdout)) return;
      assert.doesNotMatch(r.stderr, /No route for/, 'the server lacks the route');
      if (Date.now() > deadline) assert.fail(`hearth ${args.join(' ')} never printed what was expected`);
      await sleep(500);
    }
  };

  it('lists and shows resources as the embedded engine does', () => {
    const s = stack('res');
    const list = both(['stack', 'resource', 'list', s, '-f', 'json']);
    assert.deepEqual(byName(normalized(list.api)), byName(normalized(list.local)));
    const nested = both(['stack', 'resource', 'list', s, '--nested-depth', '1', '-f', 'json']);
    // A nested stack's name ends in a random suffix of its own in each mode.
    const rowsOf = (text: string) =>
      (normalized(text) as { resource_name: string; stack_name: string }[]).map((r) => ({
        ...r,
        stack_name: r.stack_name.replace(/^res-member-.+$/, 'res-member-*'),
      }));
    assert.deepEqual(byName(rowsOf(nested.api)), byName(rowsOf(nested.local)));
    assert.equal(rowsOf(nested.api).find((r) => r.resource_name === 'inner')!.stack_name, 'res-member-*');
    const shown = both(['stack', 'resource', 'show', s, 'first', '-f', 'json']);
    assert.deepEqual(normalized(shown.api), normalized(shown.local));
    assert.deepEqual((normalized(shown.api) as { required_by: string[] }).required_by, ['second']);
  });

  it('marks a resource unhealthy', () => {
    const s = stack('sick');
    both(['stack', 'resource', 'mark-unhealthy', s, 'first', 'disk gone']);
    const shown = both(['stack', 'resource', 'show', s, 'first', '-f', 'json']);
    assert.deepEqual(normalized(shown.api), normalized(shown.local));
    const row = normalized(shown.api) as { resource_status: string; resource_status_reason: string };
    assert.equal(row.resource_status, 'CHECK_FAILED');
    assert.equal(row.resource_status_reason, 'disk gone');
  });

  it('lists events as the embedded engine does, and --wait prints them', {}, () => {
    const created = remote(['stack', 'create', 'ev', '-t', 't.yaml', '--wait', '-f', 'value']);
    ok(created, 'create');
    // -f value: the events on stderr, stdout the values alone.
    assert.match(created.stderr, /^\S+ \[first\]: CREATE_COMPLETE {2}state changed$/m);
    assert.match(created.stderr, /^\S+ \[ev\]: CREATE_COMPLETE {2}Stack CREATE completed successfully$/m);
    assert.doesNotMatch(created.stdout, /\[first\]/);
    ok(embedded(['stack', 'create', 'ev', '-t', 't.yaml', '--wait']), 'embedded create');
    const events = both(['stack', 'event', 'list', 'ev', '-f', 'json']);
    // Independent resources may interleave differently: the same events, each resource's in order.
    const key = (e: { resource_name: string; resource_status: string; resource_status_reason: string }) =>
      `${e.resource_name} ${e.resource_status} ${e.resource_status_reason}`;
    const lines = (text: string) => (normalized(text) as Parameters<typeof key>[0][]).map(key);
    assert.deepEqual(lines(events.api).toSorted(), lines(events.local).toSorted());
    const table = both(['stack', 'event', 'list', 'ev']);
    assert.equal(table.api.split('\n')[1], table.local.split('\n')[1], 'the same columns');
  });

  it('lists and shows outputs as the embedded engine does', () => {
    const s = stack('outs');
    const list = both(['stack', 'output', 'list', s, '-f', 'json']);
    assert.deepEqual(normalized(list.api), normalized(list.local));
    const one = both(['stack', 'output', 'show', s, 'file', '-f', 'json']);
    assert.deepEqual(normalized(one.api), normalized(one.local));
    assert.equal((normalized(one.api) as { output_value: string }).output_value, 'from a file');
  });

  it('shows the template (as YAML of what the API returns)', () => {
    const s = stack('tpl');
    const { local, api } = both(['stack', 'template', 'show', s]);
    assert.deepEqual(parse(api), parse(local));
  });

  it('previews a create and an update (--dry-run) as the embedded engine does', {}, () => {
    // The API's preview lists every property of a type, defaults included (as Heat's); the
    // embedded one only those the template sets: the resources themselves must agree.
    const { local, api } = both(['stack', 'create', 'never', '-t', 't.yaml', '--dry-run', '-f', 'json']);
    const resources = (out: string) =>
      (normalized(out) as { resources: Record<string, unknown>[] }).resources.map(
        ({ properties: _p, ...r }) => r,
      );
    // Heat's preview shows a template resource as the list of its nested resources, not as a row.
    const templateResource = (r: Record<string, unknown>) =>
      /(\.ya?ml|:\/\/.*)$/.test(String(r.resource_type));
    assert.deepEqual(
      resources(api),
      resources(local).filter((r) => !templateResource(r)),
    );
    assert.equal(remote(['stack', 'show', 'never']).code, 1, 'nothing was created');
    const s = stack('prev');
    const update = [
      'stack',
      'update',
      s,
      '--existing',
      '--parameter',
      'word=three',
      '--dry-run',
      '-f',
      'json',
    ];
    const changes = both(update);
    assert.deepEqual(normalized(changes.api), normalized(changes.local));
  });

  it('signals a wait condition handle and the create goes on', {}, async () => {
    ok(remote(['stack', 'create', 'w', '-t', 'wait.yaml']), 'create');
    const data = JSON.stringify({ status: 'SUCCESS', id: '1', data: 'ready' });
    await until(['stack', 'resource', 'signal', 'w', 'handle', '--data', data], () => true);
    const done = ok(remote(['stack', 'run', 'w']), 'run');
    assert.match(done, /\| stack_status +\| CREATE_COMPLETE/);
    const outputs = normalized(
      ok(remote(['stack', 'output', 'show', 'w', '--all', '-f', 'json']), 'outputs'),
    );
    assert.equal((outputs as { data: { output_value: unknown } }).data.output_value, '{"1": "ready"}');
    const refused = remote(['stack', 'resource', 'signal', 'w', 'wait', '--data', '{}']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^Error: .*signal/);
  });

  it('polls and clears hooks', async () => {
    ok(remote(['stack', 'create', 'h', '-t', 't.yaml', '-e', 'hooked.yaml']), 'create');
    const expected = [{ resource_name: 'second', pending_hook: 'pre-create', stack_name: 'h' }];
    await until(['stack', 'hook', 'poll', 'h', '-f', 'json'], (out) => {
      try {
        assert.deepEqual(JSON.parse(out), expected);
        return true;
      } catch {
        return false;
      }
    });
    const notWaiting = remote(['stack', 'hook', 'clear', 'h', 'first']);
    assert.equal(notWaiting.code, 1);
    assert.equal(notWaiting.stderr, 'Error: resource "first" is not waiting at a hook\n');
    ok(remote(['stack', 'hook', 'clear', 'h', 'second']), 'clear');
    assert.match(ok(remote(['stack', 'run', 'h']), 'run'), /\| stack_status +\| CREATE_COMPLETE/);
    assert.equal(ok(remote(['stack', 'hook', 'poll', 'h', '-f', 'json']), 'poll').trim(), '[]');
  });
});
