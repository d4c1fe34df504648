import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { StackRecord } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { startServe } from './serve-process.js';
import { history, outputValues, T, Workdir } from './workdir.js';

// Legacy engine mode end to end: the real `hearth` command, stacks created while
// convergence_engine is off, and real engine processes that die in the middle of a walk.

const CHAIN = (value: string, wait: number) => `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: ${value}-a, wait_secs: ${wait}}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}, wait_secs: ${wait}}}
  c: {type: ${T}, properties: {value: {get_attr: [b, output]}, wait_secs: ${wait}}}
outputs:
  last: {value: {get_attr: [c, output]}}
`;

const CHILD = `heat_template_version: 2018-08-31
parameters:
  value: {type: string}
resources:
  inner: {type: ${T}, properties: {value: {get_param: value}}}
outputs:
  out: {value: {get_attr: [inner, output]}}
`;

const PARENT = `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: one}
  wait: {type: number, default: 0}
resources:
  nested: {type: child.yaml, properties: {value: {get_param: word}}}
  group:
    type: OS::Heat::ResourceGroup
    properties: {count: 2, resource_def: {type: child.yaml, properties: {value: {get_param: word}}}}
  after: {type: ${T}, properties: {value: {get_attr: [nested, out]}, wait_secs: {get_param: wait}}}
outputs:
  after: {value: {get_attr: [after, output]}}
`;

const LEGACY = ['--config', 'legacy.yaml'];

function legacyWorkdir(files: Record<string, string>): Workdir {
  return new Workdir({ 'legacy.yaml': 'convergence_engine: false\n', ...files });
}

/** The stack's record in the state file of the embedded CLI (project `local`). */
async function stackRecord(db: string, name: string): Promise<StackRecord> {
  const store = await openStore(db);
  try {
    return (await store.tx((tx) => tx.stacks.findByName('local', name)))!;
  } finally {
    await store.close();
  }
}

describe('legacy engine mode through the CLI', () => {
  it('creates, updates and deletes; refuses a second operation while one runs; stays legacy', async () => {
    const w = legacyWorkdir({ 'chain.yaml': CHAIN('one', 3), 'chain2.yaml': CHAIN('two', 0) });
    // Three resources of 3 s each: the refused commands below run well inside the create, even on a loaded machine.
    const create = w.start([...LEGACY, 'stack', 'create', 'old', '-t', 'chain.yaml', '--wait']);
    await w.until('the create runs', async () =>
      (await w.run(['stack', 'show', 'old'])).stdout.includes('CREATE_IN_PROGRESS'),
    );
    const refused = await w.run([...LEGACY, 'stack', 'update', 'old', '-t', 'chain2.yaml']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Stack old already has an action \(CREATE\) in progress/);
    const deleting = await w.run([...LEGACY, 'stack', 'delete', 'old', '-y']);
    assert.equal(deleting.code, 1);
    assert.match(deleting.stderr, /already has an action \(CREATE\) in progress/);
    assert.equal((await create.done).code, 0);
    assert.equal(await w.status('old'), 'CREATE_COMPLETE');
    assert.equal(outputValues(await w.show('old')).last, 'one-a');
    const record = await stackRecord(w.db, 'old');
    assert.equal(record.convergence, false);
    assert.match(record.traversalId, /^legacy-/);

    // The setting decides at create time only: with convergence on again, the stack stays legacy.
    assert.equal(
      await w.finished(['stack', 'update', 'old', '-t', 'chain2.yaml', '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.equal(outputValues(await w.show('old')).last, 'two-a');
    assert.equal((await stackRecord(w.db, 'old')).convergence, false);
    const events = await w.events('old');
    assert.deepEqual(history(events, 'a').slice(-2), ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE']);

    await w.ok(['stack', 'delete', 'old', '-y', '--wait']);
    const gone = await w.run(['stack', 'show', 'old']);
    assert.notEqual(gone.code, 0);
  });

  it('a legacy tree with nested stacks migrates, then takes a second update while one runs', async () => {
    const w = legacyWorkdir({ 'parent.yaml': PARENT, 'child.yaml': CHILD });
    assert.equal(
      await w.finished([...LEGACY, 'stack', 'create', 'tree', '-t', 'parent.yaml', '--wait']),
      'CREATE_COMPLETE',
    );
    const before = await w.ids('tree');
    const record = await stackRecord(w.db, 'tree');
    assert.equal(record.convergence, false);

    const out = await w.ok(['manage', 'migrate-convergence', record.id]);
    assert.match(out, /migrated/i);
    assert.equal((await stackRecord(w.db, 'tree')).convergence, true);
    const again = await w.ok(['manage', 'migrate-convergence', record.id]);
    assert.match(again, /already/i);

    // Convergence now: an update is accepted while another runs, and the newest wins.
    const first = w.start([
      'stack',
      'update',
      'tree',
      '-t',
      'parent.yaml',
      '--parameter',
      'word=two',
      '--parameter',
      'wait=3',
      '--wait',
    ]);
    await w.until('the first update runs', async () => (await w.status('tree')) === 'UPDATE_IN_PROGRESS');
    await w.ok(['stack', 'update', 'tree', '-t', 'parent.yaml', '--parameter', 'word=three', '--wait']);
    await first.done;
    assert.equal(await w.status('tree'), 'UPDATE_COMPLETE');
    assert.equal(outputValues(await w.show('tree')).after, 'three');
    assert.equal((await w.ids('tree')).nested, before.nested, 'the nested stack was updated in place');
  });
});

describe('legacy engine mode: a dead engine', () => {
  it('loses its stack lock to another engine, which resumes the walk without making anything twice', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-legacy-crash-'));
    const db = join(dir, 'state.db');
    // b and c wait long enough that the walk is still going when the test looks at its lock,
    // however slowly the CLI polls on a loaded machine.
    const chain = CHAIN('x', 2).replace(/( {2}[bc]: .*wait_secs: )2/g, (_all, head: string) => `${head}8`);
    writeFileSync(join(dir, 'chain.yaml'), chain);
    const env = {
      HEARTH_CONVERGENCE_ENGINE: 'false',
      HEARTH_WORK_LEASE_MS: '2000',
      HEARTH_HEARTBEAT_INTERVAL_MS: '500',
      HEARTH_ENGINE_DEAD_AFTER_MS: '2000',
    };
    const args = ['--db', db, 'serve', '--auth', 'noauth', '--port', '0'];
    const w = new Workdir({ 'chain.yaml': chain });
    const first = await startServe(args, env);
    // A failed assertion must not leave this serve running: its pipes would keep the file alive.
    t.after(() => first.kill());
    const api = (s: { url: string }) => ['--url', `${s.url}/v1/admin`];
    await w.ok([...api(first), 'stack', 'create', 'crash', '-t', 'chain.yaml']);
    // A second update while the create runs is refused by the API too (409).
    const refused = await w.run([...api(first), 'stack', 'update', 'crash', '-t', 'chain.yaml']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /already has an action \(CREATE\) in progress/);
    await w.until('a is created', async () => {
      const rows = await w.json<{ resource_name: string; resource_status: string }[]>([
        ...api(first),
        'stack',
        'resource',
        'list',
        'crash',
      ]);
      return rows.some((r) => r.resource_name === 'a' && r.resource_status === 'CREATE_COMPLETE');
    });
    const store = await openStore(db);
    try {
      const stack = (await store.tx((tx) => tx.stacks.findByName('admin', 'crash')))!;
      const lock = await store.tx((tx) => tx.stackLocks.get(stack.id));
      assert.ok(lock, 'the walking engine holds the stack lock');
      const a = (await store.tx((tx) => tx.resources.findByName(stack.id, 'a')))[0]!;
      first.kill();

      const second = await startServe(args, env);
      try {
        const started = Date.now();
        for (;;) {
          const now = (await store.tx((tx) => tx.stacks.get(stack.id)))!;
          if (now.status !== 'IN_PROGRESS') break;
          assert.ok(Date.now() - started < 120_000, `no takeover:\n${second.stderr().slice(-2000)}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        const done = (await store.tx((tx) => tx.stacks.get(stack.id)))!;
        assert.equal(`${done.action}_${done.status}`, 'CREATE_COMPLETE', done.reason);
        const events = await store.tx((tx) => tx.events.list(stack.id));
        assert.ok(
          events.some((e) =>
            /went away during stack CREATE: engine .* took the stack lock over/.test(e.reason),
          ),
          events.map((e) => e.reason).join('\n'),
        );
        const rows = await store.tx((tx) => tx.resources.listActive(stack.id));
        assert.deepEqual(rows.map((r) => r.name).sort(), ['a', 'b', 'c'], 'one row each');
        assert.equal(rows.find((r) => r.name === 'a')!.physicalId, a.physicalId, 'a was not made again');
        assert.equal(await store.tx((tx) => tx.stackLocks.get(stack.id)), undefined, 'the lock is released');
      } finally {
        await second.stop();
      }
    } finally {
      await store.close();
    }
  });
});
