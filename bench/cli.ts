// The user's path: `hearth stack create/update/delete --wait` through the real command, on an
// embedded SQLite file, then the same through a `hearth serve` child and the CLI with --url.
// `npm run bench:cli`. Per operation: wall time, CPU time (user + system of every Hearth process:
// the CLI and the server), peak RSS of each, and the floor (bench/cli-floor.ts, run in the same
// run) with the ratio CPU / floor; the load average before and after.
// Environment: BENCH_SIZES (default 100000), BENCH_SHAPES (chains,fan,group), BENCH_MODES
// (embedded,serve), BENCH_OPS (update-one,update-all,delete: after the create; updates-10: ten
// updates of one resource each, then the database's size, chains and fan only), BENCH_HEARTH (the
// command's script, default bin/hearth.js of this checkout), BENCH_NODE_FLAGS (node flags for
// every Hearth child, to compare runtime settings).
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { envList, markdownTable } from './report.js';
import { type Shape, template } from './shapes.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HEARTH = process.env.BENCH_HEARTH ?? join(ROOT, 'bin/hearth.js');
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const TIME = '/usr/bin/time';
/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

const ENV = {
  ...process.env,
  // A 100,000-resource fan template is 10 MB of YAML: over the default limit.
  HEARTH_MAX_TEMPLATE_SIZE: '200000000',
  // ... and the request carrying it to `hearth serve` is over the API's body limit.
  HEARTH_MAX_JSON_BODY_SIZE: '400000000',
  NO_COLOR: '1',
};

/** user + system ms of this process's reaped children (/proc/self/stat cutime + cstime). */
function childrenCpuMs(): number {
  const fields = statFields('self');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** A live process and its descendants (bin/hearth.js may have started node again under it). */
function tree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return [pid, ...(children === '' ? [] : children.split(' ').flatMap((c) => tree(Number(c))))];
}

/** user + system ms of a live process and its descendants. */
function processCpuMs(pid: number): number {
  let ms = 0;
  for (const p of tree(pid)) {
    const fields = statFields(String(p));
    ms += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  }
  return ms;
}

/** /proc/<pid>/stat from its third field on (the state), the command name skipped. */
function statFields(pid: string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The largest peak RSS (VmHWM) of a live process and its descendants, in bytes. */
function peakRss(pid: number): number {
  return Math.max(
    ...tree(pid).map((p) => {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
      return Number(kb ?? 0) * 1024;
    }),
  );
}

const load = () => loadavg()[0]!.toFixed(2);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)}`;
const secs = (ms: number) => (ms / 1000).toFixed(2);

interface Run {
  wallMs: number;
  cpuMs: number;
  /** Peak RSS of the command (GNU time's %M), bytes. */
  rss: number;
}

/**
 * The command line of `hearth <args>`: the script run as a user runs it (its own first line
 * chooses node's flags), or under this node with BENCH_NODE_FLAGS.
 */
function command(args: string[]): string[] {
  return NODE_FLAGS.length === 0 ? [HEARTH, ...args] : [process.execPath, ...NODE_FLAGS, HEARTH, ...args];
}

/** Runs `hearth <args>` to its end under GNU time; its output goes to `log`. */
async function hearth(args: string[], dir: string, log: string): Promise<Run> {
  const rssFile = join(dir, 'rss');
  const out = openSync(log, 'a');
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const child = spawn(TIME, ['-f', '%M', '-o', rssFile, ...command(args)], {
    cwd: dir,
    env: ENV,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const code = await new Promise<number | null>((res) => child.once('exit', res));
  const wallMs = performance.now() - t0;
  if (code !== 0) {
    const tail = readFileSync(log, 'utf8').split('\n').slice(-20).join('\n');
    throw new Error(`hearth ${args.join(' ')} exited ${code}:\n${tail}`);
  }
  const rss = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) * 1024;
  return { wallMs, cpuMs: childrenCpuMs() - cpu0, rss };
}

/** A `hearth serve` child on `db`: its URL, and its CPU and peak RSS while it runs. */
async function serve(db: string, log: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const err = openSync(log, 'a');
  const [file, ...rest] = command(['--db', db, 'serve', '--auth', 'noauth', '--port', '0']);
  const child = spawn(file!, rest, { env: ENV, stdio: ['ignore', 'pipe', err] });
  closeSync(err);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  let output = '';
  const url = await new Promise<string>((res, rej) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      output += s;
      const found = /listening on (\S+)/.exec(output)?.[1];
      if (found) res(found);
    });
    child.once('exit', (code) => rej(new Error(`hearth serve exited ${code}: ${output}`)));
  });
  return {
    url: `${url}/v1/admin`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Row {
  mode: string;
  shape: Shape;
  n: number;
  op: string;
  wallMs: number;
  cpuMs: number;
  cliRss: number;
  serverRss: number | undefined;
  floorMs: number;
  load: string;
}

const rows: Row[] = [];

/** The floor for n resources: its CPU time, from a child like the others. */
async function floorCpuMs(n: number, dir: string): Promise<number> {
  const script = join(import.meta.dirname, 'cli-floor.js');
  const cpu0 = childrenCpuMs();
  const child = spawn(process.execPath, [script, String(n), join(dir, `floor-${n}.db`)], {
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((res) => child.once('exit', res));
  if (code !== 0) throw new Error(`the floor exited ${code}`);
  return childrenCpuMs() - cpu0;
}

async function run(mode: string, shape: Shape, n: number, floorMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-cli-'));
  const log = join(dir, 'out.log');
  const db = join(dir, 'state.db');
  const server = mode === 'serve' ? await serve(db, join(dir, 'serve.log')) : undefined;
  const target = server ? ['--url', server.url] : ['--db', db];
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), name);
  try {
    const timed = async (op: string, args: string[]) => {
      const before = load();
      const serverCpu0 = server ? processCpuMs(server.pid) : 0;
      const r = await hearth([...target, ...args], dir, log);
      const cpuMs = r.cpuMs + (server ? processCpuMs(server.pid) - serverCpu0 : 0);
      const row: Row = {
        mode,
        shape,
        n,
        op,
        wallMs: r.wallMs,
        cpuMs,
        cliRss: r.rss,
        serverRss: server ? peakRss(server.pid) : undefined,
        floorMs,
        load: `${before} → ${load()}`,
      };
      rows.push(row);
      console.log(
        `  ${mode} ${shape} n=${n} ${op}: wall ${secs(r.wallMs)} s, CPU ${secs(cpuMs)} s ` +
          `(${(cpuMs / floorMs).toFixed(1)}× floor), CLI peak RSS ${mib(r.rss)} MiB` +
          `${server ? `, server peak RSS ${mib(row.serverRss!)} MiB` : ''}, load ${row.load}`,
      );
    };
    await timed('create', [
      'stack',
      'create',
      'bench',
      '-t',
      file('a.yaml', template(n, shape, 'a')),
      '--wait',
    ]);
    let value = 'a';
    if (ops.has('update-one'))
      await timed('update one', [
        'stack',
        'update',
        'bench',
        '-t',
        file('one.yaml', template(n, shape, value, true)),
        '--wait',
      ]);
    if (ops.has('updates-10') && shape !== 'group') {
      const base = template(n, shape, value);
      const at = base.lastIndexOf(`{value: ${value}}`);
      console.log(`  database after the create: ${dbSize(db)}`);
      for (let k = 1; k <= 10; k++) {
        const text = `${base.slice(0, at)}{value: ${value}-${k}}${base.slice(at + `{value: ${value}}`.length)}`;
        await timed(`update one #${k}`, [
          'stack',
          'update',
          'bench',
          '-t',
          file(`u${k}.yaml`, text),
          '--wait',
        ]);
      }
      console.log(`  database after ten updates of one resource: ${dbSize(db)}`);
    }
    if (ops.has('update-all')) {
      value = 'b';
      await timed('update all', [
        'stack',
        'update',
        'bench',
        '-t',
        file('b.yaml', template(n, shape, value)),
        '--wait',
      ]);
    }
    if (ops.has('delete')) await timed('delete', ['stack', 'delete', 'bench', '--yes', '--wait']);
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The database file's size and its write-ahead log's, in MiB. */
function dbSize(db: string): string {
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  return `${(size(db) / 2 ** 20).toFixed(1)} MiB (+ WAL ${(size(`${db}-wal`) / 2 ** 20).toFixed(1)} MiB)`;
}

/** The figures as a Markdown table, for docs/benchmarks.md. */
function summary(): string {
  const table = [
    [
      'mode',
      'shape',
      'N',
      'operation',
      'wall',
      'CPU',
      'CPU / floor',
      'peak RSS CLI',
      'peak RSS server',
      'load',
    ],
    ...rows.map((r) => [
      r.mode,
      r.shape,
      r.n.toLocaleString('en'),
      r.op,
      `${secs(r.wallMs)} s`,
      `${secs(r.cpuMs)} s`,
      `${(r.cpuMs / r.floorMs).toFixed(1)}×`,
      `${mib(r.cliRss)} MiB`,
      r.serverRss === undefined ? '' : `${mib(r.serverRss)} MiB`,
      r.load,
    ]),
  ];
  return markdownTable(table);
}

const sizes = envList(process.env.BENCH_SIZES, '100000').map(Number);
const shapes = envList(process.env.BENCH_SHAPES, 'chains,fan,group') as Shape[];
const modes = envList(process.env.BENCH_MODES, 'embedded,serve');
const ops = new Set(envList(process.env.BENCH_OPS, 'update-one,update-all,delete'));

console.log(`hearth: ${HEARTH}${NODE_FLAGS.length ? ` (node ${NODE_FLAGS.join(' ')})` : ''}, load ${load()}`);
const floorDir = mkdtempSync(join(tmpdir(), 'hearth-bench-floor-'));
const floors = new Map<number, number>();
try {
  for (const n of sizes) {
    floors.set(n, await floorCpuMs(n, floorDir));
    console.log(`  floor n=${n}: CPU ${secs(floors.get(n)!)} s`);
  }
} finally {
  rmSync(floorDir, { recursive: true, force: true });
}
for (const n of sizes)
  for (const shape of shapes) for (const mode of modes) await run(mode, shape, n, floors.get(n)!);
console.log(
  `\nfloor CPU: ${[...floors].map(([n, ms]) => `n=${n} ${secs(ms)} s`).join(', ')}\n\n${summary()}`,
);
