import type { ActionResult, PollResult, ResourcePlugin } from '../../resources/contract.js';
import { isNestedPlugin } from '../../resources/nested-type.js';
import type { ResourceRecord } from '../../store/contract.js';
import { childStackOf } from '../context/child-stack.js';
import { resourceEvent } from '../core/events.js';
import { externalIdOf } from './external.js';
import { failNode } from './failure.js';
import { resourceFailureText } from '../core/failure-text.js';
import { stopAtHook } from '../context/hooks.js';
import { lockState } from './locks.js';
import {
  definitionFor,
  type NodePayload,
  type NodeScope,
  pluginContext,
  pollSchedule,
} from '../context/node-work.js';
import { runNestedDelete } from './nested/nested.js';
import { parseNodeKey } from '../core/nodes.js';
import { NodeResolveContext } from '../context/resolver.js';
import { mayDeclareDeletionPolicy } from '../../template/deletion-policy.js';
import { backOffDelete, mayRetry, retryReason } from './retry.js';
import { drop, retryLater, waitForLock } from '../context/node-work.js';
import { finishCleanup } from './record.js';

/**
 * One step of a cleanup node: delete resource row N (an obsolete or replaced row, or every row of
 * a stack being deleted), honouring `deletion_policy: Retain`. Deleting what is already gone is
 * success. Like update nodes, the first step locks and starts, later steps poll. A delete that
 * fails retryably starts again after a backoff (retry.ts), its count in the payload.
 */
export async function runCleanupNode(scope: NodeScope, payload: NodePayload): Promise<void> {
  const { deps, item } = scope;
  const rowId = parseNodeKey(item.node).rowId;
  if (payload.phase === 'poll') return poll(scope, rowId, payload.attempt, payload.retries ?? 0);
  if (!scope.current || !scope.point || scope.point.done) return drop(scope);
  const retries = payload.phase === 'start' ? (payload.retries ?? 0) : 0;

  const row = await deps.store.tx((tx) => tx.resources.get(rowId));
  if (!row || (row.action === 'DELETE' && row.status === 'COMPLETE'))
    return finishCleanup(scope, row, undefined);
  const lock = await lockState(scope, row);
  // A template resource: its child stack is deleted (children before parents), unless retained.
  if (childStackOf(row) !== undefined && !(await retained(scope, row)))
    return runNestedDelete(scope, row, lock);
  if (lock === 'busy') return waitForLock(scope);

  const plugin = await pluginToDelete(scope, row);
  if (!plugin) return finishCleanup(scope, row, row.engineId);
  if (await stopAtHook(scope, row, 'delete')) return;
  const now = deps.clock.now();
  const reason = retries > 0 ? retryReason(deps, 'DELETE', retries) : 'state changed';
  const locked = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: 'DELETE',
      status: 'IN_PROGRESS',
      reason,
    });
    if (next) await tx.events.append([resourceEvent(next, 'DELETE', 'IN_PROGRESS', reason, now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  let result: ActionResult;
  try {
    result = await plugin.delete(pluginContext(scope, locked));
  } catch (err) {
    return deleteFailed(scope, locked, err, retries);
  }
  await afterDelete(scope, plugin, locked, result, 0, retries);
}

/**
 * The plugin that deletes the row's physical resource; undefined when only the row goes: never
 * created, a type no longer known, kept on purpose (Retain), or a nested-stack type without a
 * child stack. A create that failed may have made an object before it failed (found by its
 * idempotency key), so only a row no create ever ran for has nothing to delete.
 */
export async function pluginToDelete(
  scope: NodeScope,
  row: ResourceRecord,
): Promise<ResourcePlugin | undefined> {
  const plugin = physicalDeleter(scope.deps.plugins.plugin(row.type), row);
  if (!plugin || (await retained(scope, row))) return undefined;
  return plugin;
}

/**
 * The plugin whose `delete` removes what the row made, if anything outside the row may exist.
 * A nested-stack type's only object is its child stack, deleted through the child (never by the
 * plugin): a row that reaches here has no child (its create failed before the child was made,
 * e.g. the generated template did not validate), so only the row goes. Shared with the legacy walk.
 */
export function physicalDeleter(
  plugin: ResourcePlugin | undefined,
  row: ResourceRecord,
): ResourcePlugin | undefined {
  const neverCreated = row.physicalId === null && row.action === 'INIT';
  if (neverCreated || !plugin || isNestedPlugin(plugin)) return undefined;
  return plugin;
}

/** The delete failed: retried after a backoff if it may be (retry.ts), else the resource fails. */
export function deleteFailed(
  scope: NodeScope,
  row: ResourceRecord,
  err: unknown,
  retries: number,
): Promise<void> {
  const reason = resourceFailureText(err, row.name);
  if (!mayRetry(scope, err, retries)) return failNode(scope, row, reason);
  return backOffDelete(scope, row, reason, { phase: 'start', retries: retries + 1 }, retries + 1);
}

async function poll(scope: NodeScope, rowId: number, attempt: number, retries: number): Promise<void> {
  const { deps } = scope;
  const row = await deps.store.tx((tx) => tx.resources.get(rowId));
  if (!row || row.status !== 'IN_PROGRESS') return drop(scope);
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return finishCleanup(scope, row, row.engineId);
  let result: PollResult = { done: true };
  try {
    if (plugin.checkDeleteComplete)
      result = await plugin.checkDeleteComplete(pluginContext(scope, row), row.progress);
  } catch (err) {
    return deleteFailed(scope, row, err, retries);
  }
  await afterDelete(scope, plugin, row, result, attempt, retries);
}

export async function afterDelete(
  scope: NodeScope,
  _plugin: ResourcePlugin,
  row: ResourceRecord,
  result: ActionResult | PollResult,
  attempt: number,
  retries: number,
): Promise<void> {
  const { deps, item } = scope;
  const pending = 'done' in result ? !result.done : result.progress !== undefined;
  if (!pending) return finishCleanup(scope, row, row.engineId, true);
  const progress = 'progress' in result && result.progress !== undefined ? result.progress : row.progress;
  const { delay, key } = pollSchedule(scope, result, attempt);
  const saved = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      progress: progress ?? null,
    });
    if (!next) return false;
    await tx.work.reschedule(
      item,
      deps.clock.now() + delay,
      {
        phase: 'poll',
        op: 'delete',
        row: row.id,
        attempt: attempt + 1,
        ...(retries > 0 ? { retries } : {}),
      },
      key,
    );
    return true;
  });
  if (!saved) return retryLater(scope);
}

/**
 * Whether the row's definition (in the template it was created from) says Retain, or the row is
 * an external resource's (Heat never deletes those; a failed adoption has no template to ask).
 */
export async function retained(
  scope: Pick<NodeScope, 'deps' | 'cache' | 'stack'>,
  row: ResourceRecord,
): Promise<boolean> {
  if (externalIdOf(row) !== undefined) return true;
  if (!(await mayRetain(scope, row.templateId))) return false;
  const definition = await definitionFor(scope, row.templateId).catch(() => undefined);
  const resource = definition?.resources.get(row.name);
  const policy = resource?.definition.deletionPolicy;
  if (!definition || policy === undefined) return false;
  const value =
    typeof policy === 'string' ? policy : new NodeResolveContext(definition, new Map()).resolve(policy);
  return typeof value === 'string' && value.toLowerCase() === 'retain';
}

/** Templates (immutable) known to give no resource a deletion policy, or to maybe give one. */
const policyScans = new Map<string, boolean>();
const POLICY_SCANS_KEPT = 256;

/**
 * Whether a resource of template `templateId` may be retained: a delete of a big stack asks for
 * every row, and a scan of the text spares binding the whole template to find no policy in it.
 */
async function mayRetain(
  scope: Pick<NodeScope, 'deps' | 'cache' | 'stack'>,
  templateId: string | null,
): Promise<boolean> {
  if (!templateId || scope.cache.peek(templateId, scope.stack.id)) return true;
  let may = policyScans.get(templateId);
  if (may === undefined) {
    const record = await scope.deps.store.read((tx) => tx.templates.get(templateId));
    // No record: definitionFor finds none either (not retained); nothing to remember.
    if (!record) return true;
    may = mayDeclareDeletionPolicy(record.template);
    policyScans.set(templateId, may);
    if (policyScans.size > POLICY_SCANS_KEPT) policyScans.delete(policyScans.keys().next().value!);
  }
  return may;
}
