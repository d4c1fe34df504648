import type { StackRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import type { EngineDeps } from '../core/deps.js';
import { currentOutputs } from './outputs.js';
import { NodeResolveContext } from './resolver.js';
import { loadZones } from './zones.js';

/**
 * A resource's metadata as Heat's API shows it: the template's `metadata` snippet resolved against
 * the stack's resources as they are now (their cached reference ids and attributes, no live call);
 * {} when there is none, or when what it refers to cannot be resolved yet.
 */
export async function resourceMetadata(
  deps: EngineDeps,
  definition: StackDefinition,
  stack: StackRecord,
  name: string,
): Promise<JsonObject> {
  const snippet = definition.resources.get(name)?.definition.metadata;
  if (snippet === undefined || snippet === null) return {};
  const rows = await deps.store.tx((tx) => tx.resources.listStates(stack.id));
  await loadZones(deps, stack, definition);
  const context = new NodeResolveContext(definition, currentOutputs(deps, rows, stack.id));
  try {
    const value = context.resolve(snippet);
    return isPlainObject(value) ? (value as JsonObject) : {};
  } catch (err) {
    if (err instanceof TemplateError) return {};
    throw err;
  }
}
