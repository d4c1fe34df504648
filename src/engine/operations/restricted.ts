import type { StackRecord } from '../../store/contract.js';
import {
  type Environment,
  type ResourceEntry,
  ResourceRegistry,
  type RestrictedAction,
} from '../../template/environment/index.js';
import type { EngineDeps } from '../core/deps.js';
import { resourceEvent, stackEvent } from '../core/events.js';
import { enqueueRollback } from '../nodes/failure.js';
import { OperationError } from '../core/errors.js';
import type { PreparedUpdate } from './prepare.js';
import { type PreviewedChange, previewUpdate } from './preview.js';
import { ConflictError } from '../core/errors.js';

/**
 * The environment's `restricted_actions` (Heat's ResourceActionRestricted): an update that would
 * update in place, or replace, a resource whose `resource_registry.resources` entries (names,
 * wildcards, nested paths) restrict that action fails before it touches anything. The check runs
 * at update start on the update preview (preview.ts), so it sees exactly the decisions the
 * update's nodes would make; a restricted resource whose properties depend on a value only the
 * update produces counts as changing, so it is refused rather than risked.
 *
 * A refused update leaves the resources, the physical resources and the stack's template as they
 * are. The stack becomes UPDATE_FAILED with Heat's reason (as in Heat's functional test
 * test_update_restricted), its rollback target being its current template, and the restricted
 * resources get an UPDATE_FAILED event ("<action> is restricted for resource.") while their rows
 * keep their state. With rollback enabled the rollback follows (it finds nothing to change). A
 * stack with an operation in progress is not failed under it: the request is refused instead.
 */

export interface Restriction {
  change: PreviewedChange;
  action: RestrictedAction;
}

/** Heat's ResourceActionRestricted message. */
export function restrictedMessage(action: RestrictedAction): string {
  return `${action} is restricted for resource.`;
}

/** The restricted changes an update would make, by the registry of the environment it brings. */
export function restrictions(changes: readonly PreviewedChange[], environment: Environment): Restriction[] {
  const registry = new ResourceRegistry(environment);
  const out: Restriction[] = [];
  for (const change of changes) {
    const action =
      change.change === 'updated' ? 'update' : change.change === 'replaced' ? 'replace' : undefined;
    if (action && registry.restrictedActionsFor(change.name, change.path).has(action)) {
      out.push({ change, action });
    }
  }
  return out;
}

/** Fails the update up front if it would make a restricted change; returns the failed stack, or undefined. */
export async function refuseRestrictedActions(
  deps: EngineDeps,
  prepared: PreparedUpdate,
  disableRollback: boolean,
): Promise<StackRecord | undefined> {
  const { stack, environment, definition } = prepared;
  if (!restrictsAnything(environment.resourceRegistry.resources)) return undefined;
  const found = restrictions(await previewUpdate(deps, stack.id, definition, true, environment), environment);
  if (found.length === 0) return undefined;
  const reason = `Resource UPDATE failed: ${found
    .map(
      ({ change, action }) =>
        `ResourceActionRestricted: ${resourcePath(change)}: ${restrictedMessage(action)}`,
    )
    .join('; ')}`;
  if (stack.status === 'IN_PROGRESS') {
    throw new OperationError(`stack "${stack.name}" is ${stack.action}_IN_PROGRESS; ${reason}`, 'conflict');
  }
  const now = deps.clock.now();
  return deps.store.tx(async (tx) => {
    const changes: Partial<StackRecord> = {
      action: 'UPDATE',
      status: 'FAILED',
      reason,
      traversalId: '',
      // A rollback goes back to what the stack has now: the template it keeps.
      prevTemplateId: stack.templateId,
      updatedAt: new Date(now).toISOString(),
    };
    const failed: StackRecord = { ...stack, ...changes };
    if (!(await tx.stacks.update(stack.id, stack.traversalId, changes))) {
      throw new ConflictError(
        `stack "${stack.name}" was changed by another operation at the same time; try again`,
      );
    }
    await tx.events.append([
      stackEvent(stack, 'UPDATE', 'IN_PROGRESS', 'Stack UPDATE started', now),
      ...found.map(({ change, action }) =>
        resourceEvent(
          {
            stackId: change.stackId!,
            name: change.name,
            type: change.row!.type,
            physicalId: change.row!.physicalId,
          },
          'UPDATE',
          'FAILED',
          restrictedMessage(action),
          now,
        ),
      ),
      stackEvent(stack, 'UPDATE', 'FAILED', reason, now),
    ]);
    if (!disableRollback) await enqueueRollback(tx, failed, now);
    return failed;
  });
}

/** Heat's name of a resource in a reason: resources.<name>, through nested stacks. */
function resourcePath(change: PreviewedChange): string {
  return [...change.path, change.name].map((n) => `resources.${n}`).join('.');
}

/** Whether any `resources:` entry, at any nesting level, restricts an action (the common case: none). */
export function restrictsAnything(entries: ReadonlyMap<string, ResourceEntry | null>): boolean {
  for (const entry of entries.values()) {
    if (!entry) continue;
    const actions = entry.restrictedActions;
    if (actions && (!Array.isArray(actions) || actions.length > 0)) return true;
    if (restrictsAnything(entry.nested)) return true;
  }
  return false;
}
