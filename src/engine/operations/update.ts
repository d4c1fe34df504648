import type { StackRecord, Tx } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import type { EngineDeps } from '../core/deps.js';
import { type DesiredResource, desiredOf } from '../core/plan.js';
import type { TemplateCache } from '../core/templates.js';
import { type BeginOptions, beginTraversal, PartialMiss } from '../core/traversal.js';
import { setObservation } from './observation.js';
import { refuseRestrictedActions, restrictsAnything } from './restricted.js';
import { unchangedFor } from '../nodes/unchanged.js';
import { loadZones } from '../context/zones.js';
import { beginLegacy, notInLegacyMode } from '../legacy/begin.js';
import { migrateOnUpdate } from '../legacy/migrate.js';
import { bind } from './prepare.js';
import { type PartialHook, prepareUpdate } from './prepare.js';
import { partialBind } from './partial-bind.js';
import { getStack } from './queries.js';
import { digestsOf } from '../core/digests.js';
import { encodeDigests } from '../core/digests-form.js';
import { planFromDiff } from './update-diff.js';
import type { UpdateRequest } from '../core/requests.js';

/*
 * The operations that start an UPDATE-like traversal: a user's update, a rollback to the previous
 * template, and a reconverge to the stack's own template (a signal's new capacity, a heal).
 */

export async function updateStack(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
): Promise<StackRecord> {
  // A converge of every resource reads each one's live state: no diff spares any, nor a partial bind.
  const converge = req.converge ?? deps.settings.observeOnUpdate;
  const hook: PartialHook | undefined = converge
    ? undefined
    : (input) =>
        restrictsAnything(input.environment.resourceRegistry.resources)
          ? Promise.resolve(undefined)
          : partialBind(deps, input);
  try {
    return await applyUpdate(deps, cache, stackId, req, hook);
  } catch (err) {
    if (!(err instanceof PartialMiss)) throw err;
    // The stack changed since the partial bind read it: bound whole (the text parsed again).
    return applyUpdate(deps, cache, stackId, req, undefined);
  }
}

async function applyUpdate(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
  hook: PartialHook | undefined,
): Promise<StackRecord> {
  const now = deps.clock.now();
  const prepared = await prepareUpdate(deps, cache, stackId, req, hook);
  const { stack, record, definition } = prepared;
  const refused = await refuseRestrictedActions(deps, prepared, req.disableRollback ?? stack.disableRollback);
  if (refused) return refused;
  const desired = desiredOf(definition);
  // unchangedFor resolves properties, Fn::GetAZs among them (synchronously, in the transaction).
  await loadZones(deps, stack, definition);
  const digests = await digestsOf(definition, record);
  const stackChanges = {
    ...(req.disableRollback !== undefined ? { disableRollback: req.disableRollback } : {}),
    ...(req.timeoutMins !== undefined ? { timeoutMins: req.timeoutMins } : {}),
    ...(req.tags !== undefined ? { tags: req.tags } : {}),
  };
  await deps.store.tx(async (tx) => {
    await tx.templates.insert(record, stack.rootId, encodeDigests(digests));
    // convergence_migrate_on_update: a legacy stack's tree is migrated in this transaction; a
    // legacy stack that stays one is updated by the legacy engine.
    const current = stack.convergence ? stack : await migrateOnUpdate(tx, deps, cache, stack);
    if (!current.convergence) {
      if (req.converge) throw notInLegacyMode(stack, 'converge an update with live state');
      if (req.observe) throw notInLegacyMode(stack, 'observe and heal it');
      return beginLegacy(tx, current, { action: 'UPDATE', templateId: record.id, now, stackChanges });
    }
    // A person's update: the observer's heal bounds start again (heal-policy.ts).
    await tx.heals.clearTree(stack.rootId);
    if (req.observe !== undefined) await setObservation(tx, current, req.observe, now);
    const converge = (req.converge ?? deps.settings.observeOnUpdate) ? { mode: 'all' as const } : null;
    // A converge of every resource reads each one's live state: no diff spares any. A stack
    // migrated from legacy mode just now has rows no convergence traversal wrote.
    const diff =
      converge || !stack.convergence
        ? undefined
        : await planFromDiff(tx, deps, current, definition, digests, prepared.partial);
    await beginTraversal(tx, {
      stack: current,
      action: 'UPDATE',
      templateId: record.id,
      desired,
      unchanged: unchangedFor(deps, definition, desired),
      ...(diff ? { diff } : {}),
      converge,
      now,
      stackChanges,
    });
  });
  return (await getStack(deps, stackId))!;
}

/**
 * Rolls a failed create or update back: a traversal to the template that was current when the
 * failed operation started (none for a create: everything goes).
 */
export async function rollbackStack(deps: EngineDeps, cache: TemplateCache, stackId: string): Promise<void> {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.status !== 'FAILED' || (stack.action !== 'CREATE' && stack.action !== 'UPDATE')) return;
  const target = stack.action === 'UPDATE' ? stack.prevTemplateId : null;
  let desired: DesiredResource[] = [];
  let definition: StackDefinition | undefined;
  if (target) {
    const record = await deps.store.tx((tx) => tx.templates.get(target));
    if (!record) return;
    definition = await bind(deps, cache, record, {
      id: stack.id,
      name: stack.name,
      projectId: stack.projectId,
    });
    desired = desiredOf(definition);
    await loadZones(deps, stack, definition);
  }
  await deps.store.tx((tx) =>
    beginTraversal(tx, {
      stack,
      action: 'ROLLBACK',
      templateId: target,
      desired,
      ...(definition ? { unchanged: unchangedFor(deps, definition, desired) } : {}),
      now: deps.clock.now(),
      reason: `Rolling back: ${stack.reason}`,
    }),
  );
}

/**
 * Starts an UPDATE traversal of a stack to the template it has, in the caller's transaction: what a
 * change of desired state made outside the template needs (a scaling signal's new capacity), or a
 * heal (observer.ts). Like a user's update, it supersedes a running traversal (whose in-flight
 * work finishes).
 */
export async function reconvergeStack(
  tx: Tx,
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  now: number,
  options: Pick<BeginOptions, 'reason' | 'converge' | 'stackChanges'> = {},
): Promise<void> {
  const stack = await tx.stacks.get(stackId);
  if (!stack?.templateId || stack.deletedAt || stack.action === 'DELETE') return;
  if (!stack.convergence) {
    // The legacy engine takes one operation at a time: a running one keeps the stack.
    if (stack.status === 'IN_PROGRESS') return;
    return beginLegacy(tx, stack, {
      action: 'UPDATE',
      templateId: stack.templateId,
      now,
      reason: options.reason,
    });
  }
  const record = await tx.templates.get(stack.templateId);
  if (!record) return;
  const definition = cache.get(record, {
    stackId: stack.id,
    stackName: stack.name,
    projectId: stack.projectId,
  });
  const desired = desiredOf(definition);
  await beginTraversal(tx, {
    stack,
    action: 'UPDATE',
    templateId: stack.templateId,
    desired,
    unchanged: unchangedFor(deps, definition, desired),
    now,
    reason: 'Stack UPDATE started: a resource signal changed its desired state',
    ...options,
  });
}
