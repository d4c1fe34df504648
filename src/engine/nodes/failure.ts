import type { ResourceAction, ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import { resourceEvent } from '../core/events.js';
import { failTraversal } from '../core/finish.js';
import { abortedText, stackFailureText, TIMED_OUT } from '../core/failure-text.js';
import type { EngineDeps } from '../core/deps.js';
import type { Json } from '../../util/json.js';
import type { NodeScope } from '../context/node-work.js';

/** Work kind: roll a failed stack back (enqueued with the failure, so it survives a crash). */
export const ROLLBACK = 'rollback';

/**
 * An operation failed: the resource is <ACTION>_FAILED (lock released), and if the node belongs
 * to the current traversal the stack fails too; with rollback enabled, a rollback is enqueued in
 * the same transaction.
 */
export async function failNode(
  scope: NodeScope,
  row: ResourceRecord,
  reason: string,
  /** The action that failed, when it is not the row's own (a refused update of a settled row). */
  action?: ResourceAction,
  /** The stack's reason, when it is not Heat's "Resource <ACTION> failed: <reason>" (a timeout). */
  stackReason?: string,
  /** What the failed operation learned: row data and the attributes read from it (failureOutputs). */
  learned: Partial<ResourceRecord> = {},
): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const fresh = await tx.resources.get(row.id);
    if (fresh) {
      const failed = await tx.resources.update(fresh.id, fresh.atomicKey, fresh.engineId, {
        ...learned,
        engineId: null,
        status: 'FAILED',
        reason,
        progress: null,
        action: action ?? (fresh.action === 'INIT' ? 'CREATE' : fresh.action),
      });
      if (failed) await tx.events.append([resourceEvent(failed, failed.action, 'FAILED', reason, now)]);
    }
    if (scope.current) {
      const failedAction = action ?? (row.action === 'INIT' ? 'CREATE' : row.action);
      const why = stackReason ?? stackFailureText(failedAction, reason);
      const failedStack = await failTraversal(tx, stack, item.traversalId, why, now);
      const rollsBack = !stack.disableRollback && (stack.action === 'CREATE' || stack.action === 'UPDATE');
      if (failedStack && rollsBack) await enqueueRollback(tx, stack, now);
    }
    await tx.work.complete(item);
  });
}

/** Enqueues the rollback of a failed (or cancelled) stack, in the caller's transaction. */
export async function enqueueRollback(tx: Tx, stack: StackRecord, now: number): Promise<void> {
  await tx.work.enqueue([
    {
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId: '',
      kind: ROLLBACK,
      node: 'stack',
      payload: { failedAction: stack.action },
      runAt: now,
    },
  ]);
}

/**
 * Fails the current traversal when the stack's timeout has passed (checked whenever one of its
 * units runs, and waits are persisted polls, so a stuck operation is noticed). Returns true if so.
 */
export async function failIfTimedOut(scope: NodeScope, row?: ResourceRecord): Promise<boolean> {
  const { deps, stack, item } = scope;
  if (!scope.current || !hasTimedOut(deps, stack)) return false;
  const now = deps.clock.now();
  if (row) {
    // An operation still running when the stack times out fails with it, as in Heat.
    const action = row.action === 'INIT' ? 'CREATE' : row.action;
    const why = timeoutReasonOf(deps, row, action, now);
    const reason = why ? `${abortedText(action, TIMED_OUT)}: ${why}` : abortedText(action, TIMED_OUT);
    await failNode(scope, row, reason, undefined, TIMED_OUT);
    return true;
  }
  await deps.store.tx(async (tx) => {
    const failed = await failTraversal(tx, stack, item.traversalId, TIMED_OUT, now);
    const rollsBack = !stack.disableRollback && (stack.action === 'CREATE' || stack.action === 'UPDATE');
    if (failed && rollsBack) await enqueueRollback(tx, stack, now);
    await tx.work.complete(item);
  });
  return true;
}

/** What the row's type says of its wait that the timeout cut short (ResourcePlugin.timeoutReason). */
function timeoutReasonOf(
  deps: EngineDeps,
  row: ResourceRecord,
  action: string,
  now: number,
): string | undefined {
  const plugin = deps.plugins.plugin(row.type);
  const state = (row.progress as { state?: Json } | null)?.state;
  if (!plugin?.timeoutReason || state === undefined || state === null) return undefined;
  return plugin.timeoutReason(action, state, now);
}

/** Whether the stack's current operation has run past its timeout. */
export function hasTimedOut(deps: EngineDeps, stack: StackRecord): boolean {
  return deps.clock.now() > timeoutAt(deps, stack);
}

/** When the stack's current operation times out (epoch ms). */
export function timeoutAt(deps: EngineDeps, stack: StackRecord): number {
  const limitMs = (stack.timeoutMins ?? deps.settings.stackActionTimeout / 60) * 60_000;
  return Date.parse(stack.updatedAt ?? stack.createdAt) + limitMs;
}
