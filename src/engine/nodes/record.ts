import type { ActionResult, PollResult } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import { resourceEvent } from '../core/events.js';
import { inputsOf, type NodeScope, Operation } from '../context/node-work.js';
import { parseNodeKey } from '../core/nodes.js';
import { addReplacementCleanup, propagate } from '../core/propagate.js';
import { retryLater } from '../context/node-work.js';
import type { Value } from '../../template/functions/types.js';
import type { JsonObject, Json } from '../../util/json.js';
import { initRow } from '../core/rows.js';

/*
 * What a node writes when its step ends, in one transaction with its report to its dependents
 * (propagate.ts): the row's lock released with its new state. Shared by the update, cleanup,
 * check and external nodes, the nested-stack nodes, adoption and the legacy walker.
 */

/** What a node records as done: an operation, or an adoption (adopt-node.ts). */
export type RecordedOp = Operation | 'adopt';

export const ACTION_OF: Record<RecordedOp, 'CREATE' | 'UPDATE' | 'DELETE' | 'ADOPT'> = {
  create: 'CREATE',
  update: 'UPDATE',
  delete: 'DELETE',
  adopt: 'ADOPT',
};

/** The row changes that lock a resource for an operation of this unit. */
export function startChanges(
  scope: Pick<NodeScope, 'deps' | 'holder'>,
  op: Operation,
  properties: Record<string, Value>,
  previous?: Record<string, Value>,
): Partial<ResourceRecord> {
  return {
    engineId: scope.holder,
    action: ACTION_OF[op],
    status: 'IN_PROGRESS',
    reason: 'state changed',
    // What this operation applies (and, for a converge, from what), so that a resumed attempt does the same.
    progress: {
      op,
      state: null,
      properties: properties as JsonObject,
      ...(previous ? { previous: previous as JsonObject } : {}),
    },
    updatedAt: new Date(scope.deps.clock.now()).toISOString(),
  };
}

/** The row changes an action's or poll's result carries (a physical id, plugin data). */
export function resultChanges(
  row: ResourceRecord,
  result: ActionResult | PollResult,
): Partial<ResourceRecord> {
  const changes: Partial<ResourceRecord> = {};
  if (result.physicalId !== undefined) changes.physicalId = result.physicalId;
  if (result.data) changes.data = { ...row.data, ...result.data };
  return changes;
}

/** Takes a row's lock over from an earlier attempt of this node (another engine's, or one gone). */
export async function steal(scope: NodeScope, row: ResourceRecord): Promise<ResourceRecord | undefined> {
  const { deps } = scope;
  return deps.store.tx((tx) =>
    tx.resources.update(row.id, row.atomicKey, row.engineId, { engineId: scope.holder }),
  );
}

/**
 * Records a finished operation (or that nothing was needed) with the resource's outputs: the
 * row's new state and lock release (compare-and-swap on `holder`), and the report to dependents.
 * `extra` adds row changes (a nested stack's type and data).
 */
export async function recordDone(
  scope: NodeScope,
  row: ResourceRecord,
  properties: Record<string, Value>,
  holder: string | null,
  outputs: { refId: string | null; attributes: Record<string, Json> },
  op?: RecordedOp,
  extra: Partial<ResourceRecord> = {},
  reassess = false,
): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const { refId, attributes } = outputs;
  const nodeRow = parseNodeKey(item.node).rowId;
  const ok = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, holder, {
      ...doneChanges(scope, row, properties, attributes, op, reassess),
      ...extra,
    });
    if (!next) return false;
    if (op) await tx.events.append([resourceEvent(next, ACTION_OF[op], 'COMPLETE', 'state changed', now)]);
    if (scope.current && reassess) {
      // A resumed operation finished with its original properties: run this node again to bring
      // the resource to the definition it wants now (the result is recorded, nothing reported).
      await tx.work.reschedule(item, now, { phase: 'start' });
      return true;
    }
    if (scope.current) {
      // The old row's cleanup joins the graph before this node reports, so the traversal cannot
      // complete without it.
      if (row.id !== nodeRow)
        await addReplacementCleanup(tx, stack, item.traversalId, item.node, nodeRow, now);
      const output = { name: row.name, rowId: row.id, refId, attributes };
      await propagate(tx, stack, item.traversalId, item.node, output, now);
    }
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}

/** The row changes that record a finished operation (or that nothing was needed), lock released. */
export function doneChanges(
  scope: NodeScope,
  row: ResourceRecord,
  properties: Record<string, Value>,
  attributes: Record<string, Json>,
  op?: RecordedOp,
  reassess = false,
): Partial<ResourceRecord> {
  return {
    engineId: null,
    ...(op ? { action: ACTION_OF[op], status: 'COMPLETE' as const, reason: 'state changed' } : {}),
    physicalId: row.physicalId,
    data: row.data,
    properties: properties as JsonObject,
    attributes: attributes as JsonObject,
    progress: null,
    templateId: scope.current && !reassess ? (scope.traversal?.templateId ?? row.templateId) : row.templateId,
    requires: [...inputsOf(scope.point).values()].map((i) => i.rowId),
    updatedAt: new Date(scope.deps.clock.now()).toISOString(),
  };
}

/**
 * Inserts the replacement row of `row` (INIT, of `type`) and links the two; undefined if `row` changed
 * meanwhile. The update node's key stays the old row's (see nodes.ts).
 */
export async function makeReplacement(
  scope: Pick<NodeScope, 'deps'>,
  row: ResourceRecord,
  type: string = row.type,
): Promise<ResourceRecord | undefined> {
  const now = scope.deps.clock.now();
  return scope.deps.store
    .tx(async (tx) => {
      // A type change replaces: the new row has the new type, so the next update finds it settled.
      const [fresh] = await tx.resources.insert([initRow({ ...row, type }, now, row.id)]);
      const marked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        replacedBy: fresh!.id,
      });
      if (!marked) throw new LostRace();
      return fresh!;
    })
    .catch((err: unknown) => {
      if (err instanceof LostRace) return undefined;
      throw err;
    });
}

class LostRace extends Error {}

/** Marks the row deleted (it is purged when the traversal completes) and reports the node done. */
export async function finishCleanup(
  scope: NodeScope,
  row: ResourceRecord | undefined,
  holder: string | null | undefined,
  deleted = false,
): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (row && holder !== undefined) {
      const next = await tx.resources.update(row.id, row.atomicKey, holder, {
        engineId: null,
        action: 'DELETE',
        status: 'COMPLETE',
        reason: deleted ? 'state changed' : 'deleted from the database only',
        progress: null,
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, 'DELETE', 'COMPLETE', next.reason, now)]);
    }
    if (scope.current)
      await propagate(tx, stack, item.traversalId, item.node, { rowId: row?.id ?? null }, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}

/**
 * What a node of a CHECK traversal reports: the usual node output, plus the names of the resources
 * whose check failed on the way here (its own included). A node that receives any skips its check
 * (Heat's skip_propagate) and passes them on, so everything that depends on a failed resource is
 * left as it was, and the traversal still completes. The stack's verdict is taken when it does
 * (`finishTraversal`: CHECK_FAILED naming the failed resources).
 */
export interface CheckOutput {
  name: string;
  rowId: number;
  refId: string | null;
  attributes: Record<string, Json>;
  failed: string[];
}

/**
 * Records the check's result (null: skipped, the row is left alone), releases the lock, and
 * reports to the dependents, in one transaction.
 */
export async function report(
  scope: NodeScope,
  row: ResourceRecord,
  result: { error: string | null; reason: string } | null,
  failed: string[],
): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (result) {
      const status = result.error === null ? 'COMPLETE' : 'FAILED';
      const reason = result.error ?? result.reason;
      const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
        engineId: null,
        action: 'CHECK',
        status,
        reason,
        progress: null,
        // A resource that checks out is healthy again (as after Heat's mark-unhealthy + check).
        ...(result.error === null ? { unhealthy: false } : {}),
        updatedAt: new Date(now).toISOString(),
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, 'CHECK', status, reason, now)]);
    }
    const output: CheckOutput = {
      name: row.name,
      rowId: row.id,
      refId: row.physicalId,
      attributes: row.attributes as Record<string, Json>,
      failed,
    };
    await propagate(tx, stack, item.traversalId, item.node, output as unknown as Json, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}
