import { hostname } from 'node:os';
import type { StackActivity, StackProgressCounts, StackRecord, Tx } from '../store/contract.js';
import { shareCloudRate } from './runtime/cloud-rate.js';
import type { EngineDeps } from './core/deps.js';
import { engineAlive } from './runtime/liveness.js';
import { TemplateCache } from './core/templates.js';
import { Worker } from './runtime/worker.js';
import { engineWorkKinds } from './work-kinds.js';
import { errorMessage } from './core/failure-text.js';
import { yieldToLoop } from '../util/loop-slice.js';

/** Progress of a stack while an operation runs, for `--wait` displays. */
export interface StackProgress {
  stack: StackRecord;
  elapsedMs: number;
  counts: StackProgressCounts;
  /** A few running (longest first) and failed resources by name. */
  activity: StackActivity;
  /** The operation has settled: this is the last report. */
  final: boolean;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Least time between two progress reports (the first and the last are always made). */
  reportEveryMs?: number;
}

/** How many running and failed resources a progress report names. */
const ACTIVITY_NAMES = 3;

/** How often a busy engine still asks whether what it runs for is done. */
const DONE_CHECK_MS = 250;
/** Longest idle wait between two looks at the queue (a notification usually comes first). */
const IDLE_POLL_MS = 200;
/** Backoff after store errors (a lost connection, a database restart): doubles up to the cap. */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;

/**
 * One engine process: a worker over the shared store, a heartbeat in the services table (so other
 * engines can tell it is alive, and the leases of the units it runs stay its own), and a cache of
 * bound templates.
 */
export class Engine {
  readonly cache: TemplateCache;
  readonly worker: Worker;
  private lastBeat = 0;
  private readonly started: number;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  /** runUntil and whileBeating calls under way: the heartbeat runs while there is one. */
  private heartbeatHolders = 0;

  constructor(
    readonly deps: EngineDeps,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.cache = new TemplateCache(deps.plugins.typeCatalog, deps.settings.limits);
    this.worker = new Worker(deps, engineWorkKinds(deps, this.cache), log);
    this.started = deps.clock.now();
  }

  private get heartbeatIntervalMs(): number {
    return this.deps.settings.heartbeatIntervalMs ?? 1000;
  }

  /**
   * Records that this engine is alive, renews the leases of the units it runs, and reaps engines
   * that are not alive: the units they had claimed become claimable at once instead of after
   * their lease. An engine that was itself reaped (it stalled) simply registers again: what it
   * was running is fenced off by its lost claims. The engines it finds alive set its share of
   * the cloud rate limit.
   */
  async heartbeat(force = false): Promise<void> {
    const now = this.deps.clock.now();
    if (!force && now - this.lastBeat < this.heartbeatIntervalMs) return;
    this.lastBeat = now;
    const { engineId, settings } = this.deps;
    const held = this.worker.heldClaims();
    const { reaped, live } = await this.deps.store.tx(async (tx) => {
      await tx.services.heartbeat({
        engineId,
        host: hostname(),
        pid: process.pid,
        startedAt: this.started,
        heartbeatAt: now,
      });
      // Only leases past their first half: a unit's own transaction then rarely meets the
      // heartbeat's write on its work row (a conflict that would make it run again).
      if (held.length > 0) {
        await tx.work.renewClaims(held, now + settings.workLeaseMs, now + settings.workLeaseMs / 2);
      }
      const services = await tx.services.list();
      const dead = services.filter(
        (s) => s.engineId !== engineId && !engineAlive(s, now, settings.engineDeadAfterMs),
      );
      for (const service of dead) {
        await tx.work.releaseClaimsOf(service.engineId, now);
        await tx.services.remove(service.engineId);
      }
      return { reaped: dead.map((s) => s.engineId), live: services.length - dead.length };
    });
    shareCloudRate(this.deps, live);
    for (const id of reaped) this.log(`engine ${id} is gone: its work is released`);
  }

  /**
   * Heartbeats on a timer of its own, not between units of work: a long batch must not make this
   * engine look dead. A failed beat (the database is away) is retried at the next tick.
   */
  startHeartbeat(): void {
    if (this.heartbeatTimer) return;
    const beat = () => {
      if (this.beating) return;
      this.beating = this.heartbeat(true)
        .catch((err: unknown) => this.log(`heartbeat failed: ${errorMessage(err)}`))
        .finally(() => (this.beating = undefined));
    };
    this.heartbeatTimer = setInterval(beat, this.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
    beat();
  }

  async stopHeartbeat(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    await this.beating;
  }

  /**
   * Runs `fn` with this engine's heartbeat going (started if it does not run, stopped after if
   * nothing else needs it): a process that calls the cloud without running work, such as a
   * drift detection from the CLI or an API server without workers, is then one of the live
   * engines that share the cloud rate limit, and holds its share while it calls.
   */
  async whileBeating<T>(fn: () => Promise<T>): Promise<T> {
    const release = this.holdHeartbeat();
    try {
      // The first beat sets the share before the first call.
      await this.beating;
      return await fn();
    } finally {
      await release();
    }
  }

  /** Starts the heartbeat unless it runs; the last holder to let go stops it. */
  private holdHeartbeat(): () => Promise<void> {
    this.heartbeatHolders++;
    this.startHeartbeat();
    let held = true;
    return async () => {
      if (!held) return;
      held = false;
      if (--this.heartbeatHolders === 0) await this.stopHeartbeat();
    };
  }

  /**
   * Runs work until `done` says so, or `signal` aborts (then it stops claiming and returns once
   * the units it runs have finished). Sleeps while nothing is due, waking early when the store
   * says work arrived. `done` is asked whenever nothing ran, and at least every DONE_CHECK_MS
   * while work keeps coming (other stacks' work must not hold up a caller whose own work has
   * ended). Store errors don't end it: it backs off and tries again, so an engine rides out a
   * lost connection or a database restart.
   */
  async runUntil(
    done: () => Promise<boolean>,
    options: { signal?: AbortSignal; onIdle?: () => Promise<void> } = {},
  ) {
    const wake = new Wakeup(options.signal);
    const unsubscribe = this.deps.store.onWork(() => wake.notify());
    const releaseHeartbeat = this.holdHeartbeat();
    let lastCheck = this.deps.clock.now();
    let backoff = 0;
    try {
      while (!options.signal?.aborted) {
        try {
          await this.worker.releaseStranded();
          const ran = await this.worker.runDue();
          // better-sqlite3 and in-row resource types finish without I/O: without a turn of the
          // event loop here, a busy engine would run as one chain of microtasks and starve the
          // API requests served by the same process (hearth serve).
          await yieldToLoop();
          if (backoff > 0) this.log('the store is reachable again');
          backoff = 0;
          if (ran > 0 && this.deps.clock.now() - lastCheck < DONE_CHECK_MS) continue;
          lastCheck = this.deps.clock.now();
          if (await done()) return;
          if (ran > 0) continue;
          await options.onIdle?.();
          const next = await this.deps.store.nextWorkTime();
          const wait =
            next === undefined
              ? IDLE_POLL_MS
              : Math.min(IDLE_POLL_MS, Math.max(5, next - this.deps.clock.now()));
          await wake.wait(wait);
        } catch (err) {
          backoff = backoff === 0 ? FIRST_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, backoff * 2);
          this.log(`store error: ${errorMessage(err)}; trying again in ${backoff} ms`);
          await sleep(backoff * (0.5 + Math.random() / 2), options.signal);
        }
      }
    } finally {
      // A stopping engine hands its legacy walks back; a caller whose stack settled has none left.
      if (options.signal?.aborted) await this.worker.stopWalks();
      // Units claimed for a round that will not come now: any engine may run them at once.
      await this.worker.handBack();
      unsubscribe();
      await releaseHeartbeat();
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
      const { stack, pending, report } = await this.deps.store.tx(async (tx) => {
        const found = await tx.stacks.get(stackId);
        return {
          stack: found,
          // Counting the queue costs a pass over the stack's units: only once the stack has settled.
          pending: found?.status === 'IN_PROGRESS' ? undefined : await tx.work.countForStack(stackId),
          report: due ? await progressReport(tx, stackId) : undefined,
        };
      });
      last = stack;
      const final = !stack || (stack.status !== 'IN_PROGRESS' && pending === 0);
      if (stack && onProgress && (due || final)) {
        lastReport = now;
        const latest = report ?? (await this.deps.store.tx((tx) => progressReport(tx, stackId)));
        if (latest) await onProgress({ stack, elapsedMs: now - start, ...latest, final });
      }
      return final;
    };
    // The first report comes before any work runs: how much there is to do.
    if (await settled()) return last;
    await this.runUntil(settled, options.signal ? { signal: options.signal } : {});
    return last;
  }

  /**
   * Leaves the cluster: hands back every claim this engine holds and removes its heartbeat row, so
   * nobody waits for it to look dead. After a drain nothing runs any more; after a drain that ran
   * out of time, units still running lose their claims: other engines take them over at once, and
   * their late results are fenced off.
   */
  async stop(): Promise<void> {
    void this.worker.stopWalks(false);
    await this.stopHeartbeat();
    const { store, engineId, clock } = this.deps;
    await store
      .tx(async (tx) => {
        await tx.work.releaseClaimsOf(engineId, clock.now());
        await tx.services.remove(engineId);
      })
      .catch(() => undefined);
  }
}

/** The counts and names of a progress report, read in the caller's transaction. */
async function progressReport(
  tx: Tx,
  stackId: string,
): Promise<{ counts: StackProgressCounts; activity: StackActivity } | undefined> {
  const counts = await tx.stacks.progress(stackId);
  if (!counts) return undefined;
  return { counts, activity: await tx.stacks.activity(stackId, ACTIVITY_NAMES) };
}

/** An idle wait that a notification ends early; a notification while busy ends the next wait at once. */
class Wakeup {
  private pending = false;
  private resolve: (() => void) | undefined;

  constructor(private readonly signal?: AbortSignal) {}

  notify(): void {
    if (this.resolve) this.resolve();
    else this.pending = true;
  }

  async wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      this.resolve = resolve;
      void sleep(ms, this.signal).then(resolve);
    });
    this.resolve = undefined;
    this.pending = false;
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
