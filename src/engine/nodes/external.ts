import type { RealityState, ResourcePlugin } from '../../resources/contract.js';
import { isNestedPlugin } from '../../resources/nested-type.js';
import type { ResourceRecord } from '../../store/contract.js';
import { isTemplateError, TemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import type { DefinedResource, StackDefinition } from '../../template/stack-definition.js';
import { isPlainObject } from '../../util/json.js';
import { managedByAnotherProject } from '../context/adopt-ownership.js';
import { resourceEvent } from '../core/events.js';
import { failNode } from './failure.js';
import { heatFailureText, resourceFailureText } from '../core/failure-text.js';
import { lockState } from './locks.js';
import { type NodeScope, type Operation, outputsOf, pluginContext } from '../context/node-work.js';
import { NodeResolveContext } from '../context/resolver.js';
import { ACTION_OF, makeReplacement, recordDone, startChanges } from './record.js';
import { retryLater, waitForLock } from '../context/node-work.js';

/*
 * External resources (HOT `external_id`, Heat's "adopt" of an existing object): the engine never
 * creates, updates or deletes the physical object. Creating one checks that it exists (the
 * plugin's getReality) and records it with the external id as its physical id; its attributes are
 * then read as usual. The row keeps the id in its data, so every later node (a cleanup of a row
 * whose template is gone, a failed create) knows the object is not the stack's to delete.
 */

/** Row data key: the external id the row was adopted with. */
export const EXTERNAL_KEY = 'external_id';

/** The external id a row was adopted with; undefined for a resource the stack made. */
export function externalIdOf(row: Pick<ResourceRecord, 'data'>): string | undefined {
  const id = row.data[EXTERNAL_KEY];
  return typeof id === 'string' ? id : undefined;
}

/** Whether the row or its definition is external (the update node then takes this path). */
export function isExternal(row: Pick<ResourceRecord, 'data'>, resource: DefinedResource): boolean {
  return resource.definition.externalId !== undefined || externalIdOf(row) !== undefined;
}

/**
 * The external id the definition names (from parameters only: validation refused references to
 * resources); undefined when it names none. Throws TemplateError when it is not a string.
 */
export function desiredExternalId(
  definition: StackDefinition,
  resource: DefinedResource,
): string | undefined {
  const node = resource.definition.externalId;
  if (node === undefined) return undefined;
  const id = typeof node === 'string' ? node : new NodeResolveContext(definition, new Map()).resolve(node);
  if (typeof id !== 'string' || id === '') {
    const path = [...resource.definition.path, 'external_id'];
    throw new TemplateError(
      'schema',
      `Resource ${resource.definition.name} external_id type must be string`,
      path,
    );
  }
  return id;
}

/** Whether a settled row is the external object its definition names (an update leaves it alone). */
export function sameExternal(
  definition: StackDefinition,
  resource: DefinedResource,
  row: Pick<ResourceRecord, 'data'>,
): boolean {
  try {
    const wanted = desiredExternalId(definition, resource);
    return wanted !== undefined && wanted === externalIdOf(row);
  } catch (err) {
    if (isTemplateError(err)) return false;
    throw err;
  }
}

/** Resolves what it can without inputs: an external resource depends on nothing. */
class NoInputsContext extends NodeResolveContext {
  override resourceRef(): Value {
    return null;
  }
  override resourceAttr(): Value {
    return null;
  }
}

/**
 * An external resource's properties as written (not validated, no defaults: Heat ignores them),
 * for the row and for attributes that a type computes from them; {} when they cannot be resolved.
 */
function externalProperties(definition: StackDefinition, resource: DefinedResource): Record<string, Value> {
  try {
    const raw = new NoInputsContext(definition, new Map()).resolve(resource.definition.properties);
    return isPlainObject(raw) ? (raw as Record<string, Value>) : {};
  } catch (err) {
    if (isTemplateError(err)) return {};
    throw err;
  }
}

/**
 * An update node whose resource is external (in its definition or in its row), as Heat's
 * Resource.create / update do it: a new resource is adopted; a change of external_id (added,
 * changed or removed) is refused; anything else changes nothing physical.
 */
export async function runExternalUpdate(
  scope: NodeScope,
  definition: StackDefinition,
  resource: DefinedResource,
  row: ResourceRecord,
): Promise<void> {
  const type = resource.implementation.type;
  const plugin = resource.implementation.kind === 'plugin' ? scope.deps.plugins.plugin(type) : undefined;
  if (!plugin || isNestedPlugin(plugin)) {
    return failNode(scope, row, `a resource of type "${type}" cannot be an external resource`);
  }
  let wanted: string | undefined;
  try {
    wanted = desiredExternalId(definition, resource);
  } catch (err) {
    if (isTemplateError(err)) return failNode(scope, row, resourceFailureText(err, row.name));
    throw err;
  }
  const lock = await lockState(scope, row);
  if (lock === 'busy') return waitForLock(scope);
  const properties = externalProperties(definition, resource);
  if (row.action === 'INIT' && wanted !== undefined)
    return adopt(scope, plugin, row, wanted, 'create', properties, row.engineId);

  if (externalIdOf(row) !== wanted) {
    const reason = heatFailureText(
      'NotSupported',
      ['resources', row.name],
      `Update to property external_id of ${row.name} (${row.type}) is not supported.`,
    );
    return failNode(scope, row, reason, 'UPDATE');
  }
  if (lock !== 'free' && row.status === 'IN_PROGRESS') {
    // This unit's own adoption, or an abandoned one: look again (it only reads) under our lock.
    const started = (row.progress as { op?: string } | null)?.op ?? row.action.toLowerCase();
    const op = started === 'create' ? 'create' : 'update';
    const mine = await scope.deps.store.tx((tx) =>
      tx.resources.update(row.id, row.atomicKey, row.engineId, { engineId: scope.holder }),
    );
    if (!mine) return retryLater(scope);
    return confirm(scope, plugin, mine, op, properties);
  }
  if (row.type !== type || row.action === 'DELETE') {
    // A new type (or a row whose cleanup ran) gets a new row, as any resource would.
    const replacement = await makeReplacement(scope, row, type);
    if (!replacement) return retryLater(scope);
    return adopt(scope, plugin, replacement, wanted!, 'create', properties, null);
  }
  if (row.status === 'FAILED' || row.unhealthy) {
    // Heat marks such a row COMPLETE unchecked; looking again is as cheap, and honest.
    const op = row.action === 'CREATE' ? 'create' : 'update';
    return adopt(scope, plugin, row, wanted!, op, properties, row.engineId);
  }
  // The same object: nothing to do (Heat skips the update), its attributes read afresh.
  return finish(scope, plugin, row, undefined, properties, row.engineId);
}

/** Locks the row for adopting `id` (its physical id from now on), then checks the object exists. */
async function adopt(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  id: string,
  op: Operation,
  properties: Record<string, Value>,
  holder: string | null,
): Promise<void> {
  if (await managedByAnotherProject(scope.deps, scope.stack.projectId, id)) {
    // Worded as a missing object: another project's resources are not even confirmed to exist.
    return failNode(scope, row, externalNotFound(row.name, id, row.type));
  }
  const now = scope.deps.clock.now();
  const locked = await scope.deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, holder, {
      ...startChanges(scope, op, properties),
      physicalId: id,
      data: { ...row.data, [EXTERNAL_KEY]: id },
    });
    if (next)
      await tx.events.append([resourceEvent(next, ACTION_OF[op], 'IN_PROGRESS', 'state changed', now)]);
    return next;
  });
  if (!locked) return retryLater(scope);
  return confirm(scope, plugin, locked, op, properties);
}

/** Heat's InvalidExternalResource, as a resource's reason. */
const externalNotFound = (name: string, id: string | null, type: string) =>
  heatFailureText('InvalidExternalResource', ['resources', name], notFound(id, type));

const notFound = (id: string | null, type: string) =>
  `Invalid external resource: Resource ${id} (${type}) can not be found.`;

/**
 * The adopted object must exist (Heat's validate_external): present → COMPLETE, gone → FAILED.
 * As Heat's create of an external resource, the type's adopt runs first (the test cloud's
 * TestResource, which has no API to look in, takes any id, as Heat's does).
 */
async function confirm(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
): Promise<void> {
  let reality: RealityState;
  try {
    const ctx = pluginContext(scope, row);
    await plugin.adopt?.(ctx, properties);
    reality = await plugin.getReality(ctx);
  } catch (err) {
    return failNode(scope, row, resourceFailureText(err, row.name));
  }
  if (reality.state === 'gone') {
    return failNode(scope, row, externalNotFound(row.name, row.physicalId, row.type));
  }
  return finish(scope, plugin, row, op, properties, scope.holder);
}

/** Records the row (and `op` done, if any) with attributes read through its type. */
async function finish(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation | undefined,
  properties: Record<string, Value>,
  holder: string | null,
): Promise<void> {
  const outputs = await outputsOf(plugin, pluginContext(scope, row), properties);
  return recordDone(scope, row, properties, holder, outputs, op, op ? { unhealthy: false } : {});
}
