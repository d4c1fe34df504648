import type { Json } from '../../util/json.js';
import type { CatalogPlugin } from '../../resources/catalog.js';
import type { ResourcePlugin } from '../../resources/contract.js';
import { ConditionEvaluator } from '../../template/conditions.js';
import { type DocPath, TemplateError } from '../../template/errors.js';
import { resolveTemplateUrl } from '../../template/environment/index.js';
import { type FacadeSection, facadeSection } from '../../template/facade.js';
import { resolveNode } from '../../template/functions/resolve.js';
import type { Node, ResolveContext, Unknown, Value } from '../../template/functions/types.js';
import type { DefinedResource, StackDefinition } from '../../template/stack-definition.js';
import { validateProperties } from '../../template/properties/index.js';
import { evaluateYaqlAt } from '../../template/functions/yaql.js';
import type { NodeOutput } from '../core/nodes.js';
import { zonesOf } from './zones.js';

/**
 * Resolves one resource's snippets during a traversal. Parameters and conditions come from the
 * (cached) bound template; other resources' ids and attributes come only from this node's sync
 * point inputs — what its dependencies reported — so checking a resource costs O(its own edges).
 */
export class NodeResolveContext implements ResolveContext {
  private readonly conditions: ConditionEvaluator;

  constructor(
    protected readonly definition: StackDefinition,
    private readonly inputs: ReadonlyMap<string, NodeOutput>,
  ) {
    this.conditions = new ConditionEvaluator(definition.template.conditions, () => this);
  }

  resolve(node: Node): Value {
    return resolveNode(node, this);
  }

  isParameter(name: string): boolean {
    return this.definition.parameters.has(name);
  }

  param(name: string, path: DocPath): Value {
    const value = this.definition.parameters.get(name);
    if (value === undefined)
      throw new TemplateError('reference', `the parameter "${name}" is not defined`, path);
    return value as Value;
  }

  resourceRef(name: string, path: DocPath): Value {
    return this.input(name, path).refId;
  }

  resourceAttr(name: string, attr: string | undefined, path: DocPath): Value {
    const { attributes } = this.input(name, path);
    if (attr !== undefined && Object.hasOwn(attributes, attr)) return attributes[attr] as Value;
    const impl = this.definition.resources.get(name)?.implementation;
    const read = impl?.kind === 'plugin' ? impl.info.readAttribute : undefined;
    if (read) return (read(attributes as Record<string, Json>, attr) ?? null) as Value;
    return attr === undefined ? (attributes as Value) : null;
  }

  file(name: string, path: DocPath): string {
    const files = this.definitionFiles();
    if (Object.hasOwn(files, name)) return files[name]!;
    const relative = resolveTemplateUrl(this.definition.url, name);
    if (Object.hasOwn(files, relative)) return files[relative]!;
    throw new TemplateError('reference', `no content found in the files map for get_file "${name}"`, path);
  }

  condition(node: Node, path: DocPath): boolean | Unknown {
    const known = typeof node === 'string' ? this.definition.conditions.get(node) : undefined;
    return known ?? this.conditions.evaluate(node, path);
  }

  facade(section: FacadeSection, path: DocPath): Value {
    return facadeSection(this.definition.facade, section, path);
  }

  yaql(expression: string, data: Value, path: DocPath): Value {
    return evaluateYaqlAt(expression, data, path);
  }

  /** The zones loadZones looked up for this definition (before resolving: resolution is synchronous). */
  availabilityZones(): Value {
    return zonesOf(this.definition);
  }

  private input(name: string, path: DocPath): NodeOutput {
    const output = this.inputs.get(name);
    if (!output) {
      // The graph guarantees every referenced resource reported before this node runs.
      throw new TemplateError('reference', `internal: no input from resource "${name}"`, path);
    }
    return output;
  }

  private definitionFiles(): Readonly<Record<string, string>> {
    return this.definition.files;
  }
}

/**
 * A resource's properties for its plugin: its snippet resolved against its dependencies' outputs,
 * converted and checked by the type's schema (defaults applied). Throws TemplateError.
 */
export function resolveProperties(
  definition: StackDefinition,
  resource: DefinedResource,
  plugin: ResourcePlugin,
  inputs: ReadonlyMap<string, NodeOutput>,
): Record<string, Value> {
  const raw = new NodeResolveContext(definition, inputs).resolve(resource.definition.properties);
  const path = [...resource.definition.path, 'properties'];
  const extras = plugin as CatalogPlugin;
  const properties = extras.anyProperties
    ? ((raw ?? {}) as Record<string, Value>)
    : validateProperties(plugin.properties, raw, path, { strict: true });
  extras.validate?.(properties, path);
  return properties;
}
