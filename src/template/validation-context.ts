import type { Json } from '../util/json.js';
import type { ConditionEvaluator } from './conditions.js';
import { resolveTemplateUrl } from './environment/index.js';
import { type DocPath, TemplateError } from './errors.js';
import { type FacadeSection, facadeSection } from './facade.js';
import { attributeOf } from './functions/references.js';
import { resolveNode } from './functions/resolve.js';
import {
  type FnCall,
  type Node,
  type ResolveContext,
  UNKNOWN,
  type Unknown,
  type Value,
} from './functions/types.js';
import type { ResourceDefinition, Template } from './template.js';
import type { ResourceTypeInfo, TypeCatalog } from './types.js';
import { evaluateYaqlAt } from './functions/yaql.js';

/**
 * Resolves snippets of one template before anything exists: parameters have their values (or are
 * unknown), resources' ids and attributes are unknown, and every reference is checked.
 */
export class ValidationContext implements ResolveContext {
  private conditions: ConditionEvaluator | undefined;
  private scope: ResourceScope = { enabled: new Map(), all: new Set() };
  /** get_attr reads per resource, checked once that resource's type is known. */
  private readonly attributeReads = new Map<string, FnCall[]>();
  /** Fn::GetAZs was resolved: the engine looks the cloud's zones up before resolving at run time. */
  readsAvailabilityZones = false;

  constructor(
    private readonly template: Template,
    private readonly parameters: ReadonlyMap<string, Json | Unknown>,
    private readonly files: Readonly<Record<string, string>>,
    readonly types: TypeCatalog,
    /** No parent resource: nothing for resource_facade to read (Heat refuses it in validation). */
    private readonly topLevel = false,
  ) {}

  bindConditions(conditions: ConditionEvaluator): void {
    this.conditions = conditions;
  }

  bindResources(enabled: ReadonlyMap<string, ResourceDefinition>, all: ReadonlySet<string>): void {
    this.scope = { enabled, all };
  }

  resolve(node: Node): Value {
    return resolveNode(node, this);
  }

  isParameter(name: string): boolean {
    return this.parameters.has(name);
  }

  param(name: string, path: DocPath): Value {
    const value = this.parameters.get(name);
    if (value === undefined) {
      throw new TemplateError('reference', `the parameter "${name}" is not defined in the template`, path);
    }
    return value as Value;
  }

  resourceRef(name: string, path: DocPath): Value {
    checkReference(name, path, this.scope);
    return UNKNOWN;
  }

  resourceAttr(name: string, attr: string | undefined, path: DocPath): Value {
    checkReference(name, path, this.scope);
    void attr;
    return UNKNOWN;
  }

  file(name: string, path: DocPath): string {
    const direct = Object.hasOwn(this.files, name) ? this.files[name] : undefined;
    if (direct !== undefined) return direct;
    const relative = resolveTemplateUrl(this.template.source.file, name);
    const found = Object.hasOwn(this.files, relative) ? this.files[relative] : undefined;
    if (found !== undefined) return found;
    throw new TemplateError('reference', `no content found in the files map for get_file "${name}"`, path);
  }

  condition(node: Node, path: DocPath): boolean | Unknown {
    if (!this.conditions) throw new Error('internal: conditions are not bound');
    return this.conditions.evaluate(node, path);
  }

  facade(section: FacadeSection, path: DocPath): Value {
    return this.topLevel ? facadeSection(undefined, section, path) : UNKNOWN;
  }

  yaql(expression: string, data: Value, path: DocPath): Value {
    return evaluateYaqlAt(expression, data, path);
  }

  availabilityZones(): Value {
    this.readsAvailabilityZones = true;
    return UNKNOWN;
  }

  /** Checks get_attr reads of `resource` against its type's attributes, once the type is known. */
  checkAttributeReads(resource: string, info: ResourceTypeInfo): void {
    for (const call of this.attributeReads.get(resource) ?? []) {
      const attr = attributeOf(call);
      if (attr !== undefined && !info.hasAttribute(attr)) {
        throw new TemplateError(
          'reference',
          `resource "${resource}" (${info.type}) has no attribute "${attr}"`,
          call.path,
        );
      }
    }
  }

  /** Notes a get_attr call, checked by checkAttributeReads once the target's type is known. */
  recordAttributeRead(resource: string, call: FnCall): void {
    const list = this.attributeReads.get(resource);
    if (list) list.push(call);
    else this.attributeReads.set(resource, [call]);
  }
}

/** The resources of one template: those whose condition is not false, and every name. */
export interface ResourceScope {
  readonly enabled: ReadonlyMap<string, ResourceDefinition>;
  readonly all: ReadonlySet<string>;
}

/** A reference to a resource must name an enabled resource of the template. */
export function checkReference(name: string, path: DocPath, scope: ResourceScope): void {
  if (scope.enabled.has(name)) return;
  if (scope.all.has(name)) {
    throw new TemplateError(
      'reference',
      `resource "${name}" is referenced here but its condition is false`,
      path,
    );
  }
  throw new TemplateError(
    'reference',
    `the specified reference "${name}" is not a resource of this template`,
    path,
  );
}
