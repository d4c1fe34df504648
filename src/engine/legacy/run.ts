import { ClaimLostError, type StackRecord, type WorkItem } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { stackEvent } from '../core/events.js';
import { releaseCompleted } from '../core/finish.js';
import { holderOf } from '../nodes/locks.js';
import type { TemplateCache } from '../core/templates.js';
import type { LegacyPayload } from './begin.js';
import { type LegacyRun, StackFailed, WalkInterrupted } from './context.js';
import { releaseStackLock, takeStackLock } from './lock.js';
import { walkStack } from './stack-walk.js';

/** How long a legacy unit waits before looking again at a lock a live engine holds. */
const LOCK_RETRY_MS = 1000;

/**
 * The unit of work of a legacy operation: take the stack lock, walk the stack to the operation's
 * end (rolling a failed create or update back unless rollback is disabled), then record the end,
 * release the lock and complete the unit in one transaction. A stopping engine hands the unit and
 * the lock back; a dead one's are taken over (its claim released by the heartbeat reaper, its lock
 * stolen) and the walk resumes from the rows: every step is idempotent.
 */
export async function runLegacy(
  deps: EngineDeps,
  cache: TemplateCache,
  item: WorkItem,
  signal: AbortSignal,
): Promise<void> {
  const payload = item.payload as unknown as LegacyPayload;
  let stack = await deps.store.tx((tx) => tx.stacks.get(item.stackId));
  if (!stack || stack.traversalId !== payload.op || stack.status !== 'IN_PROGRESS') {
    // A finished or replaced operation's unit: nothing is left to do.
    await deps.store.tx((tx) => tx.work.complete(item));
    return;
  }
  const lock = await takeStackLock(deps, stack);
  if (lock === 'busy') {
    await deps.store.tx((tx) => tx.work.reschedule(item, deps.clock.now() + LOCK_RETRY_MS, item.payload));
    return;
  }
  const run: LegacyRun = {
    deps,
    cache,
    item,
    holder: holderOf(deps.engineId, item.id),
    signal,
    deadline: payload.startedAt + timeoutMs(deps, stack),
  };
  try {
    for (;;) {
      try {
        await walkStack(run, stack);
        return await finish(run, stack, 'COMPLETE', `Stack ${stack.action} completed successfully`);
      } catch (err) {
        if (!(err instanceof StackFailed)) throw err;
        const rollback = await startRollback(run, stack, err.message);
        if (!rollback) return await finish(run, stack, 'FAILED', err.message);
        stack = rollback;
        run.deadline = deps.clock.now() + timeoutMs(deps, stack);
      }
    }
  } catch (err) {
    if (err instanceof WalkInterrupted) return await handBack(run, stack.id);
    // The unit was taken over: its new owner walks on (it may need this engine's lock).
    await releaseStackLock(deps, stack.id).catch(() => undefined);
    if (err instanceof ClaimLostError) return;
    throw err;
  }
}

function timeoutMs(deps: EngineDeps, stack: StackRecord): number {
  return (stack.timeoutMins !== null ? stack.timeoutMins * 60 : deps.settings.stackActionTimeout) * 1000;
}

/** Records the operation's end, releases the lock and completes the unit, fenced by the claim. */
async function finish(run: LegacyRun, stack: StackRecord, status: 'COMPLETE' | 'FAILED', reason: string) {
  const { deps, item } = run;
  const now = deps.clock.now();
  const deleting = stack.action === 'DELETE' && status === 'COMPLETE';
  await deps.store.tx(async (tx) => {
    const done = await tx.stacks.update(stack.id, stack.traversalId, {
      status,
      reason,
      ...(status === 'COMPLETE' ? { prevTemplateId: null } : {}),
      ...(deleting ? { deletedAt: new Date(now).toISOString() } : {}),
    });
    if (!done) throw new ClaimLostError(item.id);
    if (status === 'COMPLETE') await releaseCompleted(tx, stack, deleting, true);
    await tx.events.append([stackEvent(stack, stack.action, status, reason, now)]);
    await tx.stackLocks.release(stack.id, deps.engineId);
    await tx.work.complete(item);
  });
}

/**
 * A failed create or update rolls back unless the stack disables it (Heat's default): a create's
 * resources are deleted, an update's stack converges back to the template it had. Returns the
 * stack in its ROLLBACK state, or undefined when there is none to do.
 */
async function startRollback(
  run: LegacyRun,
  stack: StackRecord,
  reason: string,
): Promise<StackRecord | undefined> {
  if (stack.disableRollback || (stack.action !== 'CREATE' && stack.action !== 'UPDATE')) return undefined;
  const { deps } = run;
  const now = deps.clock.now();
  const changes = {
    action: 'ROLLBACK' as const,
    status: 'IN_PROGRESS' as const,
    reason: `Rolling back: ${reason}`,
    templateId: stack.action === 'UPDATE' ? stack.prevTemplateId : null,
    prevTemplateId: stack.templateId,
  };
  await deps.store.tx(async (tx) => {
    if (!(await tx.stacks.update(stack.id, stack.traversalId, changes)))
      throw new ClaimLostError(run.item.id);
    await tx.events.append([
      stackEvent(stack, stack.action, 'FAILED', reason, now),
      stackEvent(stack, 'ROLLBACK', 'IN_PROGRESS', changes.reason, now),
    ]);
  });
  return { ...stack, ...changes };
}

/** The engine stops: the unit is due again at once and the lock free, for another engine. */
async function handBack(run: LegacyRun, stackId: string): Promise<void> {
  const { deps, item } = run;
  await deps.store
    .tx(async (tx) => {
      await tx.stackLocks.release(stackId, deps.engineId);
      await tx.work.reschedule(item, deps.clock.now(), item.payload);
    })
    .catch((err: unknown) => {
      if (!(err instanceof ClaimLostError)) throw err;
    });
}
