import { type ResourcePlugin, UpdateReplace } from '../../resources/contract.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import type { DefinedResource, StackDefinition } from '../../template/stack-definition.js';
import type { JsonObject } from '../../util/json.js';
import type { NodeOutput } from '../core/nodes.js';
import { type Operation, outputsOf, pluginContext } from '../context/node-work.js';
import { physicalDeleter } from '../nodes/cleanup-node.js';
import { resolveProperties } from '../context/resolver.js';
import { decide } from '../context/update-decision.js';
import { makeReplacement } from '../nodes/record.js';
import type { LegacyRun } from './context.js';
import { StackFailed, WalkInterrupted } from './context.js';
import { resourceFailureText, stackFailureText } from '../core/failure-text.js';
import { lockRow, operate, recordDone, recordFailed } from './resource-op.js';

/**
 * A plugin resource in a legacy walk: decide from the stored row (create, update in place,
 * replace, or nothing), run the operation to its end, and hand its outputs to the resources that
 * need them, in memory.
 */
export async function convergeResource(
  run: LegacyRun,
  stack: StackRecord,
  definition: StackDefinition,
  resource: DefinedResource,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  inputs: ReadonlyMap<string, NodeOutput>,
): Promise<NodeOutput> {
  if (resource.definition.externalId !== undefined) {
    await recordFailed(run, row, 'create', 'external_id needs the convergence engine');
    throw new StackFailed(`Resource CREATE failed: ${row.name}: external_id needs the convergence engine`);
  }
  let properties: Record<string, Value>;
  try {
    properties = resolveProperties(definition, resource, plugin, inputs);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    const op = row.action === 'INIT' ? 'create' : 'update';
    const reason = resourceFailureText(err, row.name);
    await recordFailed(run, row, op, reason);
    throw new StackFailed(stackFailureText(op === 'create' ? 'CREATE' : 'UPDATE', reason));
  }
  const type = resource.implementation.type;
  // An operation a dead engine left under way is run again: the plugin finds its object by key.
  const decision =
    row.status === 'IN_PROGRESS' && row.action === 'CREATE'
      ? 'create'
      : row.status === 'IN_PROGRESS' && row.action === 'UPDATE'
        ? 'update'
        : decide(plugin, row, type, properties, undefined, stack.templateId);
  if (decision === 'none') return outputOf(run, stack, plugin, row);
  if (decision === 'replace') return replace(run, stack, plugin, row, type, properties);
  try {
    return await apply(run, stack, plugin, row, decision, properties);
  } catch (err) {
    if (err instanceof UpdateReplace) return replace(run, stack, plugin, row, type, properties);
    throw err;
  }
}

async function replace(
  run: LegacyRun,
  stack: StackRecord,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  type: string,
  properties: Record<string, Value>,
): Promise<NodeOutput> {
  const fresh = await makeReplacement(run, row, type);
  if (!fresh) throw new WalkInterrupted(`resource ${row.name} was changed by another writer`);
  return apply(run, stack, plugin, fresh, 'create', properties);
}

async function apply(
  run: LegacyRun,
  stack: StackRecord,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  op: Operation,
  properties: Record<string, Value>,
): Promise<NodeOutput> {
  // A type that changes nothing outside its row needs no lock first: recording is the write.
  const unlocked = plugin.inRow === true;
  const locked = unlocked ? row : await lockRow(run, row, op, properties);
  const operated = await operate(run, stack, locked, plugin, op, properties);
  const { refId, attributes } = await outputsOf(
    plugin,
    pluginContext({ deps: run.deps, stack }, operated),
    properties,
  );
  const done = await recordDone(
    run,
    operated,
    op,
    {
      properties: properties as JsonObject,
      attributes: attributes as JsonObject,
      templateId: stack.templateId,
    },
    unlocked,
  );
  return { name: done.name, rowId: done.id, refId, attributes };
}

/** What a resource left alone hands on: its cached attributes and reference id. */
function outputOf(
  run: LegacyRun,
  stack: StackRecord,
  plugin: ResourcePlugin,
  row: ResourceRecord,
): NodeOutput {
  const refId = plugin.referenceId
    ? plugin.referenceId(pluginContext({ deps: run.deps, stack }, row))
    : row.physicalId;
  return { name: row.name, rowId: row.id, refId, attributes: row.attributes };
}

/** Deletes a plugin resource's physical object (unless retained) and marks its row deleted. */
export async function deleteResource(
  run: LegacyRun,
  stack: StackRecord,
  plugin: ResourcePlugin | undefined,
  row: ResourceRecord,
  retain: boolean,
): Promise<void> {
  if (row.action === 'DELETE' && row.status === 'COMPLETE') return;
  const deleter = retain ? undefined : physicalDeleter(plugin, row);
  const locked = await lockRow(run, row, 'delete', null);
  const operated = deleter ? await operate(run, stack, locked, deleter, 'delete', {}) : locked;
  await recordDone(run, operated, 'delete', {});
}
