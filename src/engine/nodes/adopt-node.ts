import type { ResourcePlugin } from '../../resources/contract.js';
import { isNestedPlugin } from '../../resources/nested-type.js';
import type { ResourceRecord } from '../../store/contract.js';
import { isTemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import type { DefinedResource, StackDefinition } from '../../template/stack-definition.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import { unreadableAdoptee } from '../context/adopt-ownership.js';
import { resourceEvent } from '../core/events.js';
import { failNode } from './failure.js';
import { adoptFailureText, resourceFailureText } from '../core/failure-text.js';
import { lockState } from './locks.js';
import { runNestedUpdate } from './nested/nested.js';
import { inputsOf, type NodeScope, outputsOf, pluginContext } from '../context/node-work.js';
import { resolveProperties } from '../context/resolver.js';
import { adoptEntryOf } from '../core/rows.js';
import { recordDone, steal } from './record.js';
import { retryLater, waitForLock } from '../context/node-work.js';

/*
 * The update node of an ADOPT traversal (adopt.ts starts it): it takes the physical id and data
 * of its resource's entry in the adopt document instead of calling the type's create.
 */

/** Whether an update node adopts its row: a row not yet made (or being adopted) of an ADOPT traversal. */
export function adopting(scope: NodeScope, row: ResourceRecord): boolean {
  if (scope.traversal?.action !== 'ADOPT') return false;
  return row.action === 'INIT' || (row.action === 'ADOPT' && row.status === 'IN_PROGRESS');
}

/** Why an entry cannot be adopted as a plain resource, in Heat's words; undefined when it can. */
function missingId(entry: JsonObject | undefined): string | undefined {
  if (entry === undefined) return 'Resource ID was not provided (the adopt data has no entry for it)';
  const id = entry.resource_id;
  if (typeof id !== 'string' || id === '') {
    return 'Resource ID was not provided (its entry in the adopt data has no resource_id)';
  }
  return undefined;
}

/** The update node of a resource being adopted. */
export async function runAdoptUpdate(
  scope: NodeScope,
  definition: StackDefinition,
  resource: DefinedResource,
  row: ResourceRecord,
): Promise<void> {
  const impl = resource.implementation;
  const plugin = impl.kind === 'plugin' ? scope.deps.plugins.plugin(impl.type) : undefined;
  // A nested stack adopts its child from its entry (nested.ts).
  if (impl.kind === 'template' || isNestedPlugin(plugin)) {
    return runNestedUpdate(scope, definition, resource, row);
  }
  if (!plugin) return failNode(scope, row, `unknown resource type "${impl.type}"`, 'ADOPT');
  let properties: Record<string, Value>;
  try {
    properties = resolveProperties(definition, resource, plugin, inputsOf(scope.point));
  } catch (err) {
    if (isTemplateError(err)) return failNode(scope, row, resourceFailureText(err, row.name), 'ADOPT');
    throw err;
  }
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  if (row.action === 'INIT') {
    // Proven the stack's own before its id is recorded: a foreign object is never the row's.
    const why = await unreadable(scope, plugin, row);
    if (why !== undefined) return failNode(scope, row, adoptFailureText(why, row.name), 'ADOPT');
  }

  const locked = row.action === 'INIT' ? await take(scope, row, properties) : await resume(scope, row);
  if (typeof locked === 'string') return failNode(scope, row, adoptFailureText(locked, row.name), 'ADOPT');
  if (!locked) return retryLater(scope);
  const ctx = pluginContext(scope, locked);
  try {
    await plugin.adopt?.(ctx, properties);
  } catch (err) {
    return failNode(scope, locked, resourceFailureText(err, locked.name));
  }
  const outputs = await outputsOf(plugin, ctx, properties);
  return recordDone(scope, locked, properties, scope.holder, outputs, 'adopt');
}

/** Why the row's entry names an object the stack cannot read with its own credentials. */
async function unreadable(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
): Promise<string | undefined> {
  const entry = adoptEntryOf(row);
  if (missingId(entry) !== undefined) return undefined; // take() says why
  const data = isPlainObject(entry!.resource_data) ? (entry!.resource_data as JsonObject) : {};
  return unreadableAdoptee(scope, plugin, row, entry!.resource_id as string, data);
}

/**
 * Locks the row for its adoption (ADOPT_IN_PROGRESS), its physical id and data now the entry's
 * (the entry itself leaves the row); a string says why it cannot be adopted.
 */
async function take(
  scope: NodeScope,
  row: ResourceRecord,
  properties: Record<string, Value>,
): Promise<ResourceRecord | string | undefined> {
  const entry = adoptEntryOf(row);
  const why = missingId(entry);
  if (why !== undefined) return why;
  const data = isPlainObject(entry!.resource_data) ? (entry!.resource_data as JsonObject) : {};
  const now = scope.deps.clock.now();
  return scope.deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
      engineId: scope.holder,
      action: 'ADOPT',
      status: 'IN_PROGRESS',
      reason: 'state changed',
      physicalId: entry!.resource_id as string,
      data,
      progress: { op: 'adopt', properties: properties as JsonObject },
      updatedAt: new Date(now).toISOString(),
    });
    if (next) await tx.events.append([resourceEvent(next, 'ADOPT', 'IN_PROGRESS', 'state changed', now)]);
    return next;
  });
}

/** An adoption this unit (or one gone) started: its id and data are recorded; take the lock over. */
async function resume(scope: NodeScope, row: ResourceRecord): Promise<ResourceRecord | undefined> {
  return row.engineId === scope.holder ? row : steal(scope, row);
}
