import type { DependencyGraph } from '../graph/index.js';
import type { Json } from '../util/json.js';
import type { ParentFacade } from './facade.js';
import type { Unknown } from './functions/types.js';
import type { OutputDefinition, ResourceDefinition, Template } from './template.js';
import type { ResourceTypeInfo } from './types.js';

/* What binding a template gives: made by stack-definition.ts, read by the engine and the API. */

/** How a resource is implemented: a plugin type, or a nested stack from a template. */
export type Implementation =
  | { kind: 'plugin'; type: string; info: ResourceTypeInfo }
  | { kind: 'unknown'; type: string }
  | { kind: 'template'; type: string; url: string; stack: StackDefinition };

export interface DefinedResource {
  readonly definition: ResourceDefinition;
  readonly implementation: Implementation;
  /** Names of the resources this one depends on (references and depends_on). */
  readonly requires: readonly string[];
}

/**
 * A template bound to an environment and parameter values: conditions evaluated, disabled
 * resources dropped, types resolved (nested templates included, recursively), every snippet
 * resolved once to find errors, and the dependency graph built and checked for cycles.
 */
export interface StackDefinition {
  readonly template: Template;
  readonly url: string;
  /** The files map the template was bound with (get_file contents, nested templates). */
  readonly files: Readonly<Record<string, string>>;
  readonly parameters: ReadonlyMap<string, Json | Unknown>;
  readonly conditions: ReadonlyMap<string, boolean | Unknown>;
  readonly resources: ReadonlyMap<string, DefinedResource>;
  readonly outputs: ReadonlyMap<string, OutputDefinition>;
  readonly graph: DependencyGraph<string>;
  /** Resources in this stack and every nested stack below it. */
  readonly totalResources: number;
  /** The parent resource's facade (`resource_facade`), for a nested stack the engine made. */
  readonly facade?: ParentFacade;
  /**
   * Binding resolved Fn::GetAZs: run-time resolution needs the cloud's availability zones (looked
   * up first, see engine/context/zones.ts). Absent for templates that do not use it.
   */
  readonly usesAvailabilityZones?: true;
  /**
   * A partial bind (engine/operations/partial-bind.ts): only these resources are bound; the
   * others are stubs (name, type, requires) with no snippet. Never what a reader of the whole
   * template gets (core/templates.ts).
   */
  readonly partial?: ReadonlySet<string>;
}
