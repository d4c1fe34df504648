import type { ObservePolicy, StackRecord, Tx } from '../../store/contract.js';

/*
 * A stack's observation as the operations set it: one persisted unit of kind `observe` per
 * observed stack (observer.ts runs it). Kept apart so that operations start and stop
 * observation without importing the observer, which starts heals through operations.
 */

export const OBSERVE = 'observe';

/** The traversal id a stack's observation items carry (they belong to no traversal). */
export function observeKey(stackId: string): string {
  return `observe:${stackId}`;
}

/** Starts, changes or stops a top-level stack's observation, in the caller's transaction. */
export async function setObservation(
  tx: Tx,
  stack: Pick<StackRecord, 'id' | 'rootId'>,
  policy: ObservePolicy | null,
  now: number,
): Promise<void> {
  await tx.stacks.update(stack.id, null, { observe: policy });
  await tx.work.deleteForTraversal(observeKey(stack.id));
  if (!policy) return;
  await tx.work.enqueue([
    {
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId: observeKey(stack.id),
      kind: OBSERVE,
      node: OBSERVE,
      runAt: now + policy.intervalMs,
    },
  ]);
}
