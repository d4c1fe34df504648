import { randomUUID } from 'node:crypto';
import type { StackAction, StackRecord, Tx } from '../../store/contract.js';
import { stackEvent } from '../core/events.js';
import { OperationError } from '../core/errors.js';
import type { Json } from '../../util/json.js';

/**
 * Legacy engine mode (Heat before convergence): one engine takes the stack's lock and walks the
 * whole graph in memory until the operation ends (run.ts). Starting an operation records the
 * stack's new state and queues the one unit of work that walks it, in the caller's transaction;
 * an operation already running refuses the next (no desired state replaces a running one here).
 */

/** The unit-of-work kind of a legacy operation: one unit walks the whole stack. */
export const LEGACY = 'legacy';

/** What the unit carries: the operation it walks (the stack's traversalId while it runs). */
export interface LegacyPayload {
  op: string;
  /** When the operation started: its timeout counts from here, also after a takeover. */
  startedAt: number;
}

export function legacyKey(stackId: string): string {
  return `legacy:${stackId}`;
}

/** The operation id a legacy stack carries in `traversalId` (it has no traversals). */
function newOperationId(): string {
  return `legacy-${randomUUID()}`;
}

export interface LegacyStart {
  action: Extract<StackAction, 'CREATE' | 'UPDATE' | 'DELETE'>;
  templateId: string | null;
  now: number;
  stackChanges?: Partial<StackRecord>;
  reason?: string;
}

/**
 * Starts a legacy operation on `stack` (inserted already for a create). Refused while another runs:
 * Heat's legacy engine answers ActionInProgress; so does this one, with the action that runs.
 */
export async function beginLegacy(tx: Tx, stack: StackRecord, start: LegacyStart): Promise<void> {
  if (stack.status === 'IN_PROGRESS' && start.action !== 'CREATE') throw actionInProgress(stack);
  const op = newOperationId();
  const reason = start.reason ?? `Stack ${start.action} started`;
  const changes: Partial<StackRecord> = {
    ...start.stackChanges,
    action: start.action,
    status: 'IN_PROGRESS',
    reason,
    traversalId: op,
    updatedAt: new Date(start.now).toISOString(),
  };
  if (start.action === 'UPDATE') {
    changes.templateId = start.templateId;
    changes.prevTemplateId = stack.templateId;
  } else if (start.action === 'CREATE') {
    changes.templateId = start.templateId;
  }
  // The compare-and-swap on the operation id: of two racing requests, one starts, one is refused.
  if (!(await tx.stacks.update(stack.id, stack.traversalId, changes))) throw actionInProgress(stack);
  await tx.events.append([stackEvent(stack, start.action, 'IN_PROGRESS', reason, start.now)]);
  await tx.work.deleteForTraversal(legacyKey(stack.id));
  const payload: LegacyPayload = { op, startedAt: start.now };
  await tx.work.enqueue([
    {
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId: legacyKey(stack.id),
      kind: LEGACY,
      node: LEGACY,
      runAt: start.now,
      payload: payload as unknown as Json,
    },
  ]);
}

export function actionInProgress(stack: StackRecord): OperationError {
  return new OperationError(
    `Stack ${stack.name} already has an action (${stack.action}) in progress; it runs under the legacy engine, which takes one operation at a time`,
    'conflict',
  );
}

/** What the legacy engine does not do: said before anything is written. */
export function notInLegacyMode(stack: StackRecord, what: string): OperationError {
  return new OperationError(
    `stack "${stack.name}" runs under the legacy engine, which cannot ${what}; migrate it first: hearth manage migrate-convergence ${stack.id}`,
    'invalid',
  );
}
