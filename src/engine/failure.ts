import type { ResourceRecord } from '../store/contract.js';
import { resourceEvent } from './events.js';
import { failTraversal } from './finish.js';
import type { NodeScope } from './node-work.js';

/** Work kind: roll a failed stack back (enqueued with the failure, so it survives a crash). */
export const ROLLBACK = 'rollback';

/**
 * An operation failed: the resource is <ACTION>_FAILED (lock released), and if the node belongs
 * to the current traversal the stack fails too; with rollback enabled, a rollback is enqueued in
 * the same transaction.
 */
export async function failNode(scope: NodeScope, row: ResourceRecord, reason: string): Promise<void> {
  const { deps, item, stack } = scope;
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const fresh = await tx.resources.get(row.id);
    if (fresh) {
      const failed = await tx.resources.update(fresh.id, fresh.atomicKey, fresh.engineId, {
        engineId: null,
        status: 'FAILED',
        reason,
        progress: null,
        action: fresh.action === 'INIT' ? 'CREATE' : fresh.action,
      });
      if (failed) await tx.events.append([resourceEvent(failed, failed.action, 'FAILED', reason, now)]);
    }
    if (scope.current) {
      const stackReason = `Resource ${row.action === 'INIT' ? 'CREATE' : row.action} failed: ${reason}`;
      const failedStack = await failTraversal(tx, stack, item.traversalId, stackReason, now);
      const rollsBack = !stack.disableRollback && (stack.action === 'CREATE' || stack.action === 'UPDATE');
      if (failedStack && rollsBack) {
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
    }
    await tx.work.complete(item.id, deps.engineId);
  });
}
