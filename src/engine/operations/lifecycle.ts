import type { StackRecord, Tx } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { desiredOf } from '../core/plan.js';
import type { TemplateCache } from '../core/templates.js';
import { resourceEvent } from '../core/events.js';
import { currentRow } from '../core/rows.js';
import { enqueueRollback } from '../nodes/failure.js';
import { failTraversal } from '../core/finish.js';
import { beginTraversal } from '../core/traversal.js';
import { ConflictError, OperationError } from '../core/errors.js';
import { beginVisit } from '../nodes/suspend-node.js';
import { deleteStackSnapshots } from '../core/snapshot-state.js';
import { beginLegacy, notInLegacyMode } from '../legacy/begin.js';
import { requireStack, getStack, resourceNotFound } from './queries.js';

/* The other stack operations: delete, check, suspend/resume, cancel, mark unhealthy. */

export async function deleteStack(deps: EngineDeps, stackId: string): Promise<StackRecord> {
  const stack = await requireStack(deps, stackId);
  const now = deps.clock.now();
  if (!stack.convergence) {
    await deps.store.tx(async (tx) => {
      await deleteStackSnapshots(tx, stack, now);
      await beginLegacy(tx, stack, { action: 'DELETE', templateId: stack.templateId, now });
    });
    return (await getStack(deps, stackId))!;
  }
  await deps.store.tx(async (tx) => {
    await deleteStackSnapshots(tx, stack, now);
    await beginTraversal(tx, { stack, action: 'DELETE', templateId: stack.templateId, desired: [], now });
  });
  return (await getStack(deps, stackId))!;
}

/**
 * Checks a stack (Heat's stack check): a CHECK traversal over the stack's current template and
 * the rows it has, in dependency order; each resource's plugin probes its backend (check-node.ts).
 * Nothing is created, deleted or converged; the template stays.
 */
export async function checkStack(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
): Promise<StackRecord> {
  const stack = await requireStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, 'check it');
  if (stack.status === 'IN_PROGRESS') {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_IN_PROGRESS: it can be checked once that ends`,
      'conflict',
    );
  }
  const templateId = stack.templateId;
  const record = templateId ? await deps.store.tx((tx) => tx.templates.get(templateId)) : undefined;
  if (!templateId || !record) {
    throw new OperationError(`stack "${stack.name}" has no template to check against`, 'invalid');
  }
  const identity = { stackId: stack.id, stackName: stack.name, projectId: stack.projectId };
  const definition = cache.get(record, identity);
  await deps.store.tx((tx) =>
    beginTraversal(tx, {
      stack,
      action: 'CHECK',
      templateId,
      desired: desiredOf(definition),
      now: deps.clock.now(),
    }),
  );
  return (await getStack(deps, stackId))!;
}

/**
 * Suspends or resumes a stack (Heat's stack suspend / resume): a SUSPEND traversal visits every
 * resource after those that depend on it, a RESUME one before (suspend-node.ts). A stack already in
 * the asked state is left as it is, as Heat does.
 */
export async function suspendOrResume(
  deps: EngineDeps,
  stackId: string,
  action: 'SUSPEND' | 'RESUME',
): Promise<StackRecord> {
  const stack = await requireStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, action === 'SUSPEND' ? 'suspend it' : 'resume it');
  if (stack.action === action && stack.status === 'COMPLETE') return stack;
  if (stack.status === 'IN_PROGRESS') {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_IN_PROGRESS: it can be ${action === 'SUSPEND' ? 'suspended' : 'resumed'} once that ends`,
      'conflict',
    );
  }
  await deps.store.tx((tx) => beginVisit(tx, stack, action, deps.clock.now()));
  return (await getStack(deps, stackId))!;
}

/**
 * Stops a running create or update. With rollback (an update only), the stack returns to the
 * template it had before; without, the traversal just ends FAILED. Either way operations already
 * running on resources finish, and nothing else of the traversal runs.
 */
export async function cancelStack(
  deps: EngineDeps,
  stackId: string,
  options: { rollback: boolean },
): Promise<void> {
  const stack = await requireStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, 'cancel an operation');
  if (stack.status !== 'IN_PROGRESS' || (stack.action !== 'CREATE' && stack.action !== 'UPDATE')) {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_${stack.status}: only a running create or update can be cancelled`,
      'conflict',
    );
  }
  if (options.rollback && stack.action !== 'UPDATE') {
    throw new OperationError('only an update can be cancelled with rollback; use --no-rollback', 'invalid');
  }
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const stopped = await failTraversal(tx, stack, stack.traversalId, `Stack ${stack.action} cancelled`, now);
    if (!stopped) throw new ConflictError(`stack "${stack.name}" changed while cancelling; try again`);
    await cancelChildren(tx, stack.id, now);
    if (options.rollback) await enqueueRollback(tx, stack, now);
  });
}

/**
 * A cancelled stack's running nested stacks stop too (their in-flight work finishes on its own),
 * rather than running to their end for a parent that no longer waits for them.
 */
async function cancelChildren(tx: Tx, parentId: string, now: number): Promise<void> {
  for (const child of await tx.stacks.children(parentId)) {
    if (child.status !== 'IN_PROGRESS' || !child.traversalId) continue;
    // Heat's stop_traversal gives every stopped descendant the same reason as the stack.
    const reason = `Stack ${child.action} cancelled`;
    if (await failTraversal(tx, child, child.traversalId, reason, now))
      await cancelChildren(tx, child.id, now);
  }
}

/**
 * Marks a resource unhealthy (CHECK_FAILED with the reason): the next update replaces it. Marking
 * it healthy again (`unhealthy` false) turns a CHECK_FAILED resource CHECK_COMPLETE, as Heat's
 * resource_mark_unhealthy does, and leaves any other state alone.
 */
export async function markUnhealthy(
  deps: EngineDeps,
  stackId: string,
  resourceName: string,
  reason: string,
  unhealthy = true,
): Promise<void> {
  const stack = await requireStack(deps, stackId);
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const row = currentRow(await tx.resources.findByName(stack.id, resourceName));
    if (!row) throw resourceNotFound(stack, resourceName);
    if (!unhealthy && (row.action !== 'CHECK' || row.status !== 'FAILED')) return;
    if (row.engineId !== null) {
      throw new OperationError(`resource "${resourceName}" is being worked on; try again later`, 'conflict');
    }
    const status = unhealthy ? 'FAILED' : 'COMPLETE';
    const marked = await tx.resources.update(row.id, row.atomicKey, null, {
      unhealthy,
      action: 'CHECK',
      status,
      reason: reason || (unhealthy ? 'marked unhealthy' : 'marked healthy'),
    });
    if (!marked) throw new ConflictError(`resource "${resourceName}" changed meanwhile; try again`);
    await tx.events.append([resourceEvent(marked, 'CHECK', status, marked.reason, now)]);
  });
}
