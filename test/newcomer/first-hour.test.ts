// Issue 29's acceptance, as a newcomer meets the project: a fresh clone, `npm ci`, `npm run demo`,
// then a create without --wait that reaches CREATE_COMPLETE with no further command. The clone is
// of the repository this file is in, at its committed HEAD (what a clone gets). Expensive: npm ci
// compiles better-sqlite3 from source (minutes of CPU), so every step shares the one clone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { cost, describeStep, killRunning, newcomerEnv, runStep, type StepResult } from './processes.js';

const HERE = resolve(import.meta.dirname);
/** Ceilings, generous: the machine is shared and nothing here measures speed. */
const NPM_CI_MS = 20 * 60_000;
const DEMO_MS = 5 * 60_000;
const COMMAND_MS = 2 * 60_000;
const COMPLETE_MS = 3 * 60_000;

/** The repository's root, or why there is none (a tree that is not a git checkout). */
function repositoryRoot(): { root: string } | { why: string } {
  const r = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: HERE, encoding: 'utf8' });
  // No git at all is a broken machine, not a reason to skip: the clone step then fails saying so.
  if (r.error) return { root: resolve(HERE, '../..') };
  if (r.status !== 0) return { why: `not a git checkout, nothing to clone (${r.stderr.trim()})` };
  return { root: r.stdout.trim() };
}

// A whole install (two minutes of CPU) in every local run would be a fifth of the suite: CI runs it
// (CI=true, as .ci/run also says with HEARTH_TEST_NEWCOMER=1); HEARTH_TEST_NEWCOMER=1 runs it here.
const wanted = process.env.CI === 'true' || process.env.HEARTH_TEST_NEWCOMER === '1';
const repo = repositoryRoot();
const skip = !wanted
  ? 'a whole install: CI runs it, HEARTH_TEST_NEWCOMER=1 runs it here'
  : 'why' in repo
    ? repo.why
    : false;

/** npm's warnings that issue 29 item 10 named: a config npm does not know, an engine mismatch. */
const NAMED_WARNINGS = /^npm warn.*(Unknown \S+ config|EBADENGINE)/im;
/** What npm prints when it cannot reach the registry. */
const UNREACHABLE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid the background engine logged (its engine id is host:pid:nonce), if it has started. */
function loggedEnginePid(log: string): number | undefined {
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  const m = /engine [^:\s]+:(\d+):\S+ started in the background/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Polls `probe` every half second until it gives a value, failing with `what` at the ceiling. */
async function until<T>(what: string, ceilingMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`gave up after ${ceilingMs / 1000} s waiting for ${what}`);
    await sleep(500);
  }
}

/** Whether `pid` is a background engine of this test's clone (not a process that reused the pid). */
function engineOf(pid: number, work: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(work);
  } catch {
    return false;
  }
}

describe("a newcomer's first hour: clone, npm ci, npm run demo, a create without --wait", { skip }, () => {
  const root = 'root' in repo ? repo.root : '';
  let work = '';
  let clone = '';
  // The newcomer's home and temporary directory: the default database and the demo's land there.
  let home = '';
  let tmp = '';
  let db = '';
  let log = '';
  // The steps build on each other: a step runs only when the ones before it passed.
  const passed = new Set<string>();
  const requires = (step: string) => {
    if (!passed.has(step)) assert.fail(`not tried: the step "${step}" did not pass (see above)`);
  };
  /** The newcomer's shell once installed: their own home, no variable of the test suite. */
  const shellEnv = () => newcomerEnv({ HOME: home, TMPDIR: tmp, npm_config_update_notifier: 'false' });
  const hearth = (args: string[]): Promise<StepResult> =>
    runStep(process.execPath, ['bin/hearth.js', ...args], {
      cwd: clone,
      env: shellEnv(),
      timeoutMs: COMMAND_MS,
    });

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'hearth-newcomer-'));
    clone = join(work, 'hearth');
    home = join(work, 'home');
    tmp = join(work, 'tmp');
    mkdirSync(home);
    mkdirSync(tmp);
    db = join(home, '.hearth', 'hearth.db');
    log = `${db}.engine.log`;
  });

  after(() => {
    killRunning();
    // The background engine is detached from every command: ended here if it outlived the test.
    const pid = loggedEnginePid(log);
    if (pid !== undefined && engineOf(pid, work)) process.kill(pid, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('git clone takes the committed HEAD', async (t: TestContext) => {
    const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
    if (dirty.stdout.trim() !== '')
      t.diagnostic('the work tree has uncommitted changes: the clone, like a newcomer, does not see them');
    const r = await runStep('git', ['clone', '--quiet', root, clone], {
      cwd: work,
      env: newcomerEnv(),
      timeoutMs: COMMAND_MS,
    });
    assert.equal(r.code, 0, describeStep('git clone', r));
    const head = (dir: string) =>
      spawnSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout;
    assert.equal(head(clone), head(root));
    passed.add('git clone');
  });

  it('npm ci installs, compiling better-sqlite3, without the warnings issue 29 named', async (t: TestContext) => {
    requires('git clone');
    // The real home: npm's cache and its configuration (Node's headers for node-gyp) are the machine's.
    const r = await runStep('npm', ['ci', '--prefer-offline'], {
      cwd: clone,
      env: newcomerEnv(),
      timeoutMs: NPM_CI_MS,
    });
    t.diagnostic(`npm ci: ${cost(r)}`);
    const printed = `${r.stdout}\n${r.stderr}`;
    if (r.code !== 0 && UNREACHABLE.test(printed))
      assert.fail(
        `npm ci could not reach the registry (CI reaches it): ${printed.match(UNREACHABLE)![0]}\n${describeStep('npm ci', r)}`,
      );
    assert.equal(r.code, 0, describeStep('npm ci', r));
    assert.doesNotMatch(printed, NAMED_WARNINGS);
    for (const line of printed.split('\n').filter((l) => /^npm warn/i.test(l))) t.diagnostic(line);
    // The native module was built here, and `prepare` compiled the CLI that bin/hearth.js runs.
    assert.ok(existsSync(join(clone, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')));
    assert.ok(existsSync(join(clone, 'dist/bundle/index.js')), 'npm ci ran prepare (the build)');
    passed.add('npm ci');
  });

  it('npm run demo ends with the stack left to look at', async (t: TestContext) => {
    requires('npm ci');
    const r = await runStep('npm', ['run', 'demo'], { cwd: clone, env: shellEnv(), timeoutMs: DEMO_MS });
    t.diagnostic(`npm run demo: ${cost(r)}`);
    assert.equal(r.code, 0, describeStep('npm run demo', r));
    const demoDb = join(tmp, 'hearth-demo', 'hearth.db');
    assert.ok(r.stdout.includes(`\nThe demo's database: ${demoDb}\n`), `not in ${demoDb}:\n${r.stdout}`);
    assert.match(r.stdout, /\| hello +\| UPDATE_COMPLETE +\|/);
    assert.match(r.stdout, /^Hello, Hearth!$/m);
    // Its last words: the stack is there, and how to look at it, change it or remove it.
    const hearthOnDemo = `npx hearth --db ${demoDb}`;
    const ending = [
      'The stack "hello" is still there. Look at it, change it, or remove it:',
      `  ${hearthOnDemo} stack show hello`,
      `  ${hearthOnDemo} stack event list hello`,
      `  ${hearthOnDemo} stack delete hello --yes --wait`,
    ].join('\n');
    assert.ok(
      r.stdout.trimEnd().endsWith(ending),
      `its last lines are not:\n${ending}\n--- it printed ---\n${r.stdout}`,
    );
    passed.add('npm run demo');
  });

  it('a create without --wait reaches CREATE_COMPLETE with no further command; its engine then exits', async (t: TestContext) => {
    requires('npm ci');
    // README's command, without --wait; `--no`: never a package of that name from the registry. Being
    // the checkout's first npx, it also runs `prepare` again (npm links the project into its npx
    // cache), which must find the build current instead of spending half a minute of CPU on it.
    const bundle = join(clone, 'dist/bundle/hearth.cjs');
    const built = statSync(bundle).mtimeMs;
    const started = Date.now();
    const created = await runStep(
      'npx',
      ['--no', 'hearth', 'stack', 'create', 'hello', '-t', 'examples/hello/hello.yaml'],
      {
        cwd: clone,
        env: shellEnv(),
        timeoutMs: COMMAND_MS,
      },
    );
    assert.equal(created.code, 0, describeStep('npx hearth stack create', created));
    t.diagnostic(`npx hearth stack create: ${cost(created)}`);
    assert.equal(
      statSync(bundle).mtimeMs,
      built,
      "the first npx built the CLI again: prepare's check failed",
    );
    assert.ok(
      created.stderr.includes(
        `A background engine runs it (log: ${log}); watch with: hearth stack event list hello --follow`,
      ),
      describeStep('npx hearth stack create', created),
    );

    // Only looking, as a newcomer would: `stack show` runs no work.
    const status = await until('CREATE_COMPLETE', COMPLETE_MS, async () => {
      const r = await hearth(['stack', 'show', 'hello', '-f', 'json']);
      assert.equal(r.code, 0, describeStep('hearth stack show', r));
      const s = (JSON.parse(r.stdout) as { stack_status: string }).stack_status;
      assert.doesNotMatch(
        s,
        /FAILED/,
        `the stack: ${r.stdout}\nthe engine's log:\n${readFileSync(log, 'utf8')}`,
      );
      return s === 'CREATE_COMPLETE' ? s : undefined;
    });
    t.diagnostic(`${status} ${((Date.now() - started) / 1000).toFixed(0)} s after the create started`);

    // Then the background engine exits by itself: its pid file gone, its process gone, idle said.
    await until('the background engine to let go of its pid file', COMPLETE_MS, async () =>
      existsSync(`${db}.engine.pid`) ? undefined : true,
    );
    const pid = loggedEnginePid(log);
    assert.ok(pid !== undefined, `no start line in ${log}:\n${readFileSync(log, 'utf8')}`);
    await until(`the background engine (pid ${pid}) to exit`, COMPLETE_MS, async () =>
      alive(pid) ? undefined : true,
    );
    const logged = readFileSync(log, 'utf8');
    assert.match(logged, /stopped: the queue is empty/);
    for (const line of logged.trimEnd().split('\n')) t.diagnostic(`engine log: ${line}`);
  });
});
