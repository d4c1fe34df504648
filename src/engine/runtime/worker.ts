import { performance } from 'node:perf_hooks';
import { ClaimLostError, type WorkItem } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { errorMessage } from '../core/failure-text.js';

/** What a unit's runner may use of the worker running it. */
export interface UnitContext {
  /** The units this worker runs now (a lock held by one of them is busy, not abandoned). */
  readonly running: ReadonlySet<number>;
  /** Aborted when the worker stops its long-running units (`stopWalks`). */
  readonly stop: AbortSignal;
  readonly log: (message: string) => void;
  /**
   * Takes units this engine enqueued already claimed (the dependents a batch made ready, claimed
   * in the transaction that enqueued them): the worker runs them in its next round, renewing
   * their leases meanwhile. `room()` is how many more it takes now.
   */
  readonly next: { room(): number; add(items: readonly WorkItem[]): void };
}

/** Runs one unit of a kind; throwing hands the unit back to run again from its recorded state. */
export type UnitRunner = (item: WorkItem, context: UnitContext) => Promise<void>;

/** Units that run together in a few transactions; returns those left for the single path. */
export interface BatchKind {
  accepts(item: WorkItem): boolean;
  /** Called once per claim round; the runner it gives runs a batch (and its halves). */
  start(context: UnitContext): (items: readonly WorkItem[]) => Promise<WorkItem[]>;
}

/**
 * What the worker knows of the units it runs: a runner per kind, given at construction (engine
 * wiring, work-kinds.ts). The worker claims, batches, times, retries and hands back; what a
 * unit means is its runner's business.
 */
export interface WorkKinds {
  readonly runners: ReadonlyMap<string, UnitRunner>;
  /** Kinds whose unit runs for a whole operation, beside the rounds that follow (a legacy walk). */
  readonly longRunning: ReadonlySet<string>;
  readonly batches: readonly BatchKind[];
}

/**
 * Told of each unit of work a worker ran: its kind, whether it ran without an error (a failed unit
 * is retried) and how long it took. For monitoring: the engine knows no metrics
 * library, the API wires one in.
 */
export type UnitObserver = (kind: string, ok: boolean, ms: number) => void;

/** A failed batch this size or smaller runs as single units rather than in halves. */
const MIN_SPLIT = 8;

/**
 * Claims units of work from the durable queue and runs them. Any engine process can run any
 * unit; a unit whose engine dies is claimed again when its lease expires, and every unit is
 * idempotent, so a crash at any moment loses nothing and duplicates nothing.
 */
export class Worker {
  private readonly running = new Set<number>();
  /** The claims this worker holds now, by item id: its heartbeat renews their leases. */
  private readonly held = new Map<number, WorkItem>();
  /** Units claimed when they were enqueued (see UnitContext.next), in the order to run them. */
  private claimedNext: WorkItem[] = [];
  /** Units that failed and could not be handed back (the database was down): released later. */
  private stranded: WorkItem[] = [];
  private readonly observers = new Set<UnitObserver>();
  /** Legacy walks under way: each holds its unit (and the stack lock) until its operation ends. */
  private readonly walks = new Map<number, Promise<void>>();
  private walkStop = new AbortController();

  constructor(
    private readonly deps: EngineDeps,
    private readonly kinds: WorkKinds,
    private readonly log: (message: string) => void = () => {},
  ) {}

  private context(): UnitContext {
    return { running: this.running, stop: this.walkStop.signal, log: this.log, next: this.next };
  }

  private readonly next: UnitContext['next'] = {
    room: () => Math.max(0, this.batchSize() - this.claimedNext.length),
    add: (items) => {
      for (const item of items) {
        this.held.set(item.id, item);
        this.claimedNext.push(item);
      }
    },
  };

  private batchSize(): number {
    return this.deps.settings.workBatchSize ?? 256;
  }

  /** Tells `observer` of every unit run from now on; returns what stops it. */
  observe(observer: UnitObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  private report(kind: string, ok: boolean, ms: number): void {
    for (const observer of this.observers) {
      try {
        observer(kind, ok, ms);
      } catch {
        // A broken observer must not fail the unit it watches.
      }
    }
  }

  /**
   * Claims and runs up to `limit` units that are due now; returns how many ran. Units a batch
   * kind accepts (update and cleanup nodes in the common case) run as batches; the others, and
   * what the batches leave, one by one, concurrently.
   */
  async runDue(limit = this.batchSize()): Promise<number> {
    const { store, engineId, clock, settings } = this.deps;
    // The units already claimed first (a chain's next links): only the rest of the round is claimed.
    const own = this.claimedNext.splice(0, limit);
    let claimed: WorkItem[] = [];
    try {
      if (own.length < limit)
        claimed = await store.claimWork(engineId, clock.now(), limit - own.length, settings.workLeaseMs);
    } catch (err) {
      // The store failed before they ran: first in line for the round the caller retries (held,
      // so renewed, only until it runs them). Dropped here, they would be renewed and never run.
      this.claimedNext.unshift(...own);
      throw err;
    }
    for (const item of claimed) this.held.set(item.id, item);
    const items = own.length === 0 ? claimed : [...own, ...claimed];
    // A legacy walk runs for the whole operation: it goes on beside the batches that follow.
    const long = this.kinds.longRunning;
    const rest = items.filter((item) => !long.has(item.kind));
    for (const item of items) if (long.has(item.kind)) this.startWalk(item);
    try {
      await this.runClaimed(rest);
    } finally {
      for (const item of rest) this.held.delete(item.id);
    }
    return items.length;
  }

  private startWalk(item: WorkItem): void {
    const walk = this.run(item).finally(() => {
      this.held.delete(item.id);
      this.walks.delete(item.id);
    });
    this.walks.set(item.id, walk);
  }

  /** How many legacy walks are under way. */
  walking(): number {
    return this.walks.size;
  }

  /** Resolves once the legacy walks under way now have ended. */
  async walksEnded(): Promise<void> {
    await Promise.all(this.walks.values());
  }

  /**
   * Stops the legacy walks under way: each hands its unit and stack lock back at its next step,
   * for another engine to resume. Resolves once they have (at once with `wait` false).
   */
  async stopWalks(wait = true): Promise<void> {
    if (this.walks.size === 0) return;
    this.walkStop.abort();
    this.walkStop = new AbortController();
    if (wait) await Promise.all(this.walks.values());
  }

  /**
   * Hands back the units claimed for a next round that has not come (the caller stops running
   * work): due at once for any engine, rather than when their leases end.
   */
  async handBack(): Promise<void> {
    const items = this.claimedNext.splice(0);
    if (items.length === 0) return;
    const { store, clock } = this.deps;
    try {
      await store.tx(async (tx) => {
        for (const item of items) {
          // Lost meanwhile (this engine was presumed dead): its new claimer has it.
          await tx.work.reschedule(item, clock.now(), item.payload).catch((err: unknown) => {
            if (!(err instanceof ClaimLostError)) throw err;
          });
        }
      });
    } catch (err) {
      // Unreachable store: the leases end, and any engine claims the units then.
      this.log(`could not hand back ${items.length} claimed units: ${errorMessage(err)}`);
    } finally {
      for (const item of items) this.held.delete(item.id);
    }
  }

  /** The claims held now (units being run). */
  heldClaims(): WorkItem[] {
    return [...this.held.values()];
  }

  /**
   * Hands back the units that failed while the database was unreachable, so that any engine can
   * run them again at once rather than after their lease. Those still unreachable stay for next time.
   */
  async releaseStranded(): Promise<void> {
    if (this.stranded.length === 0) return;
    const { store, clock } = this.deps;
    const left: WorkItem[] = [];
    for (const item of this.stranded) {
      try {
        await store.tx((tx) => tx.work.reschedule(item, clock.now(), item.payload));
      } catch (err) {
        // Taken over meanwhile: nothing to hand back.
        if (!(err instanceof ClaimLostError)) left.push(item);
      }
    }
    this.stranded = left;
  }

  private async runClaimed(items: readonly WorkItem[]): Promise<void> {
    const { batches } = this.kinds;
    const grouped = batches.map(() => [] as WorkItem[]);
    const single: WorkItem[] = [];
    for (const item of items) {
      const index = batches.findIndex((batch) => batch.accepts(item));
      if (index >= 0) grouped[index]!.push(item);
      else single.push(item);
    }
    const context = this.context();
    await Promise.all([
      ...batches.map((batch, index) => this.runBatch(grouped[index]!, batch.start(context))),
      ...single.map((item) => this.run(item)),
    ]);
  }

  /**
   * Runs a batch, then what it leaves one by one. A batch that fails (a conflict it lost every
   * retry, a unit taken over, a bug in one unit) runs again in halves, so that a few bad units
   * cost a few small batches rather than sending hundreds of units at once down the single path,
   * all racing for the same rows.
   */
  private async runBatch(
    items: readonly WorkItem[],
    run: (items: readonly WorkItem[]) => Promise<WorkItem[]>,
  ): Promise<void> {
    if (items.length === 0) return;
    for (const item of items) this.running.add(item.id);
    const start = performance.now();
    let left: WorkItem[] | undefined;
    let split = false;
    try {
      left = await run(items);
      // Each unit the batch ran gets an even share of its time.
      const share = (performance.now() - start) / items.length;
      const leftIds = new Set(left.map((item) => item.id));
      for (const item of items) if (!leftIds.has(item.id)) this.report(item.kind, true, share);
    } catch (err) {
      // Nothing of a failed batch is recorded: its units run again from their recorded state. A
      // lost claim means this engine was presumed dead, so all its claims likely went at once:
      // one by one, each unit finds out in one statement whether it is still this engine's.
      split = items.length > MIN_SPLIT && !(err instanceof ClaimLostError);
      const how = split ? 'running it again in halves' : 'running them one by one';
      this.log(`a batch of ${items.length} units failed: ${errorMessage(err)}; ${how}`);
    } finally {
      for (const item of items) this.running.delete(item.id);
    }
    if (split) {
      const half = Math.ceil(items.length / 2);
      await this.runBatch(items.slice(0, half), run);
      await this.runBatch(items.slice(half), run);
      return;
    }
    await Promise.all((left ?? items).map((item) => this.run(item)));
  }

  async run(item: WorkItem): Promise<void> {
    this.running.add(item.id);
    const start = performance.now();
    try {
      const runner = this.kinds.runners.get(item.kind);
      // A kind no runner knows (left by an older version) has nothing left to do.
      if (runner) await runner(item, this.context());
      else await this.deps.store.tx((tx) => tx.work.complete(item));
      this.report(item.kind, true, performance.now() - start);
    } catch (err) {
      this.report(item.kind, false, performance.now() - start);
      if (err instanceof ClaimLostError) {
        // This engine was presumed dead and the item taken over: its new claimer runs it.
        this.log(`unit of work ${item.id} (${item.kind} ${item.node}) was taken over: nothing recorded`);
        return;
      }
      // A bug or an unavailable database: the unit runs again in a second, from its last
      // recorded state; if it can't even be handed back now, the engine hands it back later.
      this.log(`unit of work ${item.id} (${item.kind} ${item.node}) failed: ${errorMessage(err)}`);
      await this.deps.store
        .tx((tx) => tx.work.reschedule(item, this.deps.clock.now() + 1000, item.payload))
        .catch((error: unknown) => {
          if (!(error instanceof ClaimLostError)) this.stranded.push(item);
        });
    } finally {
      this.running.delete(item.id);
    }
  }
}
