import type { StackRecord, Tx } from '../../store/contract.js';
import { stackEvent } from './events.js';
import { nodeKey, VISITS } from './nodes.js';
import { enqueueRelease } from './release-credentials.js';
import { completeSnapshot, failSnapshot } from './snapshot-state.js';

/**
 * The event key a nested stack's end is announced on: the parent's unit of work that started the
 * child's operation is parked on it (see nested.ts), and is woken, not polling.
 */
export function stackWaitKey(stackId: string): string {
  return `stack:${stackId}`;
}

/**
 * The last node of a traversal finished: the stack is COMPLETE (compare-and-swap on the
 * traversal, so a superseded traversal can never mark it), obsolete rows are purged, the
 * previous template is released, and a nested stack's parent is woken.
 */
export async function finishTraversal(
  tx: Tx,
  stack: StackRecord,
  traversalId: string,
  now: number,
): Promise<void> {
  const checking = stack.action === 'CHECK';
  const visiting = VISITS.has(stack.action);
  if (checking) {
    // A CHECK runs to its end through failures (see check-node.ts); they fail it only now.
    const failures = await checkFailures(tx, stack.id, traversalId);
    if (failures) {
      await failTraversal(tx, stack, traversalId, failures, now);
      return;
    }
  }
  let reason = `Stack ${stack.action} completed successfully`;
  // Heat's wording when some resource (or a nested stack's) had no check to run.
  if (checking && (await checkUnsupported(tx, stack.id))) reason += `. ${NOT_FULLY_SUPPORTED}`;
  const deleting = stack.action === 'DELETE';
  const done = await tx.stacks.update(stack.id, traversalId, {
    status: 'COMPLETE',
    reason,
    // A visit (CHECK, SUSPEND, RESUME) converges nothing: the rollback target and templates stay.
    ...(visiting ? {} : { prevTemplateId: null }),
    ...(deleting ? { deletedAt: new Date(now).toISOString() } : {}),
  });
  if (!done) return;
  if (stack.action === 'SNAPSHOT') await completeSnapshot(tx, traversalId, now);
  await releaseCompleted(tx, stack, deleting, !visiting);
  await tx.sync.deleteTraversal(traversalId);
  await tx.traversals.delete(traversalId);
  await tx.events.append([stackEvent(stack, stack.action, 'COMPLETE', reason, now)]);
  if (stack.parentId) await tx.work.wakeWaiting(stackWaitKey(stack.id), now);
}

/**
 * What a stack's completed operation no longer needs, in its transaction (either engine mode):
 * deleted rows (every row of a deleted stack), a deleted stack's drift records and credentials
 * (a root's trust, released by a unit of work) and, unless the operation converged nothing, the
 * template it started from.
 */
export async function releaseCompleted(
  tx: Tx,
  stack: StackRecord,
  deleting: boolean,
  releaseTemplate: boolean,
): Promise<void> {
  await tx.resources.purge(stack.id, deleting);
  if (deleting) await tx.drift.replace(stack.id, stack.rootId, []);
  if (deleting) await enqueueRelease(tx, stack);
  if (releaseTemplate && stack.prevTemplateId && stack.prevTemplateId !== stack.templateId) {
    await tx.templates.delete(stack.prevTemplateId);
  }
}

/**
 * A node failed: the stack is <ACTION>_FAILED and the traversal ends (its id is cleared, so every
 * other unit of work of it stops at its next step). In-flight operations finish on their own.
 * A nested stack's parent is woken.
 */
export async function failTraversal(
  tx: Tx,
  stack: StackRecord,
  traversalId: string,
  reason: string,
  now: number,
): Promise<boolean> {
  const failed = await tx.stacks.update(stack.id, traversalId, { status: 'FAILED', reason, traversalId: '' });
  if (!failed) return false;
  if (stack.action === 'SNAPSHOT') await failSnapshot(tx, traversalId, reason, now);
  await tx.sync.deleteTraversal(traversalId);
  await tx.traversals.delete(traversalId);
  await tx.events.append([stackEvent(stack, stack.action, 'FAILED', reason, now)]);
  if (stack.parentId) await tx.work.wakeWaiting(stackWaitKey(stack.id), now);
  return true;
}

/**
 * The combined failure of a CHECK traversal, or null: the rows of its update nodes that are
 * CHECK_FAILED (a skipped row keeps the state it had, so an earlier CHECK_FAILED counts too —
 * skips only happen when something upstream failed, so the verdict is the same).
 */
const NOT_FULLY_SUPPORTED = "'CHECK' not fully supported (see resources)";

/** Whether a resource of the stack, or of a nested stack, has no CHECK of its own (Heat's supports_check_action). */
async function checkUnsupported(tx: Tx, stackId: string): Promise<boolean> {
  for (const row of await tx.resources.listActive(stackId)) {
    if (row.action === 'CHECK' && row.reason.startsWith('CHECK not supported')) return true;
  }
  for (const child of await tx.stacks.children(stackId)) {
    if (child.action === 'CHECK' && child.reason.includes(NOT_FULLY_SUPPORTED)) return true;
  }
  return false;
}

async function checkFailures(tx: Tx, stackId: string, traversalId: string): Promise<string | null> {
  const failed: string[] = [];
  for (const row of await tx.resources.listActive(stackId)) {
    if (row.action !== 'CHECK' || row.status !== 'FAILED') continue;
    if (await tx.sync.get(traversalId, nodeKey('u', row.id))) failed.push(`${row.name}: ${row.reason}`);
  }
  return failed.length > 0 ? `Resource CHECK failed: ${failed.join('; ')}` : null;
}
