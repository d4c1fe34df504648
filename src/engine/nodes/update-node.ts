import {
  type ActionResult,
  type PollResult,
  ResourceFailure,
  type ResourcePlugin,
  UpdateReplace,
} from '../../resources/contract.js';
import { OpenStackError } from '../../openstack/index.js';
import { ClaimLostError, type ResourceRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import { diffProperties } from '../../template/properties/index.js';
import { decide } from '../context/update-decision.js';
import { type Json, type JsonObject, jsonEqual } from '../../util/json.js';
import { resourceEvent } from '../core/events.js';
import { convergeRefusal, liveBasis } from './converge.js';
import { adopting, runAdoptUpdate } from './adopt-node.js';
import { isExternal, runExternalUpdate } from './external.js';
import { failNode } from './failure.js';
import { resourceFailureText } from '../core/failure-text.js';
import { stopAtHook } from '../context/hooks.js';
import { lockState } from './locks.js';
import {
  definitionFor,
  drop,
  failureOutputs,
  inputsOf,
  type NodePayload,
  type NodeScope,
  type Operation,
  outputsOf,
  pluginContext,
  pollDelay,
  requiresWhileRunning,
  retryLater,
  waitForLock,
} from '../context/node-work.js';
import { runNestedUpdate } from './nested/nested.js';
import { needsRestore, prepareForReplace, restorePrevious } from './replace-hooks.js';
import { isNestedPlugin } from '../../resources/nested-type.js';
import { parseNodeKey } from '../core/nodes.js';
import { signalWaitKey } from '../context/peers.js';
import { resolveProperties } from '../context/resolver.js';
import {
  continueRetryDelete,
  deletingForRetry,
  mayRetry,
  retryCreate,
  retryReason,
  stepCreateRetry,
} from './retry.js';
import { startChanges, ACTION_OF, resultChanges, steal, recordDone, makeReplacement } from './record.js';

/**
 * One step of an update node: bring resource row N to the traversal's definition. The first step
 * decides (create, update in place, replace, or nothing), takes the resource's lock and starts the
 * plugin's operation; later steps poll it. Each step is idempotent: a step that runs twice after
 * a crash finds the lock already its own (or abandoned) and the physical resource by its key.
 */
export async function runUpdateNode(scope: NodeScope, payload: NodePayload): Promise<void> {
  const { deps, item } = scope;
  const nodeRow = parseNodeKey(item.node).rowId;
  if (payload.phase === 'poll')
    return poll(scope, payload.op, payload.row, payload.attempt, payload.reassess);
  let retryRow: number | undefined;
  if (payload.phase === 'retry') {
    const step = await stepCreateRetry(scope, payload);
    if (step === 'done') return;
    if (step === 'create') retryRow = payload.row;
  }
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);

  let row = await followReplacements(scope, nodeRow);
  const definition = row && (await definitionFor(scope, scope.traversal?.templateId ?? null, [row.name]));
  if (!definition || !row) return drop(scope);
  const resource = definition.resources.get(row.name);
  if (resource && isExternal(row, resource)) return runExternalUpdate(scope, definition, resource, row);
  if (resource && adopting(scope, row)) return runAdoptUpdate(scope, definition, resource, row);
  if (
    resource?.implementation.kind === 'template' ||
    isNestedPlugin(deps.plugins.plugin(resource?.implementation.type ?? ''))
  ) {
    return runNestedUpdate(scope, definition, resource!, row);
  }
  if (!resource || resource.implementation.kind !== 'plugin') {
    return failNode(scope, row, `resource type of "${row.name}" cannot be converged here`);
  }
  const plugin = deps.plugins.plugin(resource.implementation.type);
  if (!plugin) return failNode(scope, row, `unknown resource type "${resource.implementation.type}"`);

  let properties: Record<string, Value>;
  try {
    properties = resolveProperties(definition, resource, plugin, inputsOf(scope.point));
  } catch (err) {
    if (err instanceof TemplateError) return failNode(scope, row, resourceFailureText(err, row.name));
    throw err;
  }

  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  if (lock !== 'free' && row.status === 'IN_PROGRESS') {
    if (deletingForRetry(row)) return continueRetryDelete(scope, row);
    // This unit's own earlier attempt, or an abandoned operation: finish it first, with the
    // properties it was started with (a retried create finds its object by key and must record
    // what that object really has); if the definition moved on meanwhile, decide again afterwards.
    const op = row.action === 'CREATE' ? 'create' : row.action === 'UPDATE' ? 'update' : undefined;
    const started = row.progress as {
      properties?: Record<string, Value>;
      previous?: Record<string, Value>;
    } | null;
    if (op) {
      const original = started?.properties ?? properties;
      const reassess = !jsonEqual(original, properties);
      // A resumed retry announces itself as the retry it is.
      const retry = op === 'create' && row.createRetries > 0 ? row.createRetries : undefined;
      const previous = started?.previous;
      return start(scope, plugin, row, op, original, row.engineId, { reassess, retry, previous });
    }
  }
  // A create being retried (retry.ts) is made again on its row, not replaced as a failed row would be.
  if (retryRow === row.id && lock === 'free')
    return start(scope, plugin, row, 'create', properties, null, { retry: row.createRetries + 1 });

  // The row was readied for a replacement that was given up (a rollback): undone before all else.
  if (needsRestore(row, scope.item.traversalId)) {
    const restored = await restorePrevious(scope, plugin, row);
    if (!restored) return;
    row = restored;
  }

  // A converge update decides from the live state (converge.ts).
  const live = await liveBasis(scope, plugin, row);
  const decision =
    live.kind === 'gone' || live.kind === 'broken'
      ? 'replace'
      : decide(
          plugin,
          row,
          resource.implementation.type,
          properties,
          live.kind === 'present' ? live.previous : undefined,
          scope.traversal?.templateId,
        );
  if (decision === 'none') return finish(scope, plugin, row, properties, row.engineId);
  const refused = await convergeRefusal(scope, row, live, decision);
  if (refused) return failNode(scope, row, refused);
  // A breakpoint (hooks.ts): a replacement stops where an update would.
  if (await stopAtHook(scope, row, decision === 'create' ? 'create' : 'update')) return;
  const reason = live.kind === 'stored' ? undefined : (live.reason ?? undefined);
  if (decision === 'replace') return replace(scope, plugin, row, properties, reason);
  const previous = live.kind === 'present' && live.reason !== null ? live.previous : undefined;
  return start(scope, plugin, row, decision, properties, row.engineId, { previous, reason });
}

/**
 * The row that carries the node's resource now: the node's own row, or its replacement if one was
 * made (a step that replaced, then crashed, continues with the replacement instead of making another).
 */
async function followReplacements(scope: NodeScope, rowId: number): Promise<ResourceRecord | undefined> {
  return scope.deps.store.tx(async (tx) => {
    let row = await tx.resources.get(rowId);
    for (let hops = 0; row && row.replacedBy !== null && hops < 10; hops++) {
      const next = await tx.resources.get(row.replacedBy);
      if (!next || next.action === 'DELETE') break;
      row = next;
    }
    return row;
  });
}

/**
 * Takes the lock and starts the plugin operation on `row`. `retry`: this create is that retry of
 * a failed one (its count is written with the lock, and so is its new idempotency key).
 */
async function start(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
  holder: string | null,
  {
    reassess = false,
    retry,
    previous,
    reason,
  }: {
    reassess?: boolean;
    retry?: number;
    /** A converge's live properties, the old ones the update works from. */
    previous?: Record<string, Value>;
    /** Why the operation runs, for its event (a converge's finding). */
    reason?: string;
  } = {},
): Promise<void> {
  const { deps } = scope;
  const now = deps.clock.now();
  const locked = await deps.store.tx(async (tx) => {
    // Fenced like an outcome: a unit whose claim is gone (its item moved on, e.g. after a commit
    // whose answer a database restart lost) must not restart the operation under the new owner.
    if ((await tx.work.renewClaims([scope.item], now + deps.settings.workLeaseMs)) === 0)
      throw new ClaimLostError(scope.item.id);
    const changes = {
      ...startChanges(scope, op, properties, previous),
      requires: requiresWhileRunning(scope, row),
    };
    if (reason) changes.reason = reason;
    if (retry !== undefined) {
      changes.createRetries = retry;
      changes.reason = retryReason(deps, ACTION_OF[op], retry);
    }
    const next = await tx.resources.update(row.id, row.atomicKey, holder, changes);
    if (next) await tx.events.append([resourceEvent(next, ACTION_OF[op], 'IN_PROGRESS', next.reason, now)]);
    return next;
  });
  if (!locked) return retryLater(scope);

  let result: ActionResult;
  try {
    result = await runAction(scope, plugin, locked, op, properties);
  } catch (err) {
    return actionFailed(scope, plugin, locked, op, properties, err);
  }
  await afterAction(scope, plugin, locked, op, properties, result, 0, reassess);
}

/**
 * The plugin's action on `locked` (locked by this unit) threw: a plugin's UpdateReplace makes a
 * replacement instead; anything else fails the resource.
 */
export async function actionFailed(
  scope: NodeScope,
  plugin: ResourcePlugin,
  locked: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
  err: unknown,
): Promise<void> {
  if (err instanceof UpdateReplace && op === 'update') {
    const released = await scope.deps.store.tx((tx) =>
      tx.resources.update(locked.id, locked.atomicKey, scope.holder, {
        engineId: null,
        action: 'UPDATE',
        status: 'COMPLETE',
      }),
    );
    if (!released) return retryLater(scope);
    return replace(scope, plugin, released, properties);
  }
  return operationFailed(scope, plugin, locked, op, properties, err);
}

/** A create or update failed: a create that may be retried is (retry.ts); otherwise the resource fails. */
async function operationFailed(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
  err: unknown,
): Promise<void> {
  const reason = resourceFailureText(err, row.name);
  if (op === 'create' && mayRetry(scope, err, row.createRetries)) return retryCreate(scope, row, reason);
  const learned = await failureOutputs(scope, plugin, row, properties, err);
  return failNode(scope, row, reason, undefined, undefined, learned);
}

/** Calls the plugin's create or update of `row` (an update without a handler only stores). */
export async function runAction(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
): Promise<ActionResult> {
  const ctx = pluginContext(scope, row);
  if (op === 'create') return plugin.create(ctx, properties);
  if (!plugin.update) return {};
  const live = (row.progress as { previous?: Record<string, Value> } | null)?.previous;
  const previous = live ?? ((row.properties ?? {}) as Record<string, Value>);
  const changed = diffProperties(plugin.properties, previous, properties).changed;
  return plugin.update(ctx, properties, previous, changed);
}

/** Records what an action or poll returned: continue polling, or finish. */
export async function afterAction(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
  result: ActionResult | PollResult,
  attempt: number,
  reassess = false,
): Promise<void> {
  const { deps, item } = scope;
  const changes = resultChanges(row, result);
  const pending = 'done' in result ? !result.done : result.progress !== undefined;
  if (!pending) {
    const merged = { ...row, ...changes };
    return finish(scope, plugin, merged, properties, scope.holder, op, reassess);
  }
  // A poll that reports no new progress keeps the plugin's state (not the wrapper it is saved in).
  const progress =
    'progress' in result && result.progress !== undefined
      ? result.progress
      : (row.progress as { state?: Json } | null)?.state;
  // Waiting for another resource's signals: parked until one is handled, pollAfterMs at the latest.
  const wakeOn = result.wakeOnSignalTo;
  const delay =
    wakeOn === undefined
      ? pollDelay(result.pollAfterMs, attempt)
      : Math.max(0, result.pollAfterMs ?? pollDelay(undefined, attempt));
  // The properties to apply travel with the row (storedProperties stay the previous ones until done).
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, scope.holder, {
      ...changes,
      progress: {
        ...(row.progress as JsonObject | null),
        op,
        state: progress ?? null,
        properties: properties as JsonObject,
      },
    });
    if (!next) return false;
    const payload = {
      phase: 'poll' as const,
      op,
      row: row.id,
      attempt: attempt + 1,
      ...(reassess ? { reassess: true } : {}),
    };
    const key = wakeOn === undefined ? undefined : signalWaitKey(scope.stack.id, wakeOn);
    await tx.work.reschedule(item, deps.clock.now() + delay, payload, key);
    return true;
  });
  if (!saved) return retryLater(scope);
}

async function poll(
  scope: NodeScope,
  op: Operation,
  rowId: number,
  attempt: number,
  reassess = false,
): Promise<void> {
  const { deps } = scope;
  const row = await deps.store.tx((tx) => tx.resources.get(rowId));
  if (!row || row.status !== 'IN_PROGRESS') return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return failNode(scope, row, `unknown resource type "${row.type}"`);
  const saved = row.progress as { state?: unknown; properties?: Record<string, Value> } | null;
  const properties = saved?.properties ?? ((row.properties ?? {}) as Record<string, Value>);
  const check = op === 'create' ? plugin.checkCreateComplete : plugin.checkUpdateComplete;
  let result: PollResult = { done: true };
  try {
    if (check) result = await check.call(plugin, pluginContext(scope, row), (saved?.state ?? null) as never);
  } catch (err) {
    return operationFailed(scope, plugin, row, op, properties, err);
  }
  // A lock of this unit's earlier attempt (another engine) or an abandoned one is taken over with
  // the same compare-and-swap as every locked write.
  const mine = row.engineId === scope.holder ? row : await steal(scope, row);
  if (!mine) return retryLater(scope);
  await afterAction(scope, plugin, mine, op, properties, result, attempt, reassess);
}

/**
 * The operation is done (or nothing was needed): store the result, release the lock, and, if this
 * traversal is still current, report to the nodes that need this one.
 */
async function finish(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  properties: Record<string, Value>,
  holder: string | null,
  op?: Operation,
  reassess = false,
): Promise<void> {
  let outputs: Awaited<ReturnType<typeof outputsOf>>;
  try {
    outputs = await outputsOf(plugin, pluginContext(scope, row), properties);
  } catch (err) {
    // The plugin could not read the attributes: refused (a failure, a cloud's 4xx), the resource
    // fails saying why, rather than the unit running again every second for ever; anything else
    // (a cloud out of reach, the store) may pass, and the unit runs again.
    if (!refused(err)) throw err;
    return failNode(scope, row, resourceFailureText(err, row.name), op && ACTION_OF[op]);
  }
  return recordDone(scope, row, properties, holder, outputs, op, {}, reassess);
}

/** An error no retry can mend: the plugin's own failure, or a cloud's refusal (4xx). */
function refused(err: unknown): boolean {
  if (err instanceof ResourceFailure) return true;
  return err instanceof OpenStackError && err.status !== undefined && err.status >= 400 && err.status < 500;
}

/** Makes a new row for the resource and creates it; the old row is deleted once dependents moved. */
async function replace(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  properties: Record<string, Value>,
  reason?: string,
): Promise<void> {
  // The old resource frees what its replacement needs first (Heat's prepare_for_replace).
  const prepared = await prepareForReplace(scope, plugin, row);
  if (!prepared) return;
  // The replacement is of the type it is created with (the type may be what changed).
  const replacement = await makeReplacement(scope, prepared, plugin.type);
  if (!replacement) return retryLater(scope);
  await start(scope, plugin, replacement, 'create', properties, null, { reason });
}
