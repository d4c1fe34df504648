// Engine benchmark: create / update (every resource) / update (one resource) / delete of N
// resources on the embedded SQLite store, in three shapes. `npm run bench:engine`.
// Environment: BENCH_SIZES (default 1000,10000), BENCH_SHAPES (chains,group,fan), BENCH_OPS,
// BENCH_PROFILE.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EngineDeps } from '../src/engine/deps.js';
import { SYSTEM_CLOCK } from '../src/engine/deps.js';
import { Engine } from '../src/engine/engine.js';
import { createStack, deleteStack, type TemplateInput, updateStack } from '../src/engine/operations.js';
import { builtinPlugins, pluginCatalog } from '../src/resources/catalog.js';
import { MemoryReality } from '../src/resources/reality/memory.js';
import { openStore } from '../src/store/index.js';
import { emptyEnvironment } from '../src/template/environment/index.js';
import { DEFAULT_LIMITS } from '../src/template/limits.js';

type Shape = 'chains' | 'fan' | 'group';

function template(n: number, shape: Shape, value: string, changeOne = false): string {
  if (shape === 'group') return groupTemplate(n, value, changeOne);
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    const v = changeOne && i === n - 1 ? `${value}-changed` : value;
    const dep = shape === 'chains' && i % 10 !== 0 ? `, depends_on: [r${i - 1}]` : '';
    lines.push(`  r${i}: {type: OS::Heat::Value, properties: {value: ${v}}${dep}}`);
  }
  if (shape === 'fan') {
    lines.push('outputs:', '  all:', '    value:', '      list_join:', "        - ','", '        -');
    for (let i = 0; i < n; i++) lines.push(`          - {get_attr: [r${i}, value]}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One ResourceGroup of n OS::Heat::Value members. "Change one" grows the group by one member (a
 * group's members share their definition, so one member cannot change alone).
 */
function groupTemplate(n: number, value: string, changeOne: boolean): string {
  return `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${changeOne ? n + 1 : n}
      resource_def: {type: OS::Heat::Value, properties: {value: ${value}}}
outputs:
  values: {value: {get_attr: [group, value]}}
`;
}

async function run(n: number, shape: Shape): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-'));
  const store = await openStore(join(dir, 'bench.db'));
  await store.migrate();
  const deps: EngineDeps = {
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
    },
  };
  const engine = new Engine(deps);
  const input = (text: string): TemplateInput => ({
    url: 'file:///bench.yaml',
    text,
    files: {},
    environment: emptyEnvironment(),
  });
  const timed = async (label: string, start: () => Promise<{ id: string }>) => {
    await profiler?.post('Profiler.start');
    const t0 = performance.now();
    const stack = await start();
    const final = await engine.waitForStack(stack.id);
    const ms = performance.now() - t0;
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      const file = join(profileDir!, `${shape}-${n}-${label.replace(' ', '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
    }
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
    const memory = process.memoryUsage();
    const peak = process.resourceUsage().maxRSS * 1024;
    // With --expose-gc: what the process still holds once the operation's garbage is gone.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const retained = gc ? `, heap retained ${mib(process.memoryUsage().heapUsed)}` : '';
    console.log(
      `  ${shape} n=${n} ${label}: ${(ms / 1000).toFixed(2)} s (${final?.action}_${final?.status}), ` +
        `rss ${mib(memory.rss)} (heap ${mib(memory.heapUsed)}${retained}), peak rss so far ${mib(peak)}`,
    );
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
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

const sizes = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const shapes = (process.env.BENCH_SHAPES ?? 'chains,group,fan').split(',') as Shape[];
/** Operations after the create: BENCH_OPS=update-all,update-one,delete (default all). */
const ops = new Set((process.env.BENCH_OPS ?? 'update-all,update-one,delete').split(','));
/** BENCH_PROFILE=DIR writes a CPU profile of each operation into DIR. */
const profileDir = process.env.BENCH_PROFILE;
const profiler = profileDir ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
}
for (const n of sizes) for (const shape of shapes) await run(n, shape);
