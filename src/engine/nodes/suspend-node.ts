import type { ActionResult, PollResult, ResourcePlugin } from '../../resources/contract.js';
import type { ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import type { Json, JsonObject } from '../../util/json.js';
import { childStackOf, startChildVisit, VisitOp } from '../context/child-stack.js';
import { resourceEvent } from '../core/events.js';
import { externalIdOf } from './external.js';
import { failNode } from './failure.js';
import { resourceFailureText } from '../core/failure-text.js';
import { lockState } from './locks.js';
import { type NodePayload, type NodeScope, pluginContext, pollSchedule } from '../context/node-work.js';
import { parseNodeKey } from '../core/nodes.js';
import { propagate } from '../core/propagate.js';
import { beginTraversal } from '../core/traversal.js';
import { drop, retryLater, waitForLock } from '../context/node-work.js';

/*
 * Nodes of SUSPEND and RESUME traversals (Heat's stack suspend / resume): each resource is
 * suspended after everything that depends on it (the operation builds the graph reversed) and
 * resumed before, through its type's handler, with persisted polling; a template resource's
 * child stack is suspended or resumed as a whole first (a traversal of its own, the node parked on
 * its end). A failure fails the resource and the stack, as in Heat; nothing is rolled back.
 */

export type VisitAction = 'SUSPEND' | 'RESUME';

type VisitPollPayload = Extract<NodePayload, { phase: 'visit-poll' }>;

const OP: Record<VisitAction, VisitOp> = { SUSPEND: 'suspend', RESUME: 'resume' };

/** The states a resource may be suspended or resumed from (Heat's Resource.suspend / resume). */
function invalidState(action: VisitAction, row: ResourceRecord): boolean {
  if (action === 'SUSPEND')
    return row.action === 'DELETE' || (row.action !== 'SUSPEND' && row.status !== 'COMPLETE');
  const from = `${row.action}_${row.status}`;
  return from !== 'SUSPEND_COMPLETE' && from !== 'RESUME_FAILED';
}

export async function runSuspendNode(scope: NodeScope, payload: NodePayload): Promise<void> {
  const { deps } = scope;
  const action = scope.traversal?.action as VisitAction;
  if (payload.phase === 'visit-poll') return poll(scope, action, payload);
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const row = await deps.store.tx((tx) => tx.resources.get(parseNodeKey(scope.item.node).rowId));
  if (!row) return drop(scope);
  // Already there (a stack suspended twice, or a step run again after a crash): nothing to do.
  if (row.action === action && row.status === 'COMPLETE') return record(scope, row, undefined);
  if (row.engineId === null && invalidState(action, row)) {
    return failNode(scope, row, `State ${row.action}_${row.status} invalid for ${OP[action]}`);
  }
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  if (childStackOf(row) !== undefined) return visitChild(scope, row, action);

  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action,
      status: 'IN_PROGRESS',
      reason: 'state changed',
      updatedAt: new Date(now).toISOString(),
    });
    if (next) await tx.events.append([resourceEvent(next, action, 'IN_PROGRESS', 'state changed', now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  const plugin = deps.plugins.plugin(row.type);
  const handler = action === 'SUSPEND' ? plugin?.suspend : plugin?.resume;
  let result: ActionResult = {};
  try {
    // An external resource is not the stack's: only its state is recorded.
    if (plugin && handler && externalIdOf(locked) === undefined)
      result = await handler.call(plugin, pluginContext(scope, locked));
  } catch (err) {
    return failNode(scope, locked, resourceFailureText(err, locked.name));
  }
  return settle(scope, plugin, locked, result, 0);
}

async function poll(scope: NodeScope, action: VisitAction, payload: VisitPollPayload): Promise<void> {
  const row = await scope.deps.store.tx((tx) => tx.resources.get(payload.row));
  if (!row || row.status !== 'IN_PROGRESS') return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  const plugin = scope.deps.plugins.plugin(row.type);
  const check = action === 'SUSPEND' ? plugin?.checkSuspendComplete : plugin?.checkResumeComplete;
  let result: PollResult = { done: true };
  try {
    if (plugin && check) result = await check.call(plugin, pluginContext(scope, row), row.progress);
  } catch (err) {
    return failNode(scope, row, resourceFailureText(err, row.name));
  }
  return settle(scope, plugin, row, result, payload.attempt);
}

/** What the handler or its check returned: done (recorded), or polled again later. */
async function settle(
  scope: NodeScope,
  plugin: ResourcePlugin | undefined,
  row: ResourceRecord,
  result: ActionResult | PollResult,
  attempt: number,
): Promise<void> {
  const { deps, item } = scope;
  const data = result.data ? { ...row.data, ...result.data } : row.data;
  const pending = 'done' in result ? !result.done : result.progress !== undefined;
  if (!pending || !plugin) return record(scope, { ...row, data }, 'COMPLETE');
  const next: VisitPollPayload = { phase: 'visit-poll', row: row.id, attempt: attempt + 1 };
  const saved = await deps.store.tx(async (tx) => {
    const written = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
      data,
      progress: (result.progress ?? row.progress ?? null) as Json,
    });
    if (!written) return false;
    const { delay, key } = pollSchedule(scope, result, attempt);
    await tx.work.reschedule(item, deps.clock.now() + delay, next as unknown as JsonObject, key);
    return true;
  });
  if (!saved) return retryLater(scope);
}

/**
 * Records the resource's new state (none: it was there already), releases its lock and reports
 * to the next nodes, in one transaction.
 */
async function record(scope: NodeScope, row: ResourceRecord, status: 'COMPLETE' | undefined): Promise<void> {
  const { deps, item, stack } = scope;
  const action = scope.traversal?.action as VisitAction;
  const now = deps.clock.now();
  const ok = await deps.store.tx(async (tx) => {
    if (status) {
      const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
        engineId: null,
        action,
        status,
        reason: 'state changed',
        data: row.data,
        progress: null,
        updatedAt: new Date(now).toISOString(),
      });
      if (!next) return false;
      await tx.events.append([resourceEvent(next, action, status, 'state changed', now)]);
    }
    const output = { name: row.name, rowId: row.id, refId: row.physicalId, attributes: row.attributes };
    await propagate(tx, stack, item.traversalId, item.node, output as unknown as Json, now);
    await tx.work.complete(item);
    return true;
  });
  if (!ok) return retryLater(scope);
}

/**
 * A template resource: its child stack is suspended or resumed by a traversal of its own, started
 * in the transaction that locks the row and parks this unit on the child's end.
 */
async function visitChild(scope: NodeScope, row: ResourceRecord, action: VisitAction): Promise<void> {
  const { deps } = scope;
  const childId = childStackOf(row)!;
  const child = await deps.store.tx((tx) => tx.stacks.get(childId));
  if (!child || child.deletedAt || child.action === 'DELETE') {
    return failNode(scope, row, `${action} failed: the nested stack ${childId} is gone`);
  }
  // The child already there (a step run again): its end event wakes this unit as well.
  const started = await startChildVisit(scope, row, child, OP[action], async (tx, now) => {
    if (child.action !== action || child.status === 'FAILED') await beginVisit(tx, child, action, now);
  });
  if (!started) return retryLater(scope);
}

/** Starts a SUSPEND, RESUME (or SNAPSHOT: dependencies first) traversal of `stack`, in the caller's transaction (see operations/lifecycle.ts). */
export async function beginVisit(
  tx: Tx,
  stack: StackRecord,
  action: VisitAction | 'SNAPSHOT',
  now: number,
  /** The traversal's id, when the caller records it first (a snapshot: snapshot.ts). */
  traversalId?: string,
): Promise<void> {
  const rows = await tx.resources.listHeads(stack.id);
  const byId = new Map(rows.map((r) => [r.id, r.name]));
  // Suspend goes against the dependencies (dependents first), resume with them. A name carried by
  // two rows (a replacement under way) is one resource: the traversal picks its row.
  const requires = new Map<string, Set<string>>(rows.map((r) => [r.name, new Set()]));
  const types = new Map(rows.map((r) => [r.name, r.type]));
  for (const row of rows) {
    for (const id of row.requires) {
      const name = byId.get(id);
      if (name === undefined || name === row.name) continue;
      if (action === 'SUSPEND') requires.get(name)!.add(row.name);
      else requires.get(row.name)!.add(name);
    }
  }
  const desired = [...requires].map(([name, reqs]) => ({
    name,
    type: types.get(name)!,
    requires: [...reqs],
  }));
  await beginTraversal(tx, {
    stack,
    action,
    templateId: stack.templateId,
    desired,
    now,
    ...(traversalId ? { traversalId } : {}),
  });
}

/** The parked node of a template resource, woken by its child's end: records the child's outcome. */
export async function resumeNestedVisit(
  scope: NodeScope,
  row: ResourceRecord,
  child: StackRecord | undefined,
  repark: () => Promise<void>,
): Promise<void> {
  const action = scope.traversal?.action as VisitAction;
  if (child && child.status === 'IN_PROGRESS' && child.action === action) return repark();
  if (child && child.action === action && child.status === 'COMPLETE') return record(scope, row, 'COMPLETE');
  const why = child
    ? child.action === action
      ? child.reason
      : `the nested stack's ${action} was superseded by its ${child.action}`
    : 'the nested stack is gone';
  return failNode(scope, row, `${action} failed: ${why}`);
}
