// Drift detection benchmark: `npm run bench:drift`. A sandbox cloud (`hearth sandbox serve`, a
// child process, so the CPU figures below are the engine's alone), an engine as `hearth` opens it
// (default configuration, a fresh SQLite file), a stack of N OS::Neutron::Net created through it
// with no latency; then a few networks renamed or deleted out of band, the cloud's latency set,
// and `detectDrift` timed at each concurrency (and cloud rate limit) asked for.
// Environment: BENCH_RESOURCES (10000), BENCH_LATENCY_MS (20), BENCH_CONCURRENCY (default,64:
// `default` is drift_concurrency's default), BENCH_RATES (cloud_rate_limit values, default 0 =
// unlimited), BENCH_SANDBOX (child, or process: in this process, its CPU then counted with the
// engine's), BENCH_PROFILE=DIR (a CPU profile of each detection); then the stack observed
// (observer.ts) every BENCH_OBSERVE_INTERVAL seconds (30; 0: skip) for BENCH_OBSERVE_WINDOW (90).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openEngine } from '../src/cli/embedded.js';
import { defaultConfig, OPTIONS } from '../src/config/index.js';
import { detectDrift } from '../src/engine/reality/drift.js';
import { setObservation } from '../src/engine/operations/observation.js';
import { createStack } from '../src/engine/operations/create.js';
import { findStack } from '../src/engine/operations/queries.js';
import type { DriftRecord } from '../src/store/contract.js';
import { emptyEnvironment } from '../src/template/environment/index.js';
import { startSandbox } from './sandbox-process.js';

const N = Number(process.env.BENCH_RESOURCES ?? 10_000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const DEFAULT_CONCURRENCY = OPTIONS.drift_concurrency.default as number;
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? 'default,64')
  .split(',')
  .map((c) => (c === 'default' ? DEFAULT_CONCURRENCY : Number(c)));
const RATES = (process.env.BENCH_RATES ?? '0').split(',').map(Number);
const IN_PROCESS = process.env.BENCH_SANDBOX === 'process';
const PROFILE_DIR = process.env.BENCH_PROFILE;
/** The observer's steady state: observed every this many seconds (0: not measured), for this long. */
const OBSERVE_S = Number(process.env.BENCH_OBSERVE_INTERVAL ?? 30);
const WINDOW_S = Number(process.env.BENCH_OBSERVE_WINDOW ?? 90);
/** Networks changed behind the engine's back: this many renamed, this many deleted. */
const CHANGED = 5;

/** Every call this process makes to the cloud (the OpenStack client fetches through the global). */
let calls = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  calls++;
  return realFetch(input, init);
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

function template(n: number): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++)
    lines.push(`  net${i}: {type: OS::Neutron::Net, properties: {name: bench-net-${i}}}`);
  return `${lines.join('\n')}\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-drift-'));
const sandbox = await startSandbox(IN_PROCESS);
Object.assign(process.env, sandbox.env);
const config = { ...defaultConfig(), database: join(dir, 'hearth.db'), log_level: 'warn' as const };
const engine = await openEngine(config);
const { deps } = engine;

try {
  console.log(
    `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
      `Node ${process.versions.node}, ${new Date().toISOString()}; sandbox ${IN_PROCESS ? 'in this process' : 'in a child process'}`,
  );

  // --- the stack, created with no latency ---
  let t0 = performance.now();
  let callsBefore = calls;
  const started = await createStack(deps, engine.cache, {
    name: 'drift-bench',
    projectId: 'p',
    template: { url: 'file:///bench.yaml', text: template(N), files: {}, environment: emptyEnvironment() },
  });
  const final = await engine.waitForStack(started.id);
  const createMs = performance.now() - t0;
  console.log(
    `create ${N} OS::Neutron::Net: ${seconds(createMs)} (${final?.action}_${final?.status}), ` +
      `${calls - callsBefore} calls`,
  );
  if (final?.status !== 'COMPLETE') throw new Error(`the create ended ${final?.status}: ${final?.reason}`);
  const stack = await findStack(deps, 'p', 'drift-bench');
  const rows = await deps.store.tx((tx) => tx.resources.listActive(stack.id));
  const idOf = new Map(rows.map((r) => [r.name, r.physicalId!]));

  // --- out of band: some renamed, some deleted (spread over the stack) ---
  const changed = Math.min(CHANGED, Math.floor(N / 2));
  const step = Math.floor(N / (2 * Math.max(1, changed)));
  const renamed = Array.from({ length: changed }, (_, i) => `net${2 * i * step}`);
  const deleted = Array.from({ length: changed }, (_, i) => `net${(2 * i + 1) * step}`);
  for (const name of renamed) await sandbox.rename(idOf.get(name)!, `${name}-renamed-by-hand`);
  for (const name of deleted) await sandbox.deleteNetwork(idOf.get(name)!);
  await sandbox.setNoise({ latencyMs: LATENCY_MS });

  const profiler = PROFILE_DIR ? new Session() : undefined;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  for (const rate of RATES) {
    // As a heartbeat would set it, for this engine alone.
    deps.settings.cloudRateLimit = rate;
    await engine.heartbeat(true);
    for (const concurrency of CONCURRENCIES) {
      await profiler?.post('Profiler.start');
      callsBefore = calls;
      const cloudCpuBefore = sandbox.cpuSeconds();
      const cpuBefore = process.cpuUsage();
      t0 = performance.now();
      const summary = await detectDrift(deps, stack.id, { concurrency });
      const ms = performance.now() - t0;
      const cpu = cpuSeconds(process.cpuUsage(cpuBefore));
      const cloudCpu = sandbox.cpuSeconds() - cloudCpuBefore;
      const made = calls - callsBefore;
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(
          join(PROFILE_DIR!, `drift-${N}-c${concurrency}-r${rate}.cpuprofile`),
          JSON.stringify(profile),
        );
      }
      await check(stack.id, renamed, deleted);
      const limit = rate > 0 ? `rate limit ${rate}/s` : 'no rate limit';
      console.log(
        `detect ${N} at ${LATENCY_MS} ms latency, concurrency ${concurrency}, ${limit}: ${seconds(ms)}, ` +
          `${made} calls (${(made / (ms / 1000)).toFixed(0)} calls/s), engine CPU ${cpu.toFixed(2)} s ` +
          `(${((cpu * 1e6) / N).toFixed(0)} µs a resource)` +
          (IN_PROCESS ? ' with the cloud' : `, cloud CPU ${cloudCpu.toFixed(2)} s`) +
          `; ${JSON.stringify(summary.counts)}`,
      );
    }
  }

  // --- the observer's steady state: the stack observed every OBSERVE_S seconds, for WINDOW_S ---
  if (OBSERVE_S > 0) {
    deps.settings.cloudRateLimit = 0;
    await engine.heartbeat(true);
    const counts = async () =>
      (await deps.store.tx((tx) => tx.observerCounts.list())).find((c) => c.projectId === 'p');
    // Due at once, then every interval.
    await deps.store.tx((tx) =>
      setObservation(
        tx,
        stack,
        { intervalMs: OBSERVE_S * 1000, heal: false },
        deps.clock.now() - OBSERVE_S * 1000,
      ),
    );
    const before = (await counts())?.checks ?? 0;
    callsBefore = calls;
    const cloudCpuBefore = sandbox.cpuSeconds();
    const cpuBefore = process.cpuUsage();
    t0 = performance.now();
    await engine.runUntil(async () => performance.now() - t0 >= WINDOW_S * 1000);
    const ms = performance.now() - t0;
    const cpu = cpuSeconds(process.cpuUsage(cpuBefore));
    const checks = ((await counts())?.checks ?? 0) - before;
    await check(stack.id, renamed, deleted);
    console.log(
      `observe ${N} every ${OBSERVE_S} s for ${seconds(ms)} at ${LATENCY_MS} ms latency: ${checks} checks ` +
        `(${(checks / (ms / 1000)).toFixed(0)} checks/s, ${(checks / N).toFixed(2)} observations), ` +
        `${calls - callsBefore} calls, engine CPU ${cpu.toFixed(2)} s (${((100 * cpu) / (ms / 1000)).toFixed(1)}% of one core, ` +
        `${((cpu * 1e6) / Math.max(1, checks)).toFixed(0)} µs a check)` +
        (IN_PROCESS ? '' : `, cloud CPU ${(sandbox.cpuSeconds() - cloudCpuBefore).toFixed(2)} s`),
    );
  }
} finally {
  await engine.stop();
  await deps.store.close();
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The stored results say exactly what was done out of band. */
async function check(stackId: string, renamed: string[], deleted: string[]): Promise<void> {
  const records = await deps.store.tx((tx) => tx.drift.list(stackId));
  const by = (status: string) =>
    records
      .filter((r: DriftRecord) => r.status === status)
      .map((r) => r.resourceName)
      .sort();
  const wrong = (what: string, got: string[], want: string[]) => {
    if (JSON.stringify(got) !== JSON.stringify([...want].sort()))
      throw new Error(`${what}: ${got.join(', ')} instead of ${want.join(', ')}`);
  };
  wrong('MODIFIED', by('MODIFIED'), renamed);
  wrong('DELETED', by('DELETED'), deleted);
  if (by('IN_SYNC').length !== N - renamed.length - deleted.length)
    throw new Error(
      `IN_SYNC: ${by('IN_SYNC').length}; other statuses: ${JSON.stringify(by('FAILED').slice(0, 3))}`,
    );
  for (const record of records.filter((r) => r.status === 'MODIFIED')) {
    const diff = record.diff.map((d) => `${d.name}:${JSON.stringify(d.actual)}`).join(',');
    if (diff !== `name:"${record.resourceName}-renamed-by-hand"`)
      throw new Error(`${record.resourceName}: diff ${diff}`);
  }
}
