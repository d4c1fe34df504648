import { isPlainObject, type JsonObject } from '../util/json.js';
import { validateOutputParameter } from './parameters/index.js';
import type { StackDefinition } from './stack-definition.js';
import { shownDescription } from './template.js';

export interface ValidateResultOptions {
  /**
   * The parameters given a value (the environment's `parameters`): only theirs is shown, as
   * Heat shows a parameter's user value, not its default.
   */
  supplied?: Iterable<string>;
  /**
   * Also describe the parameters of the nested stacks of template resources, as Heat's
   * `show_nested` does (NestedParameters, by resource name, recursively).
   */
  nested?: boolean;
}

/**
 * What Heat's validate answers for a bound template (heat.engine.service.validate_template):
 * Description, Parameters as format_validate_parameter shows them, ParameterGroups when the
 * template has any, and NestedParameters when asked. Hidden parameters' values are masked.
 */
export function validateResult(stack: StackDefinition, options: ValidateResultOptions = {}): JsonObject {
  const result: JsonObject = {
    Description: shownDescription(stack.template),
    Parameters: parametersOf(stack, new Set(options.supplied)),
  };
  if (stack.template.parameterGroups.length > 0) result.ParameterGroups = groupsOf(stack);
  if (options.nested) Object.assign(result, nestedParameters(stack));
  return result;
}

function parametersOf(stack: StackDefinition, supplied: ReadonlySet<string>): JsonObject {
  const out: JsonObject = {};
  for (const [name, schema] of stack.template.parameters) {
    out[name] = validateOutputParameter(schema, supplied.has(name) ? stack.parameters.get(name) : undefined);
  }
  return out;
}

/** The properties a template resource names, which give its nested template's parameters values. */
function givenProperties(properties: unknown): string[] {
  return isPlainObject(properties) ? Object.keys(properties) : [];
}

function groupsOf(stack: StackDefinition): JsonObject[] {
  return stack.template.parameterGroups.map((g) => ({ ...g, parameters: [...g.parameters] }));
}

/**
 * Heat's Stack.get_nested_parameters: for each template resource, its type, the nested
 * template's description and parameters (with the values the parent's properties give them).
 * Types implemented by a plugin that makes its own child stack (ResourceGroup ...) have no
 * nested template before they run, and are not described.
 */
function nestedParameters(stack: StackDefinition): JsonObject {
  const nested: JsonObject = {};
  for (const [name, resource] of stack.resources) {
    const impl = resource.implementation;
    if (impl.kind !== 'template') continue;
    const child = impl.stack;
    const entry: JsonObject = {
      Type: resource.definition.type,
      Description: shownDescription(child.template),
      Parameters: parametersOf(child, new Set(givenProperties(resource.definition.properties))),
    };
    if (child.template.parameterGroups.length > 0) entry.ParameterGroups = groupsOf(child);
    Object.assign(entry, nestedParameters(child));
    nested[name] = entry;
  }
  return Object.keys(nested).length > 0 ? { NestedParameters: nested } : {};
}
