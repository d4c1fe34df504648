import { type ActionResult, type PollResult, ResourceInError } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import { isPlainObject, type Json } from '../../util/json.js';
import type { EngineDeps } from '../core/deps.js';
import { resourceEvent } from '../core/events.js';
import { failNode, timeoutAt } from './failure.js';
import { resourceFailureText } from '../core/failure-text.js';
import { lockState } from './locks.js';
import {
  type NodePayload,
  type NodeScope,
  pluginContext,
  pollDelay,
  type RetryPayload,
} from '../context/node-work.js';
import { drop, retryLater } from '../context/node-work.js';

/*
 * Heat's action_retry_limit, in convergence terms. A create that fails with ResourceInError while
 * retries remain does not fail its resource: its unit deletes what the attempt made (as Heat
 * deletes before it retries), waits out a backoff, and creates again on the same row with a new
 * idempotency key. A delete that fails so is retried as it is. Updates are not retried (nor in
 * Heat), and nor is any other failure. The counts are written in the transaction of the step they
 * start (the row's createRetries and progress; a cleanup's count in its unit's payload), so a crash
 * neither resets nor doubles them. A backoff is a reschedule with a not-before time, with the row
 * unlocked: a cancel or a newer traversal is never held up by it, and the waiting unit, superseded,
 * stops.
 */

/** Backoffs stop growing here (in units of the scale: 5 minutes by default), where Heat's do not. */
const MAX_BACKOFF = 300;

/** What a row whose create is being retried keeps in `progress` while what it made is deleted. */
interface RetryState {
  op: 'retry';
  /** Why the create failed: the row's reason while the retry waits. */
  failure: string;
  /** Retries of that delete so far. */
  deletes: number;
  /** The plugin's progress of that delete, once started and pending. */
  deleting?: Json;
}

function retryState(row: ResourceRecord): RetryState | undefined {
  const p = row.progress;
  return isPlainObject(p) &&
    p.op === 'retry' &&
    typeof p.failure === 'string' &&
    typeof p.deletes === 'number'
    ? (p as unknown as RetryState)
    : undefined;
}

/** Whether a unit may retry an action that failed with `err` after `done` retries. */
export function mayRetry(scope: NodeScope, err: unknown, done: number): boolean {
  return scope.current && err instanceof ResourceInError && done < scope.deps.settings.actionRetryLimit;
}

/** Heat's retry_backoff_delay(retry, jitter_max=2): 2^retry seconds plus up to 2 s of jitter, capped. */
export function retryDelayMs(deps: EngineDeps, retry: number): number {
  const scale = deps.settings.actionRetryBackoffMs ?? 1000;
  return Math.min(2 ** retry, MAX_BACKOFF) * scale + deps.random() * 2 * scale;
}

/** The end of a backoff, but no later than the stack's timeout, so that a retrying resource fails on time. */
function retryAt(scope: NodeScope, retry: number): number {
  const { deps, stack } = scope;
  return Math.min(deps.clock.now() + retryDelayMs(deps, retry), timeoutAt(deps, stack) + 1);
}

/** The reason of a retry's IN_PROGRESS event. */
export function retryReason(deps: EngineDeps, action: string, retry: number): string {
  return `Retrying ${action} (retry ${retry} of ${deps.settings.actionRetryLimit})`;
}

/**
 * The create attempt on `row` (locked by this unit, or abandoned) failed retryably with `failure`:
 * the failure is told (CREATE_FAILED), and the row stays locked for the delete of what the
 * attempt made, which the unit's next step runs (`stepCreateRetry`).
 */
export async function retryCreate(scope: NodeScope, row: ResourceRecord, failure: string): Promise<void> {
  const { deps, item } = scope;
  const now = deps.clock.now();
  const reason = `Deleting what the failed create made, before retry ${row.createRetries + 1}`;
  const state: RetryState = { op: 'retry', failure, deletes: 0 };
  const payload: RetryPayload = { phase: 'retry', row: row.id, polls: 0 };
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: 'DELETE',
      status: 'IN_PROGRESS',
      reason,
      progress: state as unknown as Json,
    });
    if (!next) return false;
    await tx.events.append([
      resourceEvent(row, 'CREATE', 'FAILED', failure, now),
      resourceEvent(next, 'DELETE', 'IN_PROGRESS', reason, now),
    ]);
    await tx.work.reschedule(item, now, payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}

/**
 * One step of a create being retried, chosen by the row's state: delete what the failed attempt
 * made (or poll that delete, or retry it), then back off. 'create' means the backoff is over and
 * the update node makes the next attempt on the row; 'start' that the row is not in a state a
 * retry leaves it in (a crash after the next attempt started, or another writer): the update node
 * decides afresh. 'done': this step did all there was to do.
 */
export async function stepCreateRetry(
  scope: NodeScope,
  payload: RetryPayload,
): Promise<'create' | 'start' | 'done'> {
  const row = await scope.deps.store.tx((tx) => tx.resources.get(payload.row));
  if (row && deletingForRetry(row) && row.status === 'IN_PROGRESS') {
    // Even when superseded: a delete under way is finished, so that nothing is left half-deleted.
    const lock = await lockState(scope, row);
    if (lock === 'mine' || lock === 'abandoned') {
      await deleteFailedAttempt(scope, row, payload.polls);
      return 'done';
    }
  }
  if (!scope.current) {
    await drop(scope);
    return 'done';
  }
  if (row?.engineId === null && row.status === 'FAILED') {
    if (row.action === 'CREATE') return 'create';
    const state = retryState(row);
    if (row.action === 'DELETE' && state) {
      await deleteAgain(scope, row, state);
      return 'done';
    }
  }
  return 'start';
}

/**
 * Whether `row`, locked for DELETE, is deleting what a failed create made before a retry: a unit
 * that finds it so (run with an outdated payload, or taking over an abandoned lock) carries on
 * with `continueRetryDelete`.
 */
export function deletingForRetry(row: ResourceRecord): boolean {
  return row.action === 'DELETE' && retryState(row) !== undefined;
}

export async function continueRetryDelete(scope: NodeScope, row: ResourceRecord): Promise<void> {
  return deleteFailedAttempt(scope, row, 0);
}

/** The delete of the failed attempt's object failed and its backoff is over: lock and delete again. */
async function deleteAgain(scope: NodeScope, row: ResourceRecord, state: RetryState): Promise<void> {
  const { deps } = scope;
  const now = deps.clock.now();
  const reason = retryReason(deps, 'DELETE', state.deletes);
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, null, {
      engineId: scope.holder,
      status: 'IN_PROGRESS',
      reason,
    });
    if (next) await tx.events.append([resourceEvent(next, 'DELETE', 'IN_PROGRESS', reason, now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  return deleteFailedAttempt(scope, locked, 0);
}

/** Starts or polls the delete of what the failed attempt on `row` made (the row's key is still that attempt's). */
async function deleteFailedAttempt(scope: NodeScope, row: ResourceRecord, polls: number): Promise<void> {
  const { deps, item } = scope;
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return failNode(scope, row, `unknown resource type "${row.type}"`);
  const state = retryState(row) ?? { op: 'retry', failure: row.reason, deletes: 0 };
  const ctx = pluginContext(scope, row);
  let result: ActionResult | PollResult;
  try {
    if (state.deleting === undefined) result = await plugin.delete(ctx);
    else if (plugin.checkDeleteComplete) result = await plugin.checkDeleteComplete(ctx, state.deleting);
    else result = { done: true };
  } catch (err) {
    const reason = resourceFailureText(err, row.name);
    if (!mayRetry(scope, err, state.deletes)) return failNode(scope, row, reason);
    const deletes = state.deletes + 1;
    const waiting: RetryState = { op: 'retry', failure: state.failure, deletes };
    return backOffDelete(scope, row, reason, { phase: 'retry', row: row.id, polls: 0 }, deletes, waiting);
  }
  const done = 'done' in result ? result.done : result.progress === undefined;
  if (done) return backOffCreate(scope, row, state);
  const deleting = result.progress ?? state.deleting ?? null;
  const now = deps.clock.now();
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      progress: { ...state, deleting } as unknown as Json,
    });
    if (!next) return false;
    const payload: RetryPayload = { phase: 'retry', row: row.id, polls: polls + 1 };
    await tx.work.reschedule(item, now + pollDelay(result.pollAfterMs, polls), payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}

/**
 * The failed attempt's object is gone: the row is CREATE_FAILED again (nothing physical, unlocked)
 * until the unit wakes for the retry; a superseded unit stops here.
 */
async function backOffCreate(scope: NodeScope, row: ResourceRecord, state: RetryState): Promise<void> {
  const { deps, item } = scope;
  const now = deps.clock.now();
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: null,
      action: 'CREATE',
      status: 'FAILED',
      reason: state.failure,
      physicalId: null,
      data: {},
      progress: null,
    });
    if (!next) return false;
    await tx.events.append([resourceEvent(row, 'DELETE', 'COMPLETE', 'state changed', now)]);
    if (!scope.current) {
      await tx.work.complete(item);
      return true;
    }
    const payload: RetryPayload = { phase: 'retry', row: row.id, polls: 0 };
    await tx.work.reschedule(item, retryAt(scope, row.createRetries + 1), payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}

/**
 * A delete of `row` (locked by this unit, or abandoned) failed retryably with `reason`: the row is
 * DELETE_FAILED and unlocked (keeping `progress`) until the unit runs again with `payload` after
 * the backoff of retry `retry`.
 */
export async function backOffDelete(
  scope: NodeScope,
  row: ResourceRecord,
  reason: string,
  payload: NodePayload,
  retry: number,
  progress: RetryState | null = null,
): Promise<void> {
  const { deps, item } = scope;
  const now = deps.clock.now();
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: null,
      action: 'DELETE',
      status: 'FAILED',
      reason,
      progress: progress as unknown as Json,
    });
    if (!next) return false;
    await tx.events.append([resourceEvent(next, 'DELETE', 'FAILED', reason, now)]);
    await tx.work.reschedule(item, retryAt(scope, retry), payload);
    return true;
  });
  if (!saved) return retryLater(scope);
}
