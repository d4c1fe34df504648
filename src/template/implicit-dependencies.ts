import { isPlainObject } from '../util/json.js';
import { TemplateError } from './errors.js';
import { FnCall, type Node } from './functions/types.js';
import { hasUnknown } from './properties/walk.js';
import type { DependencyGraph } from '../graph/index.js';
import type { DefinedResource } from './stack-definition-types.js';
import type { ImplicitView, ResourceTypeInfo } from './types.js';
import type { ValidationContext } from './validation-context.js';

/**
 * Dependencies a template does not write but a cloud needs: Heat's `add_dependencies`. A floating
 * IP needs the router interface that makes its port's subnet reachable; a server on a network made
 * in the same template needs that network's subnets. Each type states its rules; binding adds the
 * edges. Properties are compared as written, before anything exists: `{get_resource: net}` in one
 * resource and in another name the same object, and two `get_param`s of the same value are equal.
 */

/** The node at `path` below `node`; undefined where the path leaves what is written. */
function nodeAt(node: Node, path: readonly (string | number)[]): Node | undefined {
  let at: Node | undefined = node;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === 'number') at = at[key];
    else if (isPlainObject(at) && typeof key === 'string') at = Object.hasOwn(at, key) ? at[key] : undefined;
    else return undefined;
  }
  return at;
}

export function implicitView(
  name: string,
  type: string,
  properties: Node,
  requires: readonly string[],
  context: ValidationContext,
): ImplicitView {
  return {
    name,
    type,
    requires,
    identity(...path) {
      const node = nodeAt(properties, path);
      if (node === undefined || node === null) return undefined;
      // A CloudFormation `Ref` names a resource when it names no parameter.
      if (
        node instanceof FnCall &&
        typeof node.args === 'string' &&
        (node.name === 'get_resource' || (node.name === 'Ref' && !context.isParameter(node.args)))
      ) {
        return `resource:${node.args}`;
      }
      const value = context.resolve(node);
      return value === null || hasUnknown(value) ? undefined : JSON.stringify(value);
    },
    count(...path) {
      const node = nodeAt(properties, path);
      return Array.isArray(node) ? node.length : 0;
    },
  };
}

/**
 * Adds the edges the types' implicit-dependency rules find (see implicit-dependencies.ts). Only
 * resources of types with rules are visited, each against the resources of the types its rules
 * name; an edge that would make a direct loop is left out, as Heat leaves it out.
 */
export function addImplicitDependencies(
  resources: Map<string, DefinedResource>,
  graph: DependencyGraph<string>,
  context: ValidationContext,
): void {
  const ruled: string[] = [];
  for (const [name, r] of resources) {
    const impl = r.implementation;
    const external = r.definition.externalId !== undefined;
    if (impl.kind === 'plugin' && impl.info.implicitDependencies?.length && !external) ruled.push(name);
  }
  // Most stacks have no ruled type: no index of every resource by type for them.
  if (ruled.length === 0) return;
  const byType = new Map<string, string[]>();
  for (const [name, r] of resources) {
    const names = byType.get(r.implementation.type);
    if (names) names.push(name);
    else byType.set(r.implementation.type, [name]);
  }
  const views = new Map<string, ImplicitView>();
  const view = (name: string): ImplicitView | undefined => {
    const r = resources.get(name);
    if (!r) return undefined;
    let v = views.get(name);
    if (!v) {
      v = implicitView(name, r.implementation.type, r.definition.properties, r.requires, context);
      views.set(name, v);
    }
    return v;
  };
  for (const name of ruled) {
    const r = resources.get(name)!;
    const rules = (r.implementation as { info: ResourceTypeInfo }).info.implicitDependencies!;
    const extra: string[] = [];
    for (const rule of rules) {
      for (const type of rule.on) {
        for (const other of byType.get(type) ?? []) {
          if (other === name || r.requires.includes(other) || extra.includes(other)) continue;
          if (resources.get(other)!.requires.includes(name)) continue;
          if (rule.applies(view(name)!, view(other)!, view)) extra.push(other);
        }
      }
    }
    if (extra.length === 0) continue;
    for (const other of extra) graph.addEdge(name, other);
    resources.set(name, { ...r, requires: [...r.requires, ...extra] });
  }
}

/** Runs the types' checks against the other resources (ResourceTypeInfo.crossCheck). */
export function crossCheckResources(
  resources: Map<string, DefinedResource>,
  context: ValidationContext,
): void {
  const views = new Map<string, ImplicitView>();
  const view = (name: string): ImplicitView | undefined => {
    const r = resources.get(name);
    if (!r) return undefined;
    let v = views.get(name);
    if (!v) {
      v = implicitView(name, r.implementation.type, r.definition.properties, r.requires, context);
      views.set(name, v);
    }
    return v;
  };
  for (const [name, r] of resources) {
    const impl = r.implementation;
    if (impl.kind !== 'plugin' || !impl.info.crossCheck || r.definition.externalId !== undefined) continue;
    const failure = impl.info.crossCheck(view(name)!, view);
    if (failure)
      throw new TemplateError('property', failure.message, [
        ...r.definition.path,
        'properties',
        failure.property,
      ]);
  }
}
