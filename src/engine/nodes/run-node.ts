import type { WorkItem } from '../../store/contract.js';
import { runCheckNode } from './check-node.js';
import { runCleanupNode } from './cleanup-node.js';
import type { EngineDeps } from '../core/deps.js';
import { failIfTimedOut } from './failure.js';
import { holderOf } from './locks.js';
import { resumeNested } from './nested/nested.js';
import { type NodeScope, payloadOf, withCarriedInputs } from '../context/node-work.js';
import { parseNodeKey, VISITS } from '../core/nodes.js';
import { runSnapshotNode } from './snapshot-node.js';
import { runSuspendNode } from './suspend-node.js';
import type { TemplateCache } from '../core/templates.js';
import { runUpdateNode } from './update-node.js';

/**
 * The one entry point of a graph node's unit (kind `check`): loads its scope, fails it if its
 * stack timed out, and hands it to the reconciler its key and traversal name. Idempotent like
 * every reconciler it calls.
 */
export async function runNode(
  deps: EngineDeps,
  cache: TemplateCache,
  item: WorkItem,
  running: ReadonlySet<number>,
): Promise<void> {
  const loaded = await deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(item.stackId);
    const traversal = item.traversalId ? await tx.traversals.get(item.traversalId) : undefined;
    const point = item.traversalId
      ? (await tx.sync.getMany(item.traversalId, [item.node], { inputs: !item.inputs }))[0]
      : undefined;
    return { stack, traversal, point };
  });
  if (!loaded.stack) {
    await deps.store.tx((tx) => tx.work.complete(item));
    return;
  }
  const scope: NodeScope = {
    deps,
    cache,
    item,
    stack: loaded.stack,
    traversal: loaded.traversal,
    point: withCarriedInputs(loaded.point, item),
    current: loaded.stack.traversalId === item.traversalId && loaded.traversal !== undefined,
    holder: holderOf(deps.engineId, item.id),
    running,
  };
  const payload = payloadOf(item);
  if (payload.phase === 'poll' || payload.phase === 'nested' || payload.phase === 'retry') {
    const row = await deps.store.tx((tx) => tx.resources.get(payload.row));
    if (row && row.status === 'IN_PROGRESS') {
      if (await failIfTimedOut(scope, row)) return;
    } else if (payload.phase === 'retry' && (await failIfTimedOut(scope))) {
      // A create waiting to be retried: the stack's timeout ends the wait (the row is FAILED already).
      return;
    }
  } else if (await failIfTimedOut(scope)) {
    return;
  }
  const action = scope.traversal?.action ?? '';
  if (payload.phase === 'nested') await resumeNested(scope, payload);
  else if (parseNodeKey(item.node).kind !== 'u') await runCleanupNode(scope, payload);
  else if (action === 'CHECK') await runCheckNode(scope, payload);
  else if (action === 'SNAPSHOT') await runSnapshotNode(scope, payload);
  // The other visits: SUSPEND and RESUME.
  else if (VISITS.has(action)) await runSuspendNode(scope, payload);
  else await runUpdateNode(scope, payload);
}
