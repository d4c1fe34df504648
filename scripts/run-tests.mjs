// Runs the test files under test/ with node's test runner, TypeScript loaded through tsx: the whole
// suite on SQLite and, at the same time, the engine suite (test/engine/) again on PostgreSQL
// (HEARTH_TEST_BACKEND=postgres). Arguments are substrings filtering the files of both passes.
// Each pass's output is printed whole when it ends, and a line as each file's tests end (with the
// pass's first word: [SQLite], [PostgreSQL], [cluster]); the last line sums both: `N passed, N failed`.
//
// The PostgreSQL tests of this run make their schemas in a database of their own
// (HEARTH_TEST_DATABASE), created here and dropped at the end, so schemas never accumulate and
// a concurrent run (another worktree's) is never disturbed. A database left by a run that died
// is dropped by the next one. Without a server the PostgreSQL pass is skipped, except under
// CI=true, where the run fails.
//
// The CLI is bundled once per run (esbuild, about a second) and the tests start that bundle
// (HEARTH_TEST_CLI, see test/support/hearth-command.ts): most of the suite's time is `hearth`
// children starting, three times slower through tsx.
//
// The real `openstack` and `heat` clients run through a fork server started once per run
// (scripts/openstack-forkserver.mjs): a command costs a tenth of a CPU second instead of 1.4.
//
// test/cluster/ (real engine processes killed and restarted around one PostgreSQL) runs in a pass
// of its own, after the PostgreSQL pass and beside the SQLite one: a few kill trials by default
// (CLUSTER_TRIALS=3), the acceptance's 30 with `npm run test:cluster`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve, sep } from 'node:path';
import pg from 'pg';
import { startOpenstackForkserver } from './openstack-forkserver.mjs';
import { buildCli, buildRoot, buildTests } from './test-build.mjs';
import { longestFirst, TimesRecorder } from './test-order.mjs';
import { PROGRESS_MARK } from './test-progress-reporter.mjs';

const SERVER = process.env.HEARTH_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// Runs on this host are told apart by pid; the host is in the name in case the server is shared.
const RUN_PREFIX = `hearth_test_run_${createHash('sha256').update(hostname()).digest('hex').slice(0, 8)}_`;
const ENGINE_DIR = join('test', 'engine') + sep;
const CLUSTER_DIR = join('test', 'cluster') + sep;
// Test files run at once in a pass (two passes run side by side): most tests wait on children or
// timers (a client's --wait sleeps, an agent's poll), so twice as many files as cores keep the
// cores busy. HEARTH_TEST_CONCURRENCY sets every pass's.
const CONCURRENCY = process.env.HEARTH_TEST_CONCURRENCY;
const SQLITE_CONCURRENCY = CONCURRENCY ?? '4';
const POSTGRES_CONCURRENCY = CONCURRENCY ?? '2';
const PASS_SCRIPT = resolve('scripts', 'test-pass.mjs');

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

// `--check` (npm test): `npm run check` (lint, format, types) runs beside the passes.
const withCheck = process.argv.includes('--check');
const filters = process.argv.slice(2).filter((a) => a !== '--check');
const selected = collect('test', []).filter(
  (f) => filters.length === 0 || filters.some((x) => f.includes(x)),
);
const files = selected.filter((f) => !f.startsWith(CLUSTER_DIR));
const clusterFiles = selected.filter((f) => f.startsWith(CLUSTER_DIR));
// Named on the command line: the whole fault test; part of a run of everything: a few trials.
const clusterTrials = process.env.CLUSTER_TRIALS ?? (filters.some((x) => x.includes('cluster')) ? '30' : '3');
if (selected.length === 0) {
  // node --test without files would look for tests everywhere instead.
  console.error(`no test file matches ${filters.map((f) => JSON.stringify(f)).join(', ')}`);
  process.exit(1);
}
const engineFiles = files.filter((f) => f.startsWith(ENGINE_DIR));

/** Connects to the server's maintenance database; undefined (and why) when it can't be reached. */
async function connect() {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return { client };
  } catch (error) {
    await client.end().catch(() => undefined);
    return { why: error.message };
  }
}

function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Creates this run's database, after dropping those of runs on this host that died. */
async function prepareDatabase(client) {
  const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
    RUN_PREFIX,
  ]);
  for (const { datname } of rows) {
    const pid = Number(datname.slice(RUN_PREFIX.length));
    if (Number.isInteger(pid) && !pidAlive(pid))
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
  const name = `${RUN_PREFIX}${process.pid}`;
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  return name;
}

async function dropDatabase(name) {
  const { client } = await connect();
  if (!client) return;
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

const children = new Set();
const times = new TimesRecorder();

/** Runs one pass; resolves with its exit code and everything it printed. */
function runPass(label, passFiles, env, concurrency) {
  const pass = label.split(' ')[0];
  const ordered = longestFirst(pass, passFiles).map((f) => built.get(f));
  const args = ['--enable-source-maps', PASS_SCRIPT, String(concurrency), ...ordered];
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  // The progress reporter's lines are shown as they come; anything else on stderr joins the output.
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (text) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      if (line.startsWith(PROGRESS_MARK)) {
        process.stdout.write(`[${pass}] ${line.slice(PROGRESS_MARK.length)}\n`);
        times.add(pass, line);
      } else chunks.push(Buffer.from(`${line}\n`));
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      if (partial) chunks.push(Buffer.from(partial));
      const output = Buffer.concat(chunks).toString('utf8');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n===== ${label}: ${passFiles.length} files, ${seconds} s =====\n${output}`);
      resolve({ label, code: code ?? 1, signal, ...counts(output) });
    });
  });
}

/** `npm run check` beside the passes (they leave a core idle now and then); printed when it ends. */
function runCheck() {
  const started = Date.now();
  const child = spawn('npm', ['run', '--silent', 'check'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  child.stderr.on('data', (c) => chunks.push(c));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n===== check (npm run check): ${seconds} s =====\n${Buffer.concat(chunks)}`);
      resolve({ code: code ?? 1, signal });
    });
  });
}

/** The spec reporter's totals (`ℹ pass N`, `ℹ fail N`, `ℹ cancelled N`); cancelled counts as failed. */
function counts(output) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const total = (word) => {
    const found = [...plain.matchAll(new RegExp(`^ℹ ${word} (\\d+)$`, 'gm'))];
    return found.length === 0 ? undefined : Number(found[found.length - 1][1]);
  };
  const passed = total('pass');
  const failed = total('fail');
  const cancelled = total('cancelled');
  return { passed: passed ?? 0, failed: (failed ?? 0) + (cancelled ?? 0), summarised: passed !== undefined };
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const passes = [];
let database;
let postgresProblem;
if (engineFiles.length > 0 || clusterFiles.length > 0) {
  const { client, why } = await connect();
  if (client) {
    try {
      database = await prepareDatabase(client);
    } finally {
      await client.end();
    }
  } else if (process.env.CI === 'true') {
    console.error(
      `PostgreSQL at ${redact(SERVER)} is unavailable: ${why} (CI=true: the PostgreSQL pass must run)`,
    );
    process.exit(1);
  } else {
    postgresProblem = why;
    console.log(`PostgreSQL at ${redact(SERVER)} is unavailable (${why}): skipping the PostgreSQL pass`);
  }
}

const forkserver = startOpenstackForkserver();
const outdir = buildRoot();
const [cli, built] = await Promise.all([
  buildCli(join(outdir, 'cli')),
  buildTests(selected, join(outdir, 'tests')).then((paths) => new Map(selected.map((f, i) => [f, paths[i]]))),
]);
const dbEnv = {
  HEARTH_TEST_CLI: cli,
  ...forkserver.env,
  ...(database ? { HEARTH_TEST_DATABASE: database } : {}),
};
if (files.length > 0) passes.push(runPass('SQLite pass', files, dbEnv, SQLITE_CONCURRENCY).then((r) => [r]));
passes.push(
  (async () => {
    const chain = [];
    if (database && engineFiles.length > 0) {
      chain.push(
        await runPass(
          'PostgreSQL pass (HEARTH_TEST_BACKEND=postgres, test/engine/)',
          engineFiles,
          { ...dbEnv, HEARTH_TEST_BACKEND: 'postgres' },
          POSTGRES_CONCURRENCY,
        ),
      );
    }
    if (clusterFiles.length > 0) {
      chain.push(
        // One file at a time: each runs a fleet of engines.
        await runPass(
          `cluster pass (CLUSTER_TRIALS=${clusterTrials})`,
          clusterFiles,
          { ...dbEnv, CLUSTER_TRIALS: clusterTrials },
          '1',
        ),
      );
    }
    return chain;
  })(),
);
const checked = withCheck ? runCheck() : undefined;
const results = (await Promise.all(passes)).flat();
times.save();
forkserver.stop();
rmSync(outdir, { recursive: true, force: true });
if (database)
  await dropDatabase(database).catch((error) =>
    console.error(`could not drop ${database}: ${error.message}`),
  );

let passed = 0;
let failed = 0;
let ok = true;
for (const r of results) {
  passed += r.passed;
  // A pass that ended without its totals (crashed, killed) counts as one failure at least.
  failed += r.summarised ? r.failed : Math.max(1, r.failed);
  if (r.code !== 0 || !r.summarised) {
    ok = false;
    console.log(`${r.label} failed (${r.signal ? `signal ${r.signal}` : `exit code ${r.code}`})`);
  }
}
const check = await checked;
if (check && check.code !== 0) {
  ok = false;
  console.log(
    `check failed (${check.signal ? `signal ${check.signal}` : `exit code ${check.code}`}): see its output above`,
  );
}
if (postgresProblem) console.log('PostgreSQL pass skipped: no server');
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
