import { type Environment, environmentToJSON, isTemplateType } from '../../template/environment/index.js';
import { MASK } from '../../template/parameters/index.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { validateResult } from '../../template/validate-result.js';
import { type JsonObject, setOwn } from '../../util/json.js';

/**
 * `POST /validate`'s body, as Heat 19 answers: validateResult (with NestedParameters when
 * `show_nested`), then the environment the template was validated with. Values the environment
 * gives hidden parameters (of the template or of any nested one) are masked there too.
 */
export function validateBody(
  definition: StackDefinition,
  environment: Environment,
  options: { nested: boolean },
): JsonObject {
  const body = validateResult(definition, { ...options, supplied: Object.keys(environment.parameters) });
  const hidden = hiddenParameters(definition, new Set());
  const mask = (values: Record<string, unknown>): JsonObject =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, hidden.has(name) ? MASK : value]),
    ) as JsonObject;
  const env = environmentToJSON(environment, { encryptedParamNames: false });
  env.parameters = mask(environment.parameters);
  env.parameter_defaults = mask(environment.parameterDefaults);
  addTemplateTypes(env, definition, environment);
  body.Environment = env;
  return body;
}

/**
 * As Heat's registry does when validate meets a resource whose type is a template (a file or URL,
 * as the client rewrote it): the type is registered as mapping to itself, so the environment
 * shown lists it. Only the top stack's resources: nested stacks register in their own environment.
 */
function addTemplateTypes(env: JsonObject, definition: StackDefinition, environment: Environment): void {
  const registry = env.resource_registry as JsonObject;
  const mapped = environment.resourceRegistry.mappings;
  for (const resource of definition.resources.values()) {
    const type = resource.definition.type;
    const impl = resource.implementation;
    if (impl.kind !== 'template' || impl.type !== type || !isTemplateType(type) || mapped.has(type)) continue;
    setOwn(registry, type, type);
  }
}

function hiddenParameters(definition: StackDefinition, into: Set<string>): Set<string> {
  for (const [name, schema] of definition.template.parameters) if (schema.hidden) into.add(name);
  for (const resource of definition.resources.values()) {
    const impl = resource.implementation;
    if (impl.kind === 'template') hiddenParameters(impl.stack, into);
  }
  return into;
}
