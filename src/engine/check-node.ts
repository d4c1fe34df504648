import type { ResourceRecord } from '../store/contract.js';
import { childStackOf } from './child-stack.js';
import type { Json } from '../util/json.js';
import { resourceEvent } from './events.js';
import { lockState } from './locks.js';
import { runNestedCheck } from './nested-check.js';
import { errorMessage, type NodePayload, type NodeScope, pluginContext } from './node-work.js';
import { parseNodeKey } from './nodes.js';
import { propagate } from './propagate.js';
import { drop, retryLater, waitForLock } from './update-node.js';

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
 * One update node of a CHECK traversal: take the resource's lock (CHECK_IN_PROGRESS), probe the
 * backend with the plugin's `check` (absent: CHECK_COMPLETE, "CHECK not supported"), and release
 * with CHECK_COMPLETE or CHECK_FAILED, reporting to the dependents in the same transaction.
 * A failure does not fail the traversal. Idempotent: a step run again after a crash finds the lock
 * its own (or abandoned) and checks again.
 */
export async function runCheckNode(scope: NodeScope, _payload: NodePayload): Promise<void> {
  const { deps } = scope;
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const row = await deps.store.tx((tx) => tx.resources.get(parseNodeKey(scope.item.node).rowId));
  if (!row) return drop(scope);

  const upstream = failedUpstream(scope);
  if (upstream.length > 0) return report(scope, row, null, upstream);

  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  // A template resource: its check is its child stack's (children before their parent's verdict).
  if (childStackOf(row) !== undefined) return runNestedCheck(scope, row);
  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: 'CHECK',
      status: 'IN_PROGRESS',
      reason: 'state changed',
      updatedAt: new Date(now).toISOString(),
    });
    if (next) await tx.events.append([resourceEvent(next, 'CHECK', 'IN_PROGRESS', 'state changed', now)]);
    return next;
  });
  if (!locked) return retryLater(scope);

  const plugin = deps.plugins.plugin(row.type);
  let error: string | null = null;
  let reason = 'state changed';
  if (plugin?.check) {
    try {
      await plugin.check(pluginContext(scope, locked));
    } catch (err) {
      error = errorMessage(err) || 'CHECK failed';
    }
  } else {
    reason = `CHECK not supported for ${row.type}`;
  }
  return report(scope, locked, { error, reason }, error === null ? [] : [row.name]);
}

/** Names of failed resources reported by the nodes this one needs. */
function failedUpstream(scope: NodeScope): string[] {
  const names = new Set<string>();
  for (const value of Object.values(scope.point?.inputs ?? {})) {
    const failed = (value as Partial<CheckOutput> | null)?.failed;
    if (Array.isArray(failed)) for (const name of failed) names.add(name);
  }
  return [...names].sort();
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
