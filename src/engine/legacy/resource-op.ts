import {
  type ActionResult,
  type PollResult,
  type ResourcePlugin,
  UpdateReplace,
} from '../../resources/contract.js';
import { ClaimLostError, type ResourceRecord, type StackRecord } from '../../store/contract.js';
import type { Value } from '../../template/functions/types.js';
import { diffProperties } from '../../template/properties/index.js';
import type { Json } from '../../util/json.js';
import { resourceEvent } from '../core/events.js';
import { abortedText, resourceFailureText, stackFailureText, TIMED_OUT } from '../core/failure-text.js';
import { failureOutputs, type Operation, pluginContext, pollDelay } from '../context/node-work.js';
import { ACTION_OF, resultChanges, startChanges } from '../nodes/record.js';
import { checkpoint, type LegacyRun, pause, StackFailed, StackTimedOut, WalkInterrupted } from './context.js';

/**
 * One resource operation of a legacy walk, run to its end in memory: the row is locked (its state
 * IN_PROGRESS, this walk the holder) before the plugin is called, so an engine that takes the
 * stack over finds what was under way and runs it again with the same idempotency key; the plugin's
 * completion check is polled in memory (the legacy engine's way: the walk holds the stack anyway).
 */

/** The row after its operation ended well: state recorded in memory, written by `recordDone`. */
export type Operated = ResourceRecord;

/** Locks the row for `op` (fenced by the unit's claim), with the IN_PROGRESS event. */
export async function lockRow(
  run: LegacyRun,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value> | null,
): Promise<ResourceRecord> {
  const { deps } = run;
  const now = deps.clock.now();
  const action = ACTION_OF[op];
  return deps.store.tx(async (tx) => {
    if ((await tx.work.renewClaims([run.item], now + deps.settings.workLeaseMs)) === 0)
      throw new ClaimLostError(run.item.id);
    const locked = await tx.resources.update(
      row.id,
      row.atomicKey,
      row.engineId,
      startChanges(run, op, properties ?? {}),
    );
    if (!locked) throw new WalkInterrupted(`resource ${row.name} was changed by another writer`);
    await tx.events.append([resourceEvent(locked, action, 'IN_PROGRESS', 'state changed', now)]);
    return locked;
  });
}

/**
 * Runs the plugin's `op` on the locked row and polls it to completion. Returns the row with what
 * the plugin reported (physical id, data); throws UpdateReplace from an update that cannot be done
 * in place, and StackFailed (the row recorded FAILED) when the operation fails or times out.
 */
export async function operate(
  run: LegacyRun,
  stack: StackRecord,
  locked: ResourceRecord,
  plugin: ResourcePlugin,
  op: Operation,
  properties: Record<string, Value>,
): Promise<ResourceRecord> {
  let row = locked;
  const ctx = () => pluginContext({ deps: run.deps, stack, cache: run.cache }, row);
  try {
    let result: ActionResult | PollResult = await begin(plugin, ctx(), row, op, properties);
    let attempt = 0;
    for (;;) {
      const changes = resultChanges(row, result);
      if (changes.physicalId !== undefined && changes.physicalId !== row.physicalId) {
        // The physical id is written at once: a delete after a crash must know what to delete.
        row = await persist(run, row, changes);
      } else {
        row = { ...row, ...changes };
      }
      const pending = 'done' in result ? !result.done : result.progress !== undefined;
      if (!pending) return row;
      checkpoint(run, ACTION_OF[op]);
      const delay = result.wakeOnSignalTo
        ? Math.min(1000, result.pollAfterMs ?? 1000)
        : pollDelay(result.pollAfterMs, attempt);
      await pause(run, delay);
      checkpoint(run, ACTION_OF[op]);
      attempt++;
      const check =
        op === 'create'
          ? plugin.checkCreateComplete
          : op === 'update'
            ? plugin.checkUpdateComplete
            : plugin.checkDeleteComplete;
      const progress: Json = 'progress' in result && result.progress !== undefined ? result.progress : null;
      result = check ? await check.call(plugin, ctx(), progress) : { done: true };
    }
  } catch (err) {
    if (err instanceof UpdateReplace || err instanceof WalkInterrupted || err instanceof ClaimLostError)
      throw err;
    if (err instanceof StackTimedOut) {
      await recordFailed(run, row, op, abortedText(ACTION_OF[op], TIMED_OUT));
      throw err;
    }
    const reason = err instanceof StackFailed ? err.message : resourceFailureText(err, row.name);
    await recordFailed(
      run,
      row,
      op,
      reason,
      await failureOutputs({ deps: run.deps, stack }, plugin, row, properties, err),
    );
    throw new StackFailed(stackFailureText(ACTION_OF[op], reason));
  }
}

function begin(
  plugin: ResourcePlugin,
  ctx: ReturnType<typeof pluginContext>,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
): Promise<ActionResult> {
  if (op === 'create') return plugin.create(ctx, properties);
  if (op === 'delete') return plugin.delete(ctx);
  if (!plugin.update) return Promise.resolve({});
  const previous = (row.properties ?? {}) as Record<string, Value>;
  const changed = diffProperties(plugin.properties, previous, properties).changed;
  return plugin.update(ctx, properties, previous, changed);
}

async function persist(
  run: LegacyRun,
  row: ResourceRecord,
  changes: Partial<ResourceRecord>,
): Promise<ResourceRecord> {
  const next = await run.deps.store.tx((tx) =>
    tx.resources.update(row.id, row.atomicKey, row.engineId, changes),
  );
  if (!next) throw new WalkInterrupted(`resource ${row.name} was changed by another writer`);
  return next;
}

/** Records a failed operation: <ACTION>_FAILED with the reason, lock released. */
export async function recordFailed(
  run: LegacyRun,
  row: ResourceRecord,
  op: Operation,
  reason: string,
  /** What the failed operation learned: row data and the attributes read from it (failureOutputs). */
  learned: Partial<ResourceRecord> = {},
): Promise<void> {
  const now = run.deps.clock.now();
  const action = ACTION_OF[op];
  await run.deps.store.tx(async (tx) => {
    const failed = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      ...learned,
      engineId: null,
      action,
      status: 'FAILED',
      reason,
      physicalId: row.physicalId,
      data: learned.data ?? row.data,
      progress: null,
      updatedAt: new Date(now).toISOString(),
    });
    if (failed) await tx.events.append([resourceEvent(failed, action, 'FAILED', reason, now)]);
  });
}

/**
 * Records a finished create or update: the row's new state, its outputs cached, lock released,
 * with the COMPLETE event (and, for a type that needs no lock, its IN_PROGRESS event too).
 */
export async function recordDone(
  run: LegacyRun,
  row: ResourceRecord,
  op: Operation,
  extra: Partial<ResourceRecord>,
  unlockedStart = false,
): Promise<ResourceRecord> {
  const now = run.deps.clock.now();
  const action = ACTION_OF[op];
  return run.deps.store.tx(async (tx) => {
    const done = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: null,
      action,
      status: 'COMPLETE',
      reason: 'state changed',
      physicalId: row.physicalId,
      data: row.data,
      progress: null,
      updatedAt: new Date(now).toISOString(),
      ...extra,
    });
    if (!done) throw new WalkInterrupted(`resource ${row.name} was changed by another writer`);
    const events = [resourceEvent(done, action, 'COMPLETE', 'state changed', now)];
    if (unlockedStart) events.unshift(resourceEvent(done, action, 'IN_PROGRESS', 'state changed', now));
    await tx.events.append(events);
    return done;
  });
}
