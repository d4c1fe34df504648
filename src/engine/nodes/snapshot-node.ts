import type { ActionResult, PluginContext, PollResult, ResourcePlugin } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import type { Json, JsonObject } from '../../util/json.js';
import { childStackOf } from '../context/child-stack.js';
import { resourceEvent } from '../core/events.js';
import { externalIdOf } from './external.js';
import { failTraversal } from '../core/finish.js';
import { lockState } from './locks.js';
import { errorMessage } from '../core/failure-text.js';
import { type NodePayload, type NodeScope, pluginContext, pollDelay } from '../context/node-work.js';
import { parseNodeKey } from '../core/nodes.js';
import { propagate } from '../core/propagate.js';
import { drop, retryLater, waitForLock } from '../context/node-work.js';

/*
 * Nodes of a SNAPSHOT traversal (Heat's stack snapshot): each resource's type takes its snapshot
 * (a volume's backup, a server's image: `ResourcePlugin.snapshot`), polled until made, and what it
 * returns is recorded in the snapshot's document under the resource. The row is locked meanwhile
 * (no update acts on it half-way) but keeps its state: a failed backup does not fail the resource,
 * only the snapshot (Heat records SNAPSHOT events). Types without a snapshot record their data as
 * it is; a nested stack is recorded by its description (taken when the snapshot started).
 */

type SnapshotPollPayload = Extract<NodePayload, { phase: 'snapshot-poll' }>;

export async function runSnapshotNode(scope: NodeScope, payload: NodePayload): Promise<void> {
  const { deps } = scope;
  if (payload.phase === 'snapshot-poll') return poll(scope, payload);
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const row = await deps.store.tx((tx) => tx.resources.get(parseNodeKey(scope.item.node).rowId));
  if (!row) return drop(scope);
  const plugin = deps.plugins.plugin(row.type);
  // Nothing of its own to make: the resource's data as it is (recorded when the snapshot started).
  if (
    !plugin?.snapshot ||
    childStackOf(row) !== undefined ||
    externalIdOf(row) !== undefined ||
    !row.physicalId
  ) {
    return record(scope, row, undefined);
  }
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, { engineId: scope.holder });
    if (next) await tx.events.append([resourceEvent(next, 'SNAPSHOT', 'IN_PROGRESS', 'state changed', now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  let result: ActionResult;
  try {
    result = await plugin.snapshot(snapshotContext(scope, locked));
  } catch (err) {
    return fail(scope, locked, errorMessage(err));
  }
  return settle(scope, plugin, locked, result, 0);
}

/**
 * The plugin's context for one resource's snapshot: its idempotency key is the same on every run of
 * this snapshot's step (a step run again after a crash finds the backup or image it made) and
 * differs from one snapshot to the next.
 */
function snapshotContext(scope: NodeScope, row: ResourceRecord): PluginContext {
  return { ...pluginContext(scope, row), idempotencyKey: `snapshot-${scope.item.traversalId}-${row.uuid}` };
}

async function poll(scope: NodeScope, payload: SnapshotPollPayload): Promise<void> {
  const row = await scope.deps.store.tx((tx) => tx.resources.get(payload.row));
  if (!row) return drop(scope);
  const lock = await lockState(scope, row);
  if (lock !== 'mine') return drop(scope);
  // Superseded (a newer operation, or the snapshot failed elsewhere): stop waiting, free the row.
  if (!scope.current) return release(scope, row);
  const plugin = scope.deps.plugins.plugin(row.type);
  let result: PollResult = { done: true };
  try {
    if (plugin?.checkSnapshotComplete) {
      result = await plugin.checkSnapshotComplete(snapshotContext(scope, row), row.progress);
    }
  } catch (err) {
    return fail(scope, row, errorMessage(err));
  }
  return settle(scope, plugin, row, result, payload.attempt);
}

/**
 * What the snapshot handler or its check returned. Its data is recorded in the snapshot at once
 * (a backup being made is found by the snapshot's delete even if this unit never ends); pending,
 * the unit polls again later.
 */
async function settle(
  scope: NodeScope,
  plugin: ResourcePlugin | undefined,
  row: ResourceRecord,
  result: ActionResult | PollResult,
  attempt: number,
): Promise<void> {
  const { deps, item } = scope;
  const pending = 'done' in result ? !result.done : result.progress !== undefined;
  if (!pending || !plugin) return record(scope, row, result.data ?? {});
  const next: SnapshotPollPayload = { phase: 'snapshot-poll', row: row.id, attempt: attempt + 1 };
  const saved = await deps.store.tx(async (tx) => {
    const written = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
      progress: (result.progress ?? row.progress ?? null) as Json,
    });
    if (!written) return false;
    const snapshot = await tx.snapshots.byTraversal(item.traversalId);
    if (snapshot && result.data)
      await tx.snapshots.recordResource(snapshot.id, row.name, entryOf(row, result.data));
    const due = deps.clock.now() + pollDelay(result.pollAfterMs, attempt);
    await tx.work.reschedule(item, due, next as unknown as JsonObject);
    return true;
  });
  if (!saved) return retryLater(scope);
}

/** The resource's entry in the snapshot document (Heat's shape: its data under `resource_data`). */
function entryOf(row: ResourceRecord, made: JsonObject | undefined): JsonObject {
  return {
    name: row.name,
    resource_id: row.physicalId,
    type: row.type,
    action: row.action,
    status: row.status,
    metadata: {},
    resource_data: { ...row.data, ...made },
  };
}

/**
 * The resource's snapshot is made (`made`: what its type returned; undefined: nothing to make):
 * recorded in the snapshot, the row's lock released, the next nodes told, in one transaction.
 */
async function record(scope: NodeScope, row: ResourceRecord, made: JsonObject | undefined): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (made !== undefined) {
      const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
        engineId: null,
        progress: null,
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, 'SNAPSHOT', 'COMPLETE', 'state changed', now)]);
    }
    const snapshot = await tx.snapshots.byTraversal(item.traversalId);
    // A nested stack's entry is its description, recorded when the snapshot started.
    if (snapshot && childStackOf(row) === undefined) {
      await tx.snapshots.recordResource(snapshot.id, row.name, entryOf(row, made));
    }
    const output = { name: row.name, rowId: row.id, refId: row.physicalId, attributes: row.attributes };
    await propagate(tx, stack, item.traversalId, item.node, output as unknown as Json, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}

/** The resource's snapshot failed: the row is freed as it was, the snapshot (and the stack's SNAPSHOT) failed. */
async function fail(scope: NodeScope, row: ResourceRecord, why: string): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const reason = `Error: ${why}`;
  await deps.store.tx(async (tx) => {
    const fresh = await tx.resources.get(row.id);
    if (fresh && fresh.engineId === scope.holder) {
      await tx.resources.update(fresh.id, fresh.atomicKey, fresh.engineId, {
        engineId: null,
        progress: null,
      });
    }
    await tx.events.append([resourceEvent(row, 'SNAPSHOT', 'FAILED', reason, now)]);
    if (scope.current)
      await failTraversal(tx, stack, item.traversalId, `Resource SNAPSHOT failed: ${reason}`, now);
    await tx.work.complete(item);
  });
}

/** A superseded snapshot's unit: the row's lock is given back, nothing recorded. */
async function release(scope: NodeScope, row: ResourceRecord): Promise<void> {
  const { deps, item } = scope;
  await deps.store.tx(async (tx) => {
    await tx.resources.update(row.id, row.atomicKey, scope.holder, { engineId: null, progress: null });
    await tx.work.complete(item);
  });
}
