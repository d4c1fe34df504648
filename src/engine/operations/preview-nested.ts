import { randomUUID } from 'node:crypto';
import type { ResourcePlugin } from '../../resources/contract.js';
import { isNestedPlugin, type NestedChild } from '../../resources/nested-type.js';
import { childEnvironment, type Environment } from '../../template/environment/index.js';
import { isTemplateError } from '../../template/errors.js';
import { containsUnknown, type Node, UNKNOWN, type Value } from '../../template/functions/types.js';
import {
  type DefinedResource,
  defineStackFromText,
  type StackDefinition,
} from '../../template/stack-definition.js';
import { isPlainObject, type JsonObject, setOwn } from '../../util/json.js';
import { childTemplateRecord, generatedChildSpec } from '../context/child-stack.js';
import type { EngineDeps } from '../core/deps.js';
import type { NodeOutput } from '../core/nodes.js';
import { bindTemplate, environmentFromJSON } from '../core/templates.js';

/** The stack a preview looks at: what a generated child is bound for. */
export interface PreviewLevel {
  definition: StackDefinition;
  environment: Environment;
  projectId: string;
  stackName: string;
}

/** The level of the nested stack that implements `resourceName` (its registry entries narrowed). */
export function childLevel(
  level: PreviewLevel,
  resourceName: string,
  definition: StackDefinition,
): PreviewLevel {
  return {
    definition,
    environment: childEnvironment(level.environment, resourceName, {}),
    projectId: level.projectId,
    stackName: `${level.stackName}-${resourceName}`,
  };
}

/**
 * The child a nested-stack type (ResourceGroup, OS::Heat::Stack) would get from `properties`,
 * generated and bound as nested.ts does at run time; undefined when the type is not one, or a
 * property as a whole or the update policy is not known before the operation (it uses a value only
 * the operation produces), so the child cannot be told yet. For a child not made yet, a value
 * not known deeper down (a member's property referring to another resource) stays unknown in the
 * child: Heat lists a group's members whatever their properties refer to.
 */
export function generatedChild(
  deps: EngineDeps,
  level: PreviewLevel,
  resource: DefinedResource,
  plugin: ResourcePlugin | undefined,
  properties: Value,
  known: ReadonlyMap<string, NodeOutput>,
  existing: { childId: string | undefined; data: Readonly<JsonObject> },
  resolveSnippet: (snippet: Node, known: ReadonlyMap<string, NodeOutput>) => Value,
): StackDefinition | undefined {
  if (!isNestedPlugin(plugin) || !isPlainObject(properties)) return undefined;
  const given = properties as Record<string, Value>;
  if (Object.values(given).some((v) => v === UNKNOWN)) return undefined;
  // A child that exists has its members classified against their rows (update-node's decide),
  // where an unknown value would count as a change: there every value must be known.
  if (existing.childId !== undefined && containsUnknown(properties)) return undefined;
  const updatePolicy = resolveSnippet(resource.definition.updatePolicy, known);
  if (containsUnknown(updatePolicy)) return undefined;
  const name = resource.definition.name;
  const marked = containsUnknown(properties);
  const shown = marked ? (markUnknowns(properties) as Record<string, Value>) : given;
  // A remote template is fetched only when the operation runs: its child is not previewed.
  const remote = plugin.nested.remoteTemplate?.(shown);
  if (remote !== undefined && !Object.hasOwn(level.definition.files, remote)) return undefined;
  // Nor one built from another resource as persisted (a launch configuration): only the run reads it.
  if (plugin.nested.peer?.(shown) !== undefined) return undefined;
  let child = plugin.nested.child(shown, existing.data, {
    updatePolicy,
    creating: existing.childId === undefined,
    files: level.definition.files,
    stackParameters: level.definition.parameters,
  });
  if (marked) {
    const declared = declareMark(child);
    if (!declared) return undefined;
    child = declared;
  }
  const parent = {
    url: level.definition.url,
    files: { ...level.definition.files },
    filesDigest: '',
    environment: level.environment,
  };
  const spec = generatedChildSpec(parent, name, resource.implementation.type, child, shown as JsonObject);
  const record = childTemplateRecord(randomUUID(), spec, deps.clock.now());
  const identity = {
    stackId: existing.childId ?? randomUUID(),
    stackName: `${level.stackName}-${name}`,
    projectId: level.projectId,
  };
  if (!marked) return bindTemplate(record, identity, deps.plugins.typeCatalog, deps.settings.limits);
  try {
    // Not strict: the marker parameter has no value, so what uses it is unknown.
    return defineStackFromText(record.url, record.template, {
      files: record.files,
      environment: environmentFromJSON(record.environment, deps.settings.limits),
      strict: false,
      types: deps.plugins.typeCatalog,
      limits: deps.settings.limits,
      ...identity,
    });
  } catch (err) {
    // An unknown value where the child's shape needs a known one (a member's type).
    if (isTemplateError(err)) return undefined;
    throw err;
  }
}

/** The parameter of a generated child that stands for the values not known before the operation. */
const MARK = 'hearth_preview_unknown';

function markUnknowns(value: Value): Value {
  if (value === UNKNOWN) return { get_param: MARK };
  if (Array.isArray(value)) return value.map(markUnknowns);
  if (isPlainObject(value)) {
    const out: Record<string, Value> = {};
    for (const [k, v] of Object.entries(value as Record<string, Value>)) setOwn(out, k, markUnknowns(v));
    return out;
  }
  return value;
}

/**
 * The generated child with the marker parameter declared (no default: unknown when bound not
 * strictly); undefined when the marker went where a template cannot resolve it (the child's
 * parameters) or the template is not the JSON the group types generate.
 */
function declareMark(child: NestedChild): NestedChild | undefined {
  if (JSON.stringify(child.parameters).includes(MARK)) return undefined;
  let template: unknown;
  try {
    template = JSON.parse(child.template);
  } catch {
    return undefined;
  }
  if (!isPlainObject(template)) return undefined;
  const doc = template as JsonObject;
  const parameters = isPlainObject(doc.parameters) ? { ...(doc.parameters as JsonObject) } : {};
  setOwn(parameters, MARK, { type: 'json' });
  return { ...child, template: JSON.stringify({ ...doc, parameters }) };
}
