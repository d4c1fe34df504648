import type { Json } from '../../util/json.js';
import type { WorkQueueStats } from '../queries.js';

/* The work queue: units of work any engine may claim, leased and fenced by their claims. */

/** What identifies one claim of a work item (a WorkItem is one). */
export interface Claim {
  readonly id: number;
  readonly claimedBy: string | null;
}

/**
 * A unit of work tried to record its outcome after losing its claim (its engine was presumed dead
 * and another took the item over). Its transaction rolls back: the new claimer runs the unit.
 */
export class ClaimLostError extends Error {
  constructor(readonly itemId: number) {
    super(`unit of work ${itemId} is no longer claimed by this engine`);
    this.name = 'ClaimLostError';
  }
}

/** A unit of work: "check node N of traversal T" (or another kind), claimable by any engine. */
export interface WorkItem {
  id: number;
  rootStackId: string;
  stackId: string;
  traversalId: string;
  kind: string;
  /** The graph node, e.g. `u:12` (update node of resource row 12) or `c:7` (cleanup of row 7). */
  node: string;
  payload: Json;
  /** Not claimable before this time (persisted polling and backoff). */
  runAt: number;
  attempts: number;
  /**
   * The claim: `<engine id>#<attempt>`, unique to one claim of the item (a fencing token). A unit
   * writes its outcome only while the item is still claimed with this token.
   */
  claimedBy: string | null;
  claimExpires: number | null;
  /**
   * The key of the event the item is parked on (e.g. `stack:<id>`: that nested stack finished), or
   * null. A parked item stays queued (its locks stay held) until `wakeWaiting(key)` or its runAt.
   */
  waitingFor: string | null;
  /**
   * The inputs the unit carries (a direct dependent's one input: SyncPointRecord.direct), which
   * it reads instead of its sync point's; null or absent: its sync point's. Kept by reschedule.
   */
  inputs?: Record<string, Json> | null;
}

export interface NewWork {
  rootStackId: string;
  stackId: string;
  traversalId: string;
  kind: string;
  node: string;
  payload?: Json;
  runAt?: number;
  inputs?: Record<string, Json>;
}

/** The work queue, in the same database as the state it changes. */
export interface WorkRepository {
  enqueue(items: NewWork[]): Promise<void>;
  /**
   * enqueue() of items claimed at once by `engineId` (its first attempt) with a lease until
   * `expires`: the caller runs them next without a claim of its own. Should it die first, the
   * items are claimed again once the lease ends, as any claim of a dead engine.
   */
  enqueueClaimed(items: NewWork[], engineId: string, expires: number): Promise<WorkItem[]>;
  /**
   * Removes a finished item. Throws ClaimLostError (rolling back the caller's transaction) when
   * the item is no longer claimed with `claim.claimedBy`: another engine took it over, and it
   * alone may write the unit's outcome now.
   */
  complete(claim: Claim): Promise<void>;
  /** complete() for many items: one statement; throws ClaimLostError if any claim was lost. */
  completeMany(claims: readonly Claim[]): Promise<void>;
  /**
   * Persisted polling: release the claim and make the item claimable again at `runAt`. With
   * `waitingFor`, the item is parked on that key: `wakeWaiting(key)` makes it due at once, and
   * `runAt` is only a safety deadline (no polling). Without it, the item waits for nothing (an
   * earlier key is cleared). Throws ClaimLostError as complete() does.
   */
  reschedule(claim: Claim, runAt: number, payload?: Json, waitingFor?: string): Promise<void>;
  /** Items of a traversal (for tests and cancellation). */
  listForTraversal(traversalId: string): Promise<WorkItem[]>;
  deleteForTraversal(traversalId: string): Promise<void>;
  /** Whether an item still exists (queued or claimed). */
  exists(id: number): Promise<boolean>;
  /** Whether a signal item for the same node was queued before item `id` and is still there. */
  signalQueuedBefore(node: string, id: number): Promise<boolean>;
  /** Makes every item claimed by `engineId` claimable now (that engine is dead, or stopping). */
  releaseClaimsOf(engineId: string, now: number): Promise<number>;
  /**
   * Extends the leases of these claims to `expires` (an engine's heartbeat, for the units it is
   * running), those whose lease ends before `renewBefore` only; a claim lost meanwhile is left
   * alone. Returns how many it extended.
   */
  renewClaims(claims: readonly Claim[], expires: number, renewBefore?: number): Promise<number>;
  /**
   * How many items of a stack are queued or running (an operation has settled at 0), its
   * observation (kind `observe`, which never ends) left out.
   */
  countForStack(stackId: string): Promise<number>;
  /**
   * The queue's size by state at `now`, for monitoring: read from indexes only (no item row is
   * decoded), one pass over the queue's smallest index.
   */
  stats(now: number): Promise<WorkQueueStats>;
  /**
   * Wakes items of a node now (e.g. a nested stack finished): sets runAt to `now` (never later).
   * For an item claimed at the time, its next `reschedule` makes it due no later than `now`, so
   * a wake that races a poll is not lost. Returns the number of items of the node.
   */
  wake(traversalId: string, node: string, now: number): Promise<number>;
  /**
   * The event `key` happened: every item parked on it becomes due at `now` (never later than it
   * was). The key stays set until the item's next `reschedule` or `complete`, so a wake that
   * arrives while the item is claimed (its worker looked, saw nothing yet, and is about to park it
   * again) makes that next `reschedule` due no later than `now`: no lost wake-up, provided the
   * item was parked on the key before the event could happen (e.g. in the transaction that
   * started what it waits for). Returns the number of items parked on the key.
   */
  wakeWaiting(key: string, now: number): Promise<number>;
}
