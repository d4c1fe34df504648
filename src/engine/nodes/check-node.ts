import { childStackOf } from '../context/child-stack.js';
import { resourceEvent } from '../core/events.js';
import { lockState } from './locks.js';
import { runNestedCheck } from './nested/nested-check.js';
import { errorMessage } from '../core/failure-text.js';
import { type NodePayload, type NodeScope, pluginContext } from '../context/node-work.js';
import { parseNodeKey } from '../core/nodes.js';
import { drop, retryLater, waitForLock } from '../context/node-work.js';
import { report } from './record.js';
import type { CheckOutput } from './record.js';

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
