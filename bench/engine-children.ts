// Extra engines for the benchmark: `hearth engine --db <url>` child processes sharing the run's
// store, each preloaded with unit-count.ts so it can say how many units of work it claimed.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { UNITS_ANSWER, UNITS_QUESTION } from './unit-count.js';

// Compiled (.bench-dist, the npm scripts) or run through tsx: the children run the same way.
const fromSource = import.meta.url.endsWith('.ts');
const ext = fromSource ? 'ts' : 'js';
const CLI = fileURLToPath(new URL(`../src/cli/index.${ext}`, import.meta.url));
const UNIT_COUNT = new URL(`./unit-count.${ext}`, import.meta.url).href;
const STOP_WITHIN_MS = 30_000;

/** Every child ever started and not yet exited: killed if the benchmark exits without stopping them. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

class EngineChild {
  readonly ready: Promise<void>;
  /** Lines the engine wrote to stderr: at log level debug, anything unusual (a unit taken over, a store error). */
  readonly notes: string[] = [];
  private answers: ((units: number) => void)[] = [];
  private readonly exited: Promise<unknown>;

  constructor(private readonly child: ChildProcess) {
    live.add(child);
    // 'error' (it could not start) rejects `once`: then it has exited too.
    this.exited = once(child, 'exit')
      .catch(() => undefined)
      .finally(() => {
        live.delete(child);
        for (const answer of this.answers.splice(0)) answer(NaN);
      });
    const lines = createInterface({ input: child.stdout! });
    this.ready = new Promise((resolve, reject) => {
      lines.on('line', (line) => {
        if (/^engine \S+ started$/.test(line)) resolve();
        else if (line.startsWith(UNITS_ANSWER))
          this.answers.shift()?.(Number(line.slice(UNITS_ANSWER.length)));
      });
      void this.exited.then(() => reject(new Error(`engine child exited early: ${this.notes.join(' | ')}`)));
    });
    createInterface({ input: child.stderr! }).on('line', (line) => this.notes.push(line));
  }

  /** NaN once the child has exited. */
  unitsClaimed(): Promise<number> {
    if (!live.has(this.child)) return Promise.resolve(NaN);
    return new Promise((resolve) => {
      this.answers.push(resolve);
      this.child.stdin!.write(`${UNITS_QUESTION}\n`);
    });
  }

  /** Highest resident set size (Linux), in bytes; 0 where unknown. */
  peakRss(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  }

  /** SIGTERM (the engine drains and leaves the services table), SIGKILL if it takes too long. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_WITHIN_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** `count` engine processes on the store at `url`, started and ready to claim work. */
export class EngineChildren {
  private constructor(private readonly children: EngineChild[]) {}

  static async start(count: number, url: string): Promise<EngineChildren> {
    // Only our HEARTH_* settings (the configuration rejects unknown ones, and HEARTH_DB from the
    // caller's shell must not redirect the children); debug makes an engine tell of takeovers.
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('HEARTH_')) delete env[name];
    Object.assign(env, { HEARTH_LOG_LEVEL: 'debug', BENCH_UNITS_ON_STDIN: '1' });
    const args = [...(fromSource ? ['--import', 'tsx'] : []), '--import', UNIT_COUNT, CLI];
    const children = Array.from(
      { length: count },
      () =>
        new EngineChild(
          spawn(process.execPath, [...args, '--db', url, 'engine'], { env, stdio: ['pipe', 'pipe', 'pipe'] }),
        ),
    );
    const all = new EngineChildren(children);
    try {
      await Promise.all(children.map((child) => child.ready));
    } catch (error) {
      await all.stop();
      throw error;
    }
    return all;
  }

  /** Units of work each child has claimed so far, in start order. */
  unitsClaimed(): Promise<number[]> {
    return Promise.all(this.children.map((child) => child.unitsClaimed()));
  }

  peakRss(): number[] {
    return this.children.map((child) => child.peakRss());
  }

  notes(): string[] {
    return this.children.flatMap((child) => child.notes);
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => child.stop()));
  }
}
