import { hostname } from 'node:os';
import type { StackRecord } from '../store/contract.js';
import type { EngineDeps } from './deps.js';
import { engineAlive } from './liveness.js';
import { TemplateCache } from './templates.js';
import { Worker } from './worker.js';

/** Progress of a stack while an operation runs, for `--wait` displays. */
export interface StackProgress {
  stack: StackRecord;
  elapsedMs: number;
}

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

  /** Runs work until `done` says so; sleeps (without holding anything) while nothing is due. */
  async runUntil(
    done: () => Promise<boolean>,
    options: { signal?: AbortSignal; onIdle?: () => Promise<void> } = {},
  ) {
    await this.heartbeat(true);
    while (!options.signal?.aborted) {
      await this.heartbeat();
      const ran = await this.worker.runDue();
      if (ran > 0) continue;
      if (await done()) return;
      await options.onIdle?.();
      const next = await this.deps.store.nextWorkTime();
      const wait = next === undefined ? 200 : Math.min(200, Math.max(5, next - this.deps.clock.now()));
      await sleep(wait, options.signal);
    }
  }

  /** Runs work until the stack's operation has settled (rollback included), reporting progress. */
  async waitForStack(
    stackId: string,
    onProgress?: (progress: StackProgress) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<StackRecord | undefined> {
    const start = this.deps.clock.now();
    let last: StackRecord | undefined;
    const settled = async () => {
      const { stack, pending } = await this.deps.store.tx(async (tx) => ({
        stack: await tx.stacks.get(stackId),
        pending: await tx.work.countForStack(stackId),
      }));
      last = stack;
      if (stack) await onProgress?.({ stack, elapsedMs: this.deps.clock.now() - start });
      return !stack || (stack.status !== 'IN_PROGRESS' && pending === 0);
    };
    await this.runUntil(settled, signal ? { signal } : {});
    return last;
  }

  async stop(): Promise<void> {
    await this.deps.store.tx((tx) => tx.services.remove(this.deps.engineId)).catch(() => undefined);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
