// Issue 29, items 1 and 2: on the embedded SQLite store, an operation started without --wait (or a
// --wait interrupted by Ctrl-C) is carried on by a background engine, which exits once the queue is
// idle. Real processes throughout: the newcomer's commands, nothing else run between them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { until as poll } from '../support/poll.js';
import { type CliResult, hearth } from './helpers.js';
import { startServe } from './serve-process.js';
import { parseJson, type StackView, Workdir } from './workdir.js';

const ON = { HEARTH_BACKGROUND_ENGINE: 'true' };
/** Generous ceilings: the machine is shared; nothing here measures speed. */
const CEILING_MS = 120_000;

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  first: {type: OS::Heat::TestResource, properties: {value: one, action_wait_secs: {create: 1}}}
  second: {type: OS::Heat::TestResource, properties: {value: {get_attr: [first, output]}}}
outputs:
  out: {value: {get_attr: [second, output]}}
`;

const SLOW = `heat_template_version: 2018-08-31
resources:
  slow: {type: OS::Heat::TestResource, properties: {value: x, action_wait_secs: {create: 4}}}
`;

function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  return poll(what, probe, { ceilingMs: CEILING_MS, intervalMs: 250 });
}

function run(w: Workdir, args: string[], env: Record<string, string> = ON): CliResult {
  return hearth(['--db', w.db, ...args], w.dir, env);
}

function status(w: Workdir, stack: string): string {
  const r = run(w, ['stack', 'show', stack, '-f', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return parseJson<StackView>(r.stdout).stack_status;
}

/** The pid the background engine logged (its engine id is host:pid:nonce). */
function loggedPid(log: string): number {
  const m = /engine [^:\s]+:(\d+):\S+ started in the background/.exec(readFileSync(log, 'utf8'));
  assert.ok(m, `no start line in ${log}:\n${readFileSync(log, 'utf8')}`);
  return Number(m[1]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The background engine has exited by itself: its pid file gone, its process gone, its log says idle. */
async function engineExited(w: Workdir): Promise<void> {
  const log = `${w.db}.engine.log`;
  await until('the background engine to let go of its lock', () =>
    existsSync(`${w.db}.engine.pid`) ? undefined : true,
  );
  const pid = loggedPid(log);
  await until(`process ${pid} to exit`, () => (alive(pid) ? undefined : true));
  assert.match(readFileSync(log, 'utf8'), /stopped: the queue is empty/);
}

/** `stack create slow --wait` (after `target`: --db or --url), Ctrl-C once its resource's create has started. */
async function interruptedCreate(
  w: Workdir,
  target: string[],
): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [...hearthNodeArgs(), ...target, 'stack', 'create', 'slow', '-t', 'slow.yaml', '--wait'],
    { cwd: w.dir, env: { ...process.env, ...ON }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  await until('the create to start', () => (/slow.*CREATE_IN_PROGRESS/.test(output) ? true : undefined));
  child.kill('SIGINT');
  return { code: await exited, output };
}

describe('embedded operations carry on after the command returns (background engine)', () => {
  it('a create without --wait reaches CREATE_COMPLETE with no further command, then the engine exits', async () => {
    const w = new Workdir({ 'app.yaml': TEMPLATE });
    const created = run(w, ['stack', 'create', 'app', '-t', 'app.yaml']);
    assert.equal(created.code, 0, created.stderr);
    assert.ok(
      created.stderr.includes(
        `A background engine runs it (log: ${w.db}.engine.log); watch with: hearth stack event list app --follow`,
      ),
      created.stderr,
    );
    // Only looking, as a newcomer would: `stack show` runs no work.
    await until('CREATE_COMPLETE', () => (status(w, 'app') === 'CREATE_COMPLETE' ? true : undefined));
    const shown = parseJson<StackView>(run(w, ['stack', 'show', 'app', '-f', 'json']).stdout);
    assert.deepEqual(
      shown.outputs.map((o) => o.output_value),
      ['one'],
    );
    await engineExited(w);

    // A delete without --wait, the same way; the next engine starts after the last one exited.
    const deleted = run(w, ['stack', 'delete', 'app', '--yes']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stderr, /A background engine runs it/);
    await until('the stack to be gone', () => {
      const listed = parseJson<{ stack_name: string }[]>(run(w, ['stack', 'list', '-f', 'json']).stdout);
      return listed.length === 0 ? true : undefined;
    });
    await engineExited(w);
  });

  it('a create paused at a hook keeps its engine; hook clear carries on to CREATE_COMPLETE', async () => {
    const w = new Workdir({
      'app.yaml': TEMPLATE,
      'env.yaml': 'resource_registry:\n  resources:\n    second: {hooks: pre-create}\n',
    });
    const created = run(w, ['stack', 'create', 'app', '-t', 'app.yaml', '-e', 'env.yaml']);
    assert.equal(created.code, 0, created.stderr);
    await until('second to wait at its hook', () => {
      const r = run(w, ['stack', 'hook', 'poll', 'app', '-f', 'json']);
      return r.stdout.includes('pre-create') ? true : undefined;
    });
    // The paused unit is queued (its timeout must still fire): the engine has not gone.
    assert.equal(existsSync(`${w.db}.engine.pid`), true, 'the background engine waits with the stack');
    assert.equal(status(w, 'app'), 'CREATE_IN_PROGRESS');
    const cleared = run(w, ['stack', 'hook', 'clear', 'app', 'second', '--pre-create']);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.match(cleared.stderr, /A background engine runs it/);
    await until('CREATE_COMPLETE', () => (status(w, 'app') === 'CREATE_COMPLETE' ? true : undefined));
    await engineExited(w);
  });

  it('turned off, a create without --wait says how to run it, and nothing runs it', async () => {
    const w = new Workdir({ 'app.yaml': TEMPLATE });
    const created = run(w, ['stack', 'create', 'app', '-t', 'app.yaml'], {
      HEARTH_BACKGROUND_ENGINE: 'false',
    });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /No engine runs on this store: add --wait, or run: hearth stack run app/);
    assert.equal(existsSync(`${w.db}.engine.pid`), false);
    assert.equal(existsSync(`${w.db}.engine.log`), false);
    assert.equal(status(w, 'app'), 'CREATE_IN_PROGRESS');
  });

  it('Ctrl-C during --wait says how to watch or resume, and a background engine finishes the stack', async () => {
    const w = new Workdir({ 'slow.yaml': SLOW });
    const { code, output } = await interruptedCreate(w, ['--db', w.db]);
    assert.equal(code, 130, output);
    assert.match(
      output,
      /Interrupted: the stack stays CREATE_IN_PROGRESS; a background engine carries on \(log: .*state\.db\.engine\.log; hearth stack show slow\), or run: hearth stack run slow/,
    );
    await until('CREATE_COMPLETE', () => (status(w, 'slow') === 'CREATE_COMPLETE' ? true : undefined));
    await engineExited(w);
  });

  it('Ctrl-C during a remote --wait says the server carries on; it does', async () => {
    const w = new Workdir({ 'slow.yaml': SLOW });
    const server = await startServe([
      '--db',
      join(w.dir, 'server.db'),
      'serve',
      '--auth',
      'noauth',
      '--port',
      '0',
    ]);
    try {
      const url = `${server.url}/v1/admin`;
      const { code, output } = await interruptedCreate(w, ['--url', url]);
      assert.equal(code, 130, output);
      assert.match(
        output,
        /Interrupted: the server carries on with stack slow; watch with: hearth stack event list slow --follow/,
      );
      await until('CREATE_COMPLETE', () => {
        const r = hearth(['--url', url, 'stack', 'show', 'slow', '-f', 'json'], w.dir);
        return r.code === 0 && parseJson<StackView>(r.stdout).stack_status === 'CREATE_COMPLETE'
          ? true
          : undefined;
      });
    } finally {
      await server.stop();
    }
  });
});
