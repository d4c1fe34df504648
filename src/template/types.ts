import type { DocPath } from './errors.js';
import type { Value } from './functions/types.js';
import type { Json } from '../util/json.js';
import type { ConstraintUse } from './properties/constraint-uses.js';
import type { Environment } from './environment/index.js';
import type { TemplateLimits } from './limits.js';

/**
 * What the template layer needs to know of a resource type to validate a template: its property
 * schema and attribute names. Resource plugins implement it; the template layer never imports them.
 */
export interface ResourceTypeInfo {
  readonly type: string;
  /** Checks resolved properties (which may contain UNKNOWN parts); throws TemplateError('property'). */
  validateProperties(properties: Value, path: DocPath, options?: PropertyCheckOptions): void;
  /**
   * The known values in `properties` that custom constraints named by `wanted` apply to (types
   * with such constraints only): checks that need a cloud run on them after binding.
   */
  constraintUses?(properties: Value, path: DocPath, wanted: (constraint: string) => boolean): ConstraintUse[];
  /** Heat's add_dependencies: edges the cloud needs that the template does not write. */
  readonly implicitDependencies?: readonly ImplicitDependencyRule[];
  /**
   * Checks against the other resources of the template (Heat's Resource.validate reading
   * `stack.resource_by_refid`: a deployment's server must take software config user data). Run
   * where the type's own checks run (a stack's create or update, not template validate). Returns
   * the property the failure is about and its message, or undefined when all is well.
   */
  readonly crossCheck?: (
    self: ImplicitView,
    lookup: (name: string) => ImplicitView | undefined,
  ) => { property: string; message: string } | undefined;
  /** Whether `get_attr` may read this attribute (types with dynamic attributes decide per name). */
  hasAttribute(name: string): boolean;
  /**
   * For a type that caches its attributes in a compact form (a group's per-member maps are derived
   * from its lists): the attribute `name` (all of them when undefined) read from what the resource
   * cached, or undefined when it has no such attribute. Absent, attributes are read as cached.
   */
  readAttribute?(cached: Readonly<Record<string, Json>>, name: string | undefined): Json | undefined;
  /**
   * Attributes holding a secret (an access key's SecretAccessKey): get_attr reads them, but the
   * views of the resource (resource show, the attributes of a resource list) mask them.
   */
  readonly secretAttributes?: readonly string[];
}

/**
 * When properties are checked. Heat's template validate checks property names only
 * (`Properties.validate(with_value=False)`, and no type's own `validate()`); values, required
 * properties and the type's own rules are checked when a stack is created, updated or previewed.
 */
export interface PropertyCheckOptions {
  /** 'create' (the default): names, values and the type's own checks; 'validate': names only. */
  phase?: 'validate' | 'create';
  /** Where the resource is bound, for types that check a template of their own (OS::Heat::Stack). */
  scope?: BindingScope;
}

/** The stack a resource is bound in: its template's URL, files, environment and limits. */
export interface BindingScope {
  readonly url: string;
  readonly files: Readonly<Record<string, string>>;
  readonly environment: Environment | undefined;
  readonly limits: TemplateLimits;
}

/*
 * Implicit dependencies (Heat's add_dependencies): a type's rules, applied by
 * implicit-dependencies.ts when a template is bound.
 */

/** A resource as a rule sees it. */
export interface ImplicitView {
  readonly name: string;
  /** Its type after the resource registry. */
  readonly type: string;
  /** The names it requires explicitly (references and depends_on). */
  readonly requires: readonly string[];
  /**
   * What the property at `path` (`'fixed_ips', 0, 'subnet'`) refers to, comparable across
   * resources: `resource:<name>` for a get_resource, the JSON of a value known at binding, or
   * undefined when absent or not known yet.
   */
  identity(...path: (string | number)[]): string | undefined;
  /** How many items the list property at `path` has (0 when absent or not a list yet). */
  count(...path: (string | number)[]): number;
}

export interface ImplicitDependencyRule {
  /** The types this one may depend on through the rule (after the registry). */
  readonly on: readonly string[];
  /** Whether `self` needs `other` first; `lookup` gives any other resource of the template. */
  applies(
    self: ImplicitView,
    other: ImplicitView,
    lookup: (name: string) => ImplicitView | undefined,
  ): boolean;
}

/** Looks resource types up by name (`OS::Heat::RandomString`). */
export interface TypeCatalog {
  get(type: string): ResourceTypeInfo | undefined;
  /** Every type it knows, for a "did you mean" when a template names another. */
  names?(): Iterable<string>;
}

/** A catalog that knows no type: every plugin type is reported unknown. */
export const EMPTY_CATALOG: TypeCatalog = { get: () => undefined };
