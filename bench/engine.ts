// Engine benchmark: create / update (every resource) / update (one resource) / delete of N
// resources, in three shapes, on SQLite or PostgreSQL, with one or more engine processes.
// `npm run bench:engine` (SQLite, one engine), `npm run bench:engine:pg` (both stores, 1 and 2 engines).
// Environment: BENCH_SIZES (default 1000,10000), BENCH_SHAPES (chains,group,fan), BENCH_OPS,
// BENCH_STORE (sqlite, postgres://...; default sqlite), BENCH_ENGINES (default 1), BENCH_PROFILE,
// BENCH_MODES (convergence,legacy; default convergence: legacy is the call-stack engine mode).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EngineDeps } from '../src/engine/core/deps.js';
import { SYSTEM_CLOCK } from '../src/engine/core/deps.js';
import { Engine } from '../src/engine/engine.js';
import { createStack } from '../src/engine/operations/create.js';
import { deleteStack } from '../src/engine/operations/lifecycle.js';
import { type TemplateInput } from '../src/engine/core/requests.js';
import { updateStack } from '../src/engine/operations/update.js';
import { builtinPlugins, pluginCatalog } from '../src/resources/catalog.js';
import { MemoryReality } from '../src/resources/reality/memory.js';
import { openStore, type Store } from '../src/store/index.js';
import { emptyEnvironment } from '../src/template/environment/index.js';
import { DEFAULT_LIMITS } from '../src/template/limits.js';
import { newBenchStore } from './bench-store.js';
import { envList, markdownTable } from './report.js';
import { type Shape, template } from './shapes.js';
import { EngineChildren } from './engine-children.js';
import { countStatements, takeStatements } from './pg-statements.js';
import { unitsClaimed } from './unit-count.js';

/** One run: a shape and size on a new store, with `engines` engine processes. */
interface RunSetup {
  n: number;
  shape: Shape;
  /** `sqlite` or a postgres:// URL (see bench-store.ts). */
  spec: string;
  engines: number;
  /** The engine mode new stacks are created in. */
  mode: 'convergence' | 'legacy';
}

/** The summary's rows: one per run, the seconds of each operation. */
const results: { setup: RunSetup; kind: string; seconds: Map<string, number>; peakRss: number }[] = [];

/** Closes what the current run has open (children, store, schema): also when the benchmark is interrupted. */
let closeRun: (() => Promise<void>) | undefined;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/**
 * The benchmark process starts each operation (parse, validate, plan: what the API process does)
 * and runs one engine itself until the stack settles; with `engines` > 1 the others are `hearth
 * engine` child processes on the same store, claiming work from the same queue.
 */
async function run(setup: RunSetup): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  closeRun = async () => {
    closeRun = undefined;
    let failure: unknown;
    for (const close of closers.splice(0).reverse())
      await close().catch((error: unknown) => (failure ??= error));
    if (failure) throw failure;
  };
  const notes: string[] = [];
  let children: EngineChildren | undefined;
  let label = '';
  try {
    const where = await newBenchStore(setup.spec);
    label = labelOf(where.kind, setup);
    closers.push(() => where.dispose());
    const store = await openStore(where.url);
    closers.push(() => store.close());
    const engine = new Engine(benchDeps(store, setup.mode), (message) => notes.push(message));
    closers.push(() => engine.stop());
    if (setup.engines > 1) {
      children = await EngineChildren.start(setup.engines - 1, where.url);
      closers.push(() => children!.stop());
    }
    await operations(setup, where.kind, engine, children);
  } finally {
    await closeRun?.();
  }
  // At log level debug an engine tells of anything unusual: a unit taken over, a store error.
  for (const note of [...notes, ...(children?.notes() ?? [])]) console.log(`  ${label} engine note: ${note}`);
}

function labelOf(kind: string, { engines, shape, n, mode }: RunSetup): string {
  return `${kind}${mode === 'legacy' ? ' legacy' : ''} ×${engines} ${shape} n=${n}`;
}

/** The in-process engine's settings: as in every earlier run of this benchmark. */
function benchDeps(store: Store, mode: RunSetup['mode']): EngineDeps {
  return {
    store,
    plugins: pluginCatalog(builtinPlugins()),
    reality: new MemoryReality(),
    clock: SYSTEM_CLOCK,
    engineId: 'bench',
    random: Math.random,
    settings: {
      workLeaseMs: 60_000,
      engineDeadAfterMs: 30_000,
      actionRetryLimit: 0,
      stackActionTimeout: 3600,
      lockRetryMs: 50,
      limits: DEFAULT_LIMITS,
      convergenceEngine: mode === 'convergence',
    },
  };
}

/** Create, then the operations BENCH_OPS names, each timed until the stack settles. */
async function operations(
  setup: RunSetup,
  kind: string,
  engine: Engine,
  children: EngineChildren | undefined,
): Promise<void> {
  const { n, shape, engines } = setup;
  const { deps } = engine;
  const result = { setup, kind, seconds: new Map<string, number>(), peakRss: 0 };
  results.push(result);
  const label = labelOf(kind, setup);
  const input = (text: string): TemplateInput => ({
    url: 'file:///bench.yaml',
    text,
    files: {},
    environment: emptyEnvironment(),
  });
  /** Units of work claimed so far by each engine: this process's first. */
  const units = async () => [unitsClaimed(), ...((await children?.unitsClaimed()) ?? [])];
  const timed = async (op: string, start: () => Promise<{ id: string }>) => {
    const unitsBefore = await units();
    takeStatements();
    await profiler?.post('Profiler.start');
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const stack = await start();
    const final = await engine.waitForStack(stack.id);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      const file = join(profileDir!, `${kind}-${engines}-${shape}-${n}-${op.replace(' ', '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
    }
    const memory = process.memoryUsage();
    const peak = process.resourceUsage().maxRSS * 1024;
    result.seconds.set(op, ms / 1000);
    result.peakRss = Math.max(result.peakRss, peak);
    // With --expose-gc: what the process still holds once the operation's garbage is gone.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const retained = gc ? `, heap retained ${mib(process.memoryUsage().heapUsed)}` : '';
    const shares = children
      ? `, units by engine ${(await units()).map((u, i) => u - unitsBefore[i]!).join(' / ')}`
      : '';
    console.log(
      `  ${label} ${op}: ${(ms / 1000).toFixed(2)} s (${final?.action}_${final?.status})${shares}, ` +
        `cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (this process), ` +
        `rss ${mib(memory.rss)} (heap ${mib(memory.heapUsed)}${retained}), peak rss so far ${mib(peak)}`,
    );
    if (statements && kind === 'postgres')
      printStatements(`${label} ${op}`, unitsClaimed() - unitsBefore[0]!);
    return stack;
  };
  const created = await timed('create', () =>
    createStack(deps, engine.cache, {
      name: 'bench',
      projectId: 'p',
      template: input(template(n, shape, 'a')),
    }),
  );
  let value = 'a';
  if (ops.has('update-all')) {
    value = 'b';
    await timed('update all', () =>
      updateStack(deps, engine.cache, created.id, { template: input(template(n, shape, value)) }),
    );
  }
  if (ops.has('update-one'))
    await timed('update one', () =>
      updateStack(deps, engine.cache, created.id, { template: input(template(n, shape, value, true)) }),
    );
  if (ops.has('delete')) await timed('delete', () => deleteStack(deps, created.id));
  if (children) console.log(`  ${label}: child engines' peak rss ${children.peakRss().map(mib).join(' / ')}`);
}

/** This process's statements during an operation: how many per unit of work, and the slowest in total. */
function printStatements(label: string, units: number): void {
  const { count, ms, top } = takeStatements();
  console.log(
    `  ${label}: ${count} statements (${(count / Math.max(1, units)).toFixed(1)} per unit of this process), ` +
      `${(ms / 1000).toFixed(2)} s waiting for answers (overlapping)`,
  );
  for (const [sql, t] of top.slice(0, 12))
    console.log(
      `    ${t.count} × ${(t.ms / t.count).toFixed(2)} ms = ${(t.ms / 1000).toFixed(2)} s  ${sql.slice(0, 150)}`,
    );
}

/** The figures as a Markdown table, for docs/benchmarks.md. */
function summary(): string {
  const opNames = ['create', 'update all', 'update one', 'delete'];
  const rows = [
    ['store', 'mode', 'engines', 'shape', 'N', ...opNames, 'peak RSS (benchmark process)'],
    ...results.map(({ setup, kind, seconds, peakRss }) => [
      kind,
      setup.mode,
      String(setup.engines),
      setup.shape,
      setup.n.toLocaleString('en'),
      ...opNames.map((op) => (seconds.has(op) ? `${seconds.get(op)!.toFixed(2)} s` : '')),
      mib(peakRss),
    ]),
  ];
  return markdownTable(rows);
}

const sizes = envList(process.env.BENCH_SIZES, '1000,10000').map(Number);
const shapes = envList(process.env.BENCH_SHAPES, 'chains,group,fan') as Shape[];
/** Operations after the create: BENCH_OPS=update-all,update-one,delete (default all). */
const ops = new Set(envList(process.env.BENCH_OPS, 'update-all,update-one,delete'));
/** BENCH_STORE=sqlite,postgres://host/database: each run on a new SQLite file or a new schema. */
const stores = envList(process.env.BENCH_STORE, 'sqlite');
/** BENCH_ENGINES=1,2: engine processes per run (this one and N-1 `hearth engine` children). */
const engineCounts = envList(process.env.BENCH_ENGINES, '1').map(Number);
/** BENCH_MODES=convergence,legacy: the engine modes compared (each run on a new store). */
const modes = envList(process.env.BENCH_MODES, 'convergence') as RunSetup['mode'][];
/** BENCH_STATEMENTS=1: count this process's PostgreSQL statements per operation. */
const statements = process.env.BENCH_STATEMENTS === '1';
if (statements) countStatements();
/** BENCH_PROFILE=DIR writes a CPU profile of each operation (of this process) into DIR. */
const profileDir = process.env.BENCH_PROFILE;
const profiler = profileDir ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
}
// Interrupted: stop the engine children and drop the run's schema before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.log(`\n${signal}: closing the current run`);
    void (closeRun?.() ?? Promise.resolve()).finally(() => process.exit(130));
  });
// Stores and engine counts innermost: the runs compared side by side meet the same machine.
for (const n of sizes)
  for (const shape of shapes)
    for (const spec of stores)
      for (const engines of engineCounts)
        for (const mode of modes) await run({ n, shape, spec, engines, mode });
console.log(`\n${summary()}`);
