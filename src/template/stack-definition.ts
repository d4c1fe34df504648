import { DependencyGraph } from '../graph/index.js';
import { type Json, setOwn } from '../util/json.js';
import { runToEnd, type Sliceable } from '../util/loop-slice.js';
import { ConditionEvaluator } from './conditions.js';
import { collectReferences } from './dependencies.js';
import { type Environment, ResourceRegistry, resolveTemplateUrl } from './environment/index.js';
import { type DocPath, TemplateError, unknownResourceType } from './errors.js';
import { type ResolveContext, UNKNOWN, type Unknown, type Value } from './functions/types.js';
import { DEFAULT_LIMITS, type TemplateLimits } from './limits.js';
import { resolveParameterValues } from './parameters/index.js';
import { addImplicitDependencies } from './implicit-dependencies.js';
import { type DeferredConstraints, deferParameterConstraints } from './deferred-constraints.js';
import { parseSource } from './source.js';
export type { DeferredConstraints } from './deferred-constraints.js';
import { type OutputDefinition, parseTemplate, type ResourceDefinition, type Template } from './template.js';
import { EMPTY_CATALOG, type ResourceTypeInfo, type TypeCatalog } from './types.js';
import { ValidationContext } from './validation-context.js';

export interface DefineOptions {
  /** The files map: every file a template, environment or get_file refers to, by URL. */
  files?: Readonly<Record<string, string>>;
  /** The merged environment (parameters, parameter_defaults, resource_registry ...). */
  environment?: Environment;
  /** Missing parameter values are errors (stack create) rather than unknown (validate). */
  strict?: boolean;
  limits?: TemplateLimits;
  types?: TypeCatalog;
  stackName?: string;
  stackId?: string;
  projectId?: string;
  region?: string;
  /**
   * Record resources of unknown types instead of failing (for `template graph`, which needs only
   * the structure). Validation leaves this off.
   */
  allowUnknownTypes?: boolean;
  /**
   * Collects the known values that the custom constraints it wants apply to (parameters and
   * properties, nested templates included), for checks that need a cloud and so cannot run during
   * this synchronous binding.
   */
  deferredConstraints?: DeferredConstraints;
}

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
}

interface Nesting {
  depth: number;
  /** Names of the resources leading to this stack from the root (for registry lookups). */
  path: string[];
  /** Values given to a nested template by its parent's properties. */
  supplied: Record<string, Value> | undefined;
  /** Templates on the current nesting chain, to report recursion. */
  chain: string[];
  counter: { resources: number };
}

/** Loads a root template from text and defines the stack. */
export function defineStackFromText(
  file: string,
  text: string,
  options: DefineOptions = {},
): StackDefinition {
  const limits = options.limits ?? DEFAULT_LIMITS;
  return defineStack(parseTemplate(parseSource(file, text, limits)), options);
}

export function defineStack(template: Template, options: DefineOptions = {}): StackDefinition {
  return runToEnd(defineStackSteps(template, options));
}

/** `defineStack` as work that may pause between resources (util/loop-slice.ts). */
export function defineStackSteps(
  template: Template,
  options: DefineOptions = {},
): Sliceable<StackDefinition> {
  return define(template, options, {
    depth: 0,
    path: [],
    supplied: undefined,
    chain: [template.source.file],
    counter: { resources: 0 },
  });
}

function* define(template: Template, options: DefineOptions, nesting: Nesting): Sliceable<StackDefinition> {
  try {
    return yield* defineUnannotated(template, options, nesting);
  } catch (err) {
    throw template.source.annotate(err);
  }
}

function* defineUnannotated(
  template: Template,
  options: DefineOptions,
  nesting: Nesting,
): Sliceable<StackDefinition> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const env = options.environment;
  const strict = options.strict ?? false;
  // A nested stack's parameters fed by values not known before the parent runs (another
  // resource's attribute) are unknown here; the child stack checks them when it is created.
  const pending = pendingParameters(template, nesting);
  const schemas =
    pending.size === 0
      ? template.parameters
      : new Map([...template.parameters].filter(([name]) => !pending.has(name)));
  const parameters = resolveParameterValues(schemas, suppliedValues(template, env, nesting), {
    strict,
    maxDepth: limits.maxDocumentDepth,
    pseudo: {
      'OS::stack_name': options.stackName ?? UNKNOWN,
      'OS::stack_id': options.stackId ?? UNKNOWN,
      'OS::project_id': options.projectId ?? UNKNOWN,
      'OS::region': options.region ?? UNKNOWN,
    } as Record<string, Json>,
  }) as Map<string, Json | Unknown>;
  for (const name of pending) parameters.set(name, UNKNOWN);
  if (options.deferredConstraints)
    deferParameterConstraints(template, parameters, options.deferredConstraints);

  const resourceNames = new Set(template.resources.keys());
  const context = new ValidationContext(
    template,
    parameters,
    options.files ?? {},
    options.types ?? EMPTY_CATALOG,
  );
  const conditions = new ConditionEvaluator(template.conditions, () => context);
  context.bindConditions(conditions);
  const conditionValues = conditions.all();

  // Drop resources whose condition is known false; unknown ones stay (non-strict validation).
  const enabled = new Map<string, ResourceDefinition>();
  let step = 0;
  for (const [name, def] of template.resources) {
    if (++step % 1024 === 0) yield;
    if (
      def.condition === undefined ||
      conditions.evaluate(def.condition, [...def.path, 'condition']) !== false
    ) {
      enabled.set(name, def);
    }
  }
  context.bindResources(enabled, resourceNames);

  nesting.counter.resources += enabled.size;
  if (nesting.counter.resources > limits.maxResourcesPerStack) {
    throw new TemplateError(
      'limit',
      `the stack has more than ${limits.maxResourcesPerStack} resources (the configured limit)`,
      ['resources'],
    );
  }

  const registry = new ResourceRegistry(env);
  const graph = new DependencyGraph<string>();
  const resources = new Map<string, DefinedResource>();
  for (const [name, def] of enabled) {
    graph.addNode(name);
    const requires =
      def.externalId === undefined
        ? dependenciesOf(def, template, conditions, enabled, resourceNames, context)
        : checkExternal(def, conditions, context);
    for (const required of requires) graph.addEdge(name, required);
    const implementation = implement(def, template, registry, context, options, nesting);
    resources.set(name, { definition: def, implementation, requires });
    yield;
  }
  addImplicitDependencies(resources, graph, context);

  const cycle = graph.findCycle();
  if (cycle) {
    throw new TemplateError('cycle', `circular dependency between resources: ${cycle.join(' -> ')}`, [
      'resources',
      cycle[0]!,
    ]);
  }

  const outputs = new Map<string, OutputDefinition>();
  for (const [name, output] of template.outputs) {
    if (
      output.condition !== undefined &&
      conditions.evaluate(output.condition, [...output.path, 'condition']) === false
    ) {
      continue;
    }
    for (const ref of collectReferences(output.value, conditions)) {
      checkReference(ref.resource, ref.path, enabled, resourceNames, template);
      if (ref.call.name === 'get_attr') context.recordAttributeRead(ref.resource, ref.call);
    }
    context.resolve(output.value);
    outputs.set(name, output);
  }

  // get_attr reads are checked once every type is known (reads may come before their target).
  for (const [name, resource] of resources) {
    const impl = resource.implementation;
    if (impl.kind === 'plugin') context.checkAttributeReads(name, impl.info);
    else if (impl.kind === 'template') context.checkAttributeReads(name, nestedTypeInfo(impl.stack));
    yield;
  }

  return {
    template,
    url: template.source.file,
    files: options.files ?? {},
    parameters,
    conditions: conditionValues,
    resources,
    outputs,
    graph,
    totalResources: nesting.counter.resources,
  };
}

/** Parameter values for this template: env parameters (root only), parameter_defaults, parent properties. */
function suppliedValues(
  template: Template,
  env: Environment | undefined,
  nesting: Nesting,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, value] of Object.entries(env?.parameterDefaults ?? {})) {
    if (template.parameters.has(name)) setOwn(out, name, value);
  }
  const explicit = nesting.supplied ?? env?.parameters ?? {};
  for (const [name, value] of Object.entries(explicit)) {
    if (!mentionsUnknown(value)) setOwn(out, name, value as Json);
  }
  return out;
}

/** Parameters of a nested template whose value from the parent is (partly) unknown. */
function pendingParameters(template: Template, nesting: Nesting): Set<string> {
  const pending = new Set<string>();
  for (const [name, value] of Object.entries(nesting.supplied ?? {})) {
    if (template.parameters.has(name) && mentionsUnknown(value)) pending.add(name);
  }
  return pending;
}

function mentionsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(mentionsUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(mentionsUnknown);
  return false;
}

function dependenciesOf(
  def: ResourceDefinition,
  template: Template,
  conditions: ConditionEvaluator,
  enabled: ReadonlyMap<string, ResourceDefinition>,
  all: ReadonlySet<string>,
  context: ValidationContext,
): string[] {
  const requires = new Set<string>();
  for (const node of [def.properties, def.metadata]) {
    for (const ref of collectReferences(node, conditions)) {
      if (
        ref.call.name === 'Ref' &&
        (template.parameters.has(ref.resource) ||
          ref.resource.startsWith('OS::') ||
          ref.resource.startsWith('AWS::'))
      ) {
        continue;
      }
      checkReference(ref.resource, ref.path, enabled, all, template);
      if (ref.call.name === 'get_attr') context.recordAttributeRead(ref.resource, ref.call);
      requires.add(ref.resource);
    }
  }
  def.dependsOn.forEach((name, i) => {
    const path = def.dependsOn.length === 1 ? [...def.path, 'depends_on'] : [...def.path, 'depends_on', i];
    checkReference(name, path, enabled, all, template);
    requires.add(name);
  });
  if (requires.delete(def.name)) {
    throw new TemplateError(
      'cycle',
      `circular dependency between resources: ${def.name} -> ${def.name}`,
      def.path,
    );
  }
  return [...requires];
}

/**
 * An external resource (`external_id`) names an object that exists already: it depends on no
 * other resource, as in Heat (references in its properties make no edge, `depends_on` is refused),
 * and its id is a string known from parameters alone. Returns its dependencies: none.
 */
function checkExternal(
  def: ResourceDefinition,
  conditions: ConditionEvaluator,
  context: ValidationContext,
): [] {
  const path = [...def.path, 'external_id'];
  for (const ref of collectReferences(def.externalId!, conditions)) {
    throw new TemplateError(
      'reference',
      `the external_id of "${def.name}" may not refer to resource "${ref.resource}": an external resource depends on no other resource`,
      ref.path,
    );
  }
  const id = context.resolve(def.externalId!);
  if (id !== UNKNOWN && (typeof id !== 'string' || id === '')) {
    throw new TemplateError('schema', `Resource ${def.name} external_id type must be string`, path);
  }
  if (def.dependsOn.length > 0) {
    const shown = typeof id === 'string' ? id : '(not known yet)';
    throw new TemplateError('reference', `Invalid dependency with external ${def.type} resource: ${shown}`, [
      ...def.path,
      'depends_on',
    ]);
  }
  return [];
}

function checkReference(
  name: string,
  path: DocPath,
  enabled: ReadonlyMap<string, ResourceDefinition>,
  all: ReadonlySet<string>,
  template: Template,
): void {
  if (enabled.has(name)) return;
  if (all.has(name)) {
    throw new TemplateError(
      'reference',
      `resource "${name}" is referenced here but its condition is false`,
      path,
    );
  }
  void template;
  throw new TemplateError(
    'reference',
    `the specified reference "${name}" is not a resource of this template`,
    path,
  );
}

function implement(
  def: ResourceDefinition,
  template: Template,
  registry: ResourceRegistry,
  context: ValidationContext,
  options: DefineOptions,
  nesting: Nesting,
): Implementation {
  const typePath = [...def.path, 'type'];
  const resolved = registry.isTemplateType(def.type)
    ? { kind: 'template' as const, url: resolveTemplateUrl(template.source.file, def.type) }
    : registry.resolveType(def.type, def.name, nesting.path);
  // An external resource's properties and metadata are not validated, as in Heat: nothing is
  // created from them (a server with external_id needs no flavor).
  const external = def.externalId !== undefined;
  const properties = external ? null : context.resolve(def.properties);
  if (!external) context.resolve(def.metadata);
  context.resolve(def.updatePolicy);
  if (def.deletionPolicy !== undefined)
    checkDeletionPolicy(context.resolve(def.deletionPolicy), template, def);
  if (external && resolved.kind === 'template') {
    throw new TemplateError('schema', `a template resource ("${def.type}") cannot have an external_id`, [
      ...def.path,
      'external_id',
    ]);
  }

  if (resolved.kind === 'plugin') {
    const info = (options.types ?? EMPTY_CATALOG).get(resolved.type);
    if (!info) {
      if (options.allowUnknownTypes) return { kind: 'unknown', type: resolved.type };
      const via = resolved.type === def.type ? undefined : `mapped from "${def.type}" by the environment`;
      throw unknownResourceType(resolved.type, typePath, via);
    }
    if (external) return { kind: 'plugin', type: resolved.type, info };
    info.validateProperties(properties, [...def.path, 'properties']);
    const deferred = options.deferredConstraints;
    if (deferred && info.constraintUses) {
      for (const use of info.constraintUses(properties, [...def.path, 'properties'], deferred.wanted))
        deferred.add(use, template.source);
    }
    return { kind: 'plugin', type: resolved.type, info };
  }
  const stack = defineNested(def, resolved.url, properties, template, options, nesting);
  return { kind: 'template', type: def.type, url: resolved.url, stack };
}

function checkDeletionPolicy(value: Value, template: Template, def: ResourceDefinition): void {
  if (value === UNKNOWN) return;
  if (typeof value !== 'string' || !template.version.deletionPolicies.includes(value)) {
    throw new TemplateError(
      'schema',
      `invalid deletion policy ${JSON.stringify(value)}; expected one of ${template.version.deletionPolicies.join(', ')}`,
      [...def.path, 'deletion_policy'],
    );
  }
}

function defineNested(
  def: ResourceDefinition,
  url: string,
  properties: Value,
  parent: Template,
  options: DefineOptions,
  nesting: Nesting,
): StackDefinition {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const typePath = [...def.path, 'type'];
  if (nesting.depth + 1 > limits.maxNestingDepth) {
    throw new TemplateError(
      'limit',
      `nested stacks are deeper than the limit of ${limits.maxNestingDepth} levels`,
      typePath,
    );
  }
  if (nesting.chain.includes(url)) {
    throw new TemplateError(
      'cycle',
      `template "${def.type}" includes itself: ${[...nesting.chain, url].join(' -> ')}`,
      typePath,
    );
  }
  const files = options.files ?? {};
  const text = Object.hasOwn(files, url)
    ? files[url]
    : Object.hasOwn(files, def.type)
      ? files[def.type]
      : undefined;
  if (text === undefined) {
    throw new TemplateError(
      'reference',
      `no content found in the files map for template "${def.type}" (${url})`,
      typePath,
    );
  }
  const supplied =
    properties !== null &&
    typeof properties === 'object' &&
    !Array.isArray(properties) &&
    properties !== UNKNOWN
      ? (properties as Record<string, Value>)
      : {};
  try {
    const nested = parseTemplate(parseSource(url, text, limits));
    for (const name of Object.keys(supplied)) {
      if (!nested.parameters.has(name)) {
        throw new TemplateError(
          'property',
          `property "${name}" is not a parameter of the nested template "${def.type}"`,
          [...def.path, 'properties', name],
        );
      }
    }
    for (const [name, schema] of nested.parameters) {
      const defaulted = Object.hasOwn(options.environment?.parameterDefaults ?? {}, name);
      if (!schema.hasDefault && !Object.hasOwn(supplied, name) && !defaulted) {
        throw new TemplateError(
          'property',
          `property "${name}" is required: the nested template "${def.type}" declares it without a default`,
          [...def.path, 'properties'],
        );
      }
    }
    // A nested template is bound whole: slices are a root template's resources.
    return runToEnd(
      define(
        nested,
        { ...options, environment: nestedEnvironment(options.environment) },
        {
          depth: nesting.depth + 1,
          path: [...nesting.path, def.name],
          supplied,
          chain: [...nesting.chain, url],
          counter: nesting.counter,
        },
      ),
    );
  } catch (err) {
    if (err instanceof TemplateError && err.file !== undefined && err.file !== parent.source.file) {
      throw new TemplateError(err.kind, `in nested template "${def.type}": ${err.message}`, typePath, {
        cause: err,
      });
    }
    throw err;
  }
}

/** A nested stack sees parameter_defaults and the registry, but not the root's `parameters`. */
function nestedEnvironment(env: Environment | undefined): Environment | undefined {
  return env === undefined ? undefined : { ...env, parameters: {} };
}

/** The attributes of a template resource are its template's outputs (plus OS::stack_id). */
function nestedTypeInfo(stack: StackDefinition): ResourceTypeInfo {
  return {
    type: stack.url,
    validateProperties: () => {},
    hasAttribute: (name) => stack.template.outputs.has(name) || name === 'OS::stack_id',
  };
}

export type { ResolveContext };
