import { randomUUID } from 'node:crypto';
import type { ResourcePlugin } from '../resources/contract.js';
import { isNestedPlugin } from '../resources/nested-type.js';
import { childEnvironment, type Environment } from '../template/environment/index.js';
import { containsUnknown, type Node, type Value } from '../template/functions/types.js';
import type { DefinedResource, StackDefinition } from '../template/stack-definition.js';
import type { JsonObject } from '../util/json.js';
import { childTemplateRecord, generatedChildSpec } from './child-stack.js';
import type { EngineDeps } from './deps.js';
import type { NodeOutput } from './nodes.js';
import { bindTemplate } from './templates.js';

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
 * generated and bound as nested.ts does at run time; undefined when the type is not one, or the
 * properties or update policy are not all known before the operation (they use a value only the
 * operation produces), so the child cannot be told yet.
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
  if (!isNestedPlugin(plugin) || containsUnknown(properties)) return undefined;
  const updatePolicy = resolveSnippet(resource.definition.updatePolicy, known);
  if (containsUnknown(updatePolicy)) return undefined;
  const name = resource.definition.name;
  const child = plugin.nested.child(properties as Record<string, Value>, existing.data, {
    updatePolicy,
    creating: existing.childId === undefined,
  });
  const parent = {
    url: level.definition.url,
    files: { ...level.definition.files },
    filesDigest: '',
    environment: level.environment,
  };
  const spec = generatedChildSpec(
    parent,
    name,
    resource.implementation.type,
    child,
    properties as JsonObject,
  );
  const record = childTemplateRecord(randomUUID(), spec, deps.clock.now());
  const identity = {
    stackId: existing.childId ?? randomUUID(),
    stackName: `${level.stackName}-${name}`,
    projectId: level.projectId,
  };
  return bindTemplate(record, identity, deps.plugins.typeCatalog, deps.settings.limits);
}
