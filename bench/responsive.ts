// Responsiveness benchmark: `npm run bench:responsive`. A real `hearth serve` child (API and
// engine in one process, noauth, a fresh SQLite file); /healthz and the stack list polled on a
// fixed schedule (a stall delays every request sent during it), first against the idle server
// (the floor), then while a BENCH_SIZE-resource create (OS::Heat::None) is accepted and runs.
// Reports p50/p99/max per route, the POST's latency, the create's wall time, the server's CPU
// time and the load average. Environment: BENCH_SIZE (200000), BENCH_EVERY_MS (20),
// BENCH_IDLE_SECONDS (5), BENCH_PROFILE
// (a folder for the server's CPU profile; bench/stalls.ts reads it).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE = Number(process.env.BENCH_SIZE ?? 200_000);
const EVERY_MS = Number(process.env.BENCH_EVERY_MS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const ROUTES = ['/healthz', '/v1/p/stacks'] as const;

// Compiled (.bench-dist, the npm script) or run through tsx: the child runs the same way.
const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
const CLI = fileURLToPath(new URL(`../src/cli/index.${ext}`, import.meta.url));

async function startServe(db: string): Promise<{ url: string; child: ChildProcess }> {
  const loader = ext === 'ts' ? ['--import', 'tsx'] : [];
  // BENCH_PROFILE=DIR: the server's CPU profile, for `node .bench-dist/bench/stalls.js FILE`.
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE]
    : [];
  const child = spawn(
    process.execPath,
    [
      ...loader,
      ...profile,
      '--max-old-space-size=8192',
      CLI,
      '--db',
      db,
      'serve',
      '--auth',
      'noauth',
      '--port',
      '0',
    ],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      // Heat's request limits (1 MiB bodies) are far below a 200,000-resource template.
      env: {
        ...process.env,
        HEARTH_MAX_TEMPLATE_SIZE: '1000000000',
        HEARTH_MAX_JSON_BODY_SIZE: '1000000000',
      },
    },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`hearth serve exited ${code}: ${out}`)));
  });
  return { url, child };
}

/** User + system CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Requests slower than this are logged (monotonic µs, the CPU profile's clock) for bench/stalls.ts. */
const SLOW_MS = 150;
const slow: [number, number][] = [];

type Samples = Record<(typeof ROUTES)[number], number[]>;

/** Polls both routes in turn every EVERY_MS until `stop` settles. */
async function poll(url: string, stop: Promise<unknown>): Promise<{ samples: Samples; failed: number }> {
  const samples: Samples = { '/healthz': [], '/v1/p/stacks': [] };
  let failed = 0;
  const sent: Promise<void>[] = [];
  let i = 0;
  const timer = setInterval(() => {
    const route = ROUTES[i++ % ROUTES.length]!;
    const start = performance.now();
    const sentUs = process.hrtime.bigint() / 1000n;
    sent.push(
      fetch(`${url}${route}`)
        .then(async (res) => {
          await res.text();
          if (res.status !== 200) failed++;
          const ms = performance.now() - start;
          samples[route].push(ms);
          if (ms >= SLOW_MS) slow.push([Number(sentUs), Number(sentUs) + ms * 1000]);
        })
        .catch(() => void failed++),
    );
  }, EVERY_MS);
  try {
    await stop;
  } finally {
    clearInterval(timer);
  }
  await Promise.all(sent);
  return { samples, failed };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

function describe(samples: Samples): string {
  return ROUTES.map((route) => {
    const v = samples[route];
    const f = (x: number) => x.toFixed(0);
    return `${route} p50 ${f(quantile(v, 0.5))} / p99 ${f(quantile(v, 0.99))} / max ${f(Math.max(...v))} ms (${v.length})`;
  }).join('; ');
}

function template(count: number): unknown {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) resources[`r${i}`] = { type: 'OS::Heat::None' };
  return { heat_template_version: '2018-08-31', resources };
}

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-responsive-'));
const { url, child } = await startServe(join(dir, 'state.db'));
try {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `${new Date().toISOString()}; polls every ${EVERY_MS} ms`,
  );
  console.log(`load average at start: ${load()}`);
  const idle = await poll(url, new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000)));
  console.log(`idle (floor): ${describe(idle.samples)}`);

  const body = JSON.stringify({ stack_name: 'big', template: template(SIZE) });
  const cpuBefore = cpuSeconds(child.pid!);
  const start = performance.now();
  let postMs = NaN;
  const created = (async () => {
    const res = await fetch(`${url}/v1/p/stacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    postMs = performance.now() - start;
    const answer = (await res.json()) as { stack?: { id: string } };
    if (!answer.stack) throw new Error(`the create was refused: ${res.status} ${JSON.stringify(answer)}`);
    const { stack } = answer;
    for (;;) {
      const shown = (await (await fetch(`${url}/v1/p/stacks/big/${stack.id}`)).json()) as {
        stack: { stack_status: string };
      };
      if (shown.stack.stack_status !== 'CREATE_IN_PROGRESS') return shown.stack.stack_status;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  const busy = await poll(url, created);
  const status = await created;
  const wallS = (performance.now() - start) / 1000;
  const cpuS = cpuSeconds(child.pid!) - cpuBefore;
  console.log(
    `create of ${SIZE}: ${status}; POST answered in ${(postMs / 1000).toFixed(1)} s; ` +
      `wall ${wallS.toFixed(1)} s; server CPU ${cpuS.toFixed(1)} s`,
  );
  console.log(`during the create: ${describe(busy.samples)}; ${busy.failed} failed`);
  console.log(`load average at end: ${load()}`);
  if (process.env.BENCH_PROFILE)
    writeFileSync(join(process.env.BENCH_PROFILE, 'slow.json'), JSON.stringify(slow));
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
