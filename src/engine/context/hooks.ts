import type { ResourceRecord, Tx } from '../../store/contract.js';
import { type Hook, HOOK_TYPES, ResourceRegistry } from '../../template/environment/index.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import { parentTemplate } from './child-stack.js';
import { resourceEvent } from '../core/events.js';
import type { NodeScope, Operation } from './node-work.js';
import { OperationError } from '../core/errors.js';

/*
 * Breakpoints (Heat's hooks): an environment's `resource_registry.resources.<name>.hooks` stops a
 * traversal before it creates, updates or deletes that resource. The node records that it waits
 * (on the row, with Heat's event) and parks; `stack hook clear` (a signal carrying `unset_hook`)
 * marks the breakpoint cleared and wakes it. All of it is persisted: a crash loses no pause and no
 * clearing. A child stack's environment is scoped to it, so hooks set on nested resources apply
 * when the child's nodes run.
 */

/** Row data key: the breakpoint a node of `traversal` waits at, or was let through. */
export const BREAKPOINT_KEY = 'breakpoint';

interface Breakpoint {
  hook: Hook;
  state: 'waiting' | 'cleared';
  traversal: string;
}

/** A parked unit waits this long at most for its clearing: only a lost wake-up would need it. */
const HOOK_SAFETY_MS = 5 * 60_000;

export function hookWaitKey(rowId: number): string {
  return `hook:${rowId}`;
}

const registries = new WeakMap<object, ResourceRegistry>();

/** The resource registry of template version `templateId`'s environment (hooks, restricted actions). */
export async function registryOf(
  scope: NodeScope,
  templateId: string | null,
): Promise<ResourceRegistry | undefined> {
  if (!templateId) return undefined;
  const parent = await parentTemplate(scope, templateId);
  if (!parent) return undefined;
  let registry = registries.get(parent);
  if (!registry) registries.set(parent, (registry = new ResourceRegistry(parent.environment)));
  return registry;
}

/** The hooks set on a resource by the environment of template version `templateId`. */
async function hooksOf(scope: NodeScope, templateId: string | null, name: string): Promise<Set<Hook>> {
  return (await registryOf(scope, templateId))?.hooksFor(name) ?? new Set();
}

function breakpointOf(row: ResourceRecord): Breakpoint | undefined {
  const bp = row.data[BREAKPOINT_KEY];
  if (!isPlainObject(bp) || typeof bp.hook !== 'string' || typeof bp.traversal !== 'string') return undefined;
  return bp as unknown as Breakpoint;
}

/** Whether a `pre-<op>` hook is set on the row's resource (the batches leave those to the single path). */
export async function hasHook(scope: NodeScope, row: ResourceRecord, op: Operation): Promise<boolean> {
  return (await hooksOf(scope, scope.traversal?.templateId ?? row.templateId, row.name)).has(`pre-${op}`);
}

/**
 * Whether the node must stop before `op` on `row`: if a `pre-<op>` hook is set and has not been
 * cleared for this traversal, the node records the pause (once) and parks; returns true then.
 * Otherwise returns false and the node goes on.
 */
export async function stopAtHook(scope: NodeScope, row: ResourceRecord, op: Operation): Promise<boolean> {
  const hook = `pre-${op}` as Hook;
  if (!(await hasHook(scope, row, op))) return false;
  const traversal = scope.item.traversalId;
  const bp = breakpointOf(row);
  if (bp?.hook === hook && bp.traversal === traversal && bp.state === 'cleared') return false;
  const { deps, item } = scope;
  const now = deps.clock.now();
  const waiting: Breakpoint = { hook, state: 'waiting', traversal };
  await deps.store.tx(async (tx) => {
    // Already waiting for this traversal: park again without a second event.
    if (!(bp?.hook === hook && bp.traversal === traversal && bp.state === 'waiting')) {
      const written = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        data: { ...row.data, [BREAKPOINT_KEY]: waiting as unknown as JsonObject },
      });
      // The row moved meanwhile: the parked unit runs again at once and looks afresh.
      if (!written) {
        await tx.work.reschedule(item, now, item.payload);
        return true;
      }
      const reason = `${op.toUpperCase()} paused until Hook ${hook} is cleared`;
      await tx.events.append([resourceEvent(row, row.action, row.status, reason, now)]);
    }
    await tx.work.reschedule(item, now + HOOK_SAFETY_MS, item.payload, hookWaitKey(row.id));
    return true;
  });
  return true;
}

/**
 * Clears a breakpoint a resource waits at (Heat's signal with `unset_hook`), in the caller's
 * transaction: records Heat's event and wakes the parked node. Refused as Heat refuses it: an
 * unknown hook type, or a hook the resource is not waiting at.
 */
export async function clearHook(tx: Tx, row: ResourceRecord, hook: unknown, now: number): Promise<void> {
  if (typeof hook !== 'string' || !(HOOK_TYPES as readonly string[]).includes(hook)) {
    throw new OperationError(
      `Invalid hook type "${String(hook)}" for ${row.name}; acceptable hook types are: ${HOOK_TYPES.join(', ')}`,
      'invalid',
    );
  }
  const bp = breakpointOf(row);
  if (!bp || bp.hook !== hook || bp.state !== 'waiting') {
    throw new OperationError(`The "${hook}" hook is not defined on ${row.name}`, 'invalid');
  }
  const cleared: Breakpoint = { ...bp, state: 'cleared' };
  const written = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
    data: { ...row.data, [BREAKPOINT_KEY]: cleared as unknown as JsonObject },
  });
  if (!written) throw new OperationError(`resource "${row.name}" changed meanwhile; try again`, 'conflict');
  await tx.events.append([resourceEvent(row, row.action, row.status, `Hook ${hook} is cleared`, now)]);
  await tx.work.wakeWaiting(hookWaitKey(row.id), now);
}

/** The hook a resource waits at now, if any (for `stack hook poll`). */
export function pendingHook(row: ResourceRecord): Hook | undefined {
  const bp = breakpointOf(row);
  return bp?.state === 'waiting' ? bp.hook : undefined;
}
