import { hostname } from 'node:os';
import type { StackProgressCounts, StackRecord } from '../store/contract.js';
import type { EngineDeps } from './deps.js';
import { engineAlive } from './liveness.js';
import { TemplateCache } from './templates.js';
import { Worker } from './worker.js';

/** Progress of a stack while an operation runs, for `--wait` displays. */
export interface StackProgress {
  stack: StackRecord;
  elapsedMs: number;
  counts: StackProgressCounts;
  /** The operation has settled: this is the last report. */
  final: boolean;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Least time between two progress reports (the first and the last are always made). */
  reportEveryMs?: number;
}

/** How often a busy engine still asks whether what it runs for is done. */
const DONE_CHECK_MS = 250;

/**
 * One engine process: a worker over the shared store, a heartbeat in the services table (so other
 * engines can tell it is alive), and a cache of bound templates.
 */
export class Engine {
  readonly cache: TemplateCache;
  readonly worker: Worker;
  private lastBeat = 0;
  private readonly started: number;

  constructor(
    readonly deps: EngineDeps,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.cache = new TemplateCache(deps.plugins.typeCatalog, deps.settings.limits);
    this.worker = new Worker(deps, this.cache, log);
    this.started = deps.clock.now();
  }

  /**
   * Records that this engine is alive, and reaps engines that are not: the units they had claimed
   * become claimable at once instead of after their lease.
   */
  async heartbeat(force = false): Promise<void> {
    const now = this.deps.clock.now();
    if (!force && now - this.lastBeat < 1000) return;
    this.lastBeat = now;
    const reaped = await this.deps.store.tx(async (tx) => {
      await tx.services.heartbeat({
        engineId: this.deps.engineId,
        host: hostname(),
        pid: process.pid,
        startedAt: this.started,
        heartbeatAt: now,
      });
      const dead = (await tx.services.list()).filter(
        (s) =>
          s.engineId !== this.deps.engineId && !engineAlive(s, now, this.deps.settings.engineDeadAfterMs),
      );
      for (const service of dead) {
        await tx.work.releaseClaimsOf(service.engineId, now);
        await tx.services.remove(service.engineId);
      }
      return dead.map((s) => s.engineId);
    });
    for (const id of reaped) this.log(`engine ${id} is gone: its work is released`);
  }

  /**
   * Runs work until `done` says so; sleeps (without holding anything) while nothing is due. `done`
   * is asked whenever nothing ran, and at least every DONE_CHECK_MS while work keeps coming (other
   * stacks' work must not hold up a caller whose own work has ended).
   */
  async runUntil(
    done: () => Promise<boolean>,
    options: { signal?: AbortSignal; onIdle?: () => Promise<void> } = {},
  ) {
    await this.heartbeat(true);
    let lastCheck = this.deps.clock.now();
    while (!options.signal?.aborted) {
      await this.heartbeat();
      const ran = await this.worker.runDue();
      if (ran > 0 && this.deps.clock.now() - lastCheck < DONE_CHECK_MS) continue;
      lastCheck = this.deps.clock.now();
      if (await done()) return;
      if (ran > 0) continue;
      await options.onIdle?.();
      const next = await this.deps.store.nextWorkTime();
      const wait = next === undefined ? 200 : Math.min(200, Math.max(5, next - this.deps.clock.now()));
      await sleep(wait, options.signal);
    }
  }

  /**
   * Runs work until the stack's operation has settled (rollback included), reporting progress:
   * once before any work, at most every `reportEveryMs` (default 250) meanwhile, and once at the end.
   */
  async waitForStack(
    stackId: string,
    onProgress?: (progress: StackProgress) => void | Promise<void>,
    options: WaitOptions = {},
  ): Promise<StackRecord | undefined> {
    const start = this.deps.clock.now();
    const every = options.reportEveryMs ?? 250;
    let lastReport = -Infinity;
    let last: StackRecord | undefined;
    const settled = async () => {
      const now = this.deps.clock.now();
      const due = onProgress !== undefined && now - lastReport >= every;
      const { stack, pending, counts } = await this.deps.store.tx(async (tx) => {
        const found = await tx.stacks.get(stackId);
        return {
          stack: found,
          // Counting the queue costs a pass over the stack's units: only once the stack has settled.
          pending: found?.status === 'IN_PROGRESS' ? undefined : await tx.work.countForStack(stackId),
          counts: due ? await tx.stacks.progress(stackId) : undefined,
        };
      });
      last = stack;
      const final = !stack || (stack.status !== 'IN_PROGRESS' && pending === 0);
      if (stack && onProgress && (due || final)) {
        lastReport = now;
        const latest = counts ?? (await this.deps.store.tx((tx) => tx.stacks.progress(stackId)));
        if (latest) await onProgress({ stack, elapsedMs: now - start, counts: latest, final });
      }
      return final;
    };
    // The first report comes before any work runs: how much there is to do.
    if (await settled()) return last;
    await this.runUntil(settled, options.signal ? { signal: options.signal } : {});
    return last;
  }

  async stop(): Promise<void> {
    await this.deps.store.tx((tx) => tx.services.remove(this.deps.engineId)).catch(() => undefined);
  }
}

/** Waits `ms`, or until `signal` aborts; leaves no listener behind (a server sleeps 5 times a second). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
