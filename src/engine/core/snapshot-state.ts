import type { StackRecord, Tx } from '../../store/contract.js';

/*
 * A snapshot's row follows its SNAPSHOT traversal (Heat's snapshot status): COMPLETE when the
 * traversal completes, FAILED with its reason when it fails or a newer operation supersedes it.
 * Written in the transaction that ends the traversal.
 */

/** The SNAPSHOT traversal `traversalId` completed: its snapshot is COMPLETE. */
export async function completeSnapshot(tx: Tx, traversalId: string, now: number): Promise<void> {
  const snapshot = await tx.snapshots.byTraversal(traversalId);
  if (!snapshot) return;
  await tx.snapshots.update(snapshot.id, {
    status: 'COMPLETE',
    statusReason: 'Stack SNAPSHOT completed successfully',
    traversalId: '',
    updatedAt: new Date(now).toISOString(),
  });
}

/** The SNAPSHOT traversal `traversalId` failed or was superseded: its snapshot is FAILED. */
export async function failSnapshot(tx: Tx, traversalId: string, reason: string, now: number): Promise<void> {
  const snapshot = await tx.snapshots.byTraversal(traversalId);
  if (!snapshot) return;
  await tx.snapshots.update(snapshot.id, {
    status: 'FAILED',
    statusReason: reason,
    traversalId: '',
    updatedAt: new Date(now).toISOString(),
  });
}

/** A new operation replaces a stack's traversal: a snapshot it was taking fails. */
export async function supersedeSnapshot(
  tx: Tx,
  stack: StackRecord,
  action: string,
  now: number,
): Promise<void> {
  if (stack.action !== 'SNAPSHOT' || stack.status !== 'IN_PROGRESS' || !stack.traversalId) return;
  await failSnapshot(tx, stack.traversalId, `Stack SNAPSHOT was superseded by a stack ${action}`, now);
}

/** The unit-of-work kind that deletes a snapshot (snapshot.ts). */
export const DELETE_SNAPSHOT = 'delete_snapshot';

/** Queues the deletion of a snapshot (the API's delete, or its stack's), in the caller's transaction. */
export async function enqueueSnapshotDelete(tx: Tx, stack: StackRecord, snapshotId: string): Promise<void> {
  await tx.work.enqueue([
    {
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId: `snapshot:${snapshotId}`,
      kind: DELETE_SNAPSHOT,
      node: snapshotId,
    },
  ]);
}

/** A stack is being deleted: its snapshots go too (Heat deletes them first), each by a unit of work. */
export async function deleteStackSnapshots(tx: Tx, stack: StackRecord, now: number): Promise<void> {
  for (const snapshot of await tx.snapshots.list(stack.id)) {
    if (snapshot.deleting) continue;
    await tx.snapshots.update(snapshot.id, { deleting: true, updatedAt: new Date(now).toISOString() });
    await enqueueSnapshotDelete(tx, stack, snapshot.id);
  }
}
