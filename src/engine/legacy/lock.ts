import type { StackRecord } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { stackEvent } from '../core/events.js';
import { engineAlive } from '../runtime/liveness.js';

/**
 * Heat's stack lock, for legacy stacks: the engine that walks a stack holds it until the
 * operation ends. A lock whose engine is dead (its heartbeat stale, or its local process gone) is
 * stolen, and the operation resumed; one held by a live engine makes the caller wait.
 */
export type LockOutcome = 'taken' | 'stolen' | 'busy';

export async function takeStackLock(deps: EngineDeps, stack: StackRecord): Promise<LockOutcome> {
  const now = deps.clock.now();
  const { engineId } = deps;
  return deps.store.tx(async (tx) => {
    const held = await tx.stackLocks.get(stack.id);
    if (!held) return (await tx.stackLocks.acquire(stack.id, engineId, now)) ? 'taken' : 'busy';
    if (held.engineId === engineId) return 'taken';
    const holder = await tx.services.get(held.engineId);
    if (engineAlive(holder, now, deps.settings.engineDeadAfterMs)) return 'busy';
    if (!(await tx.stackLocks.acquire(stack.id, engineId, now, held.engineId))) return 'busy';
    const reason = `Engine ${held.engineId} went away during stack ${stack.action}: engine ${engineId} took the stack lock over and resumes it`;
    await tx.events.append([stackEvent(stack, stack.action, 'IN_PROGRESS', reason, now)]);
    return 'stolen';
  });
}

/** Releases this engine's lock of the stack, if it still holds it. */
export async function releaseStackLock(deps: EngineDeps, stackId: string): Promise<void> {
  await deps.store.tx((tx) => tx.stackLocks.release(stackId, deps.engineId));
}
