import { closest } from '../util/suggest.js';
import { DependencyGraph } from '../graph/index.js';
import type { Json } from '../util/json.js';
import { runToEnd, type Sliceable } from '../util/loop-slice.js';
import { ConditionEvaluator } from './conditions.js';
import { collectReferences } from './dependencies.js';
import { checkExternal, dependenciesOf, refersToParameter } from './resource-references.js';
import { type Environment, ResourceRegistry, resolveTemplateUrl } from './environment/index.js';
import { TemplateError, unknownResourceType } from './errors.js';
import { type ResolveContext, UNKNOWN, type Unknown, type Value } from './functions/types.js';
import { DEFAULT_LIMITS, type TemplateLimits } from './limits.js';
import { resolveParameterValues } from './parameters/index.js';
import { addImplicitDependencies, crossCheckResources } from './implicit-dependencies.js';
import { type DeferredConstraints, deferParameterConstraints } from './deferred-constraints.js';
import { pseudoParameterValues } from './pseudo-parameters.js';
import { parseSource } from './source.js';
export type { DeferredConstraints } from './deferred-constraints.js';
import { type OutputDefinition, parseTemplate, type ResourceDefinition, type Template } from './template.js';
import type { DefinedResource, Implementation, StackDefinition } from './stack-definition-types.js';
import type { ParentFacade } from './facade.js';
import { EMPTY_CATALOG, type ResourceTypeInfo, type TypeCatalog } from './types.js';
import { checkReference, ValidationContext } from './validation-context.js';
import { bindCount, type ResourceStubs } from './stubs.js';
import {
  checkDeletionPolicy,
  constraintUsesOf,
  pendingParameters,
  suppliedValues,
} from './definition-values.js';

export type { DefinedResource, Implementation, StackDefinition } from './stack-definition-types.js';
export type { ResourceStubs } from './stubs.js';

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
  /** The parent resource's facade, when binding a nested stack's own template (child-stack.ts). */
  facade?: ParentFacade;
  /** The stack has no parent resource: `resource_facade` in its own template is an error. */
  topLevel?: boolean;
  /** A partial bind (engine/operations/partial-bind.ts): the root's resources left unbound. */
  stubs?: ResourceStubs;
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
  // Heat validates the nested stacks of a stack it creates non-strictly
  // (StackResource.validate_nested_stack): missing values are unknown below the root, and a
  // nested stack's values are checked only where they are the root's template resources'
  // properties. Each child stack checks its own when it is created.
  const create = options.strict ?? false;
  const strict = create && nesting.depth === 0;
  const lenient =
    nesting.depth === 0
      ? undefined
      : nesting.depth === 1 && create
        ? ('defaults' as const)
        : ('values' as const);
  // A nested stack's parameters fed by values not known before the parent runs (another
  // resource's attribute) are unknown here; the child stack checks them when it is created.
  const pending = pendingParameters(template, nesting.supplied);
  const schemas =
    pending.size === 0
      ? template.parameters
      : new Map([...template.parameters].filter(([name]) => !pending.has(name)));
  const parameters = resolveParameterValues(schemas, suppliedValues(template, env, nesting.supplied), {
    strict,
    ...(lenient ? { lenient } : {}),
    maxDepth: limits.maxDocumentDepth,
    pseudo: pseudoParameterValues(template.version, options) as Record<string, Json>,
    pseudoNames: template.version.pseudoParameters,
  }) as Map<string, Json | Unknown>;
  for (const name of pending) parameters.set(name, UNKNOWN);
  if (options.deferredConstraints)
    deferParameterConstraints(template, parameters, options.deferredConstraints);

  // A partial bind's template holds only the resources it binds: the stubs stand in for the rest.
  const stubs = nesting.depth === 0 ? options.stubs : undefined;
  const resourceNames = stubs ? stubs.all : new Set(template.resources.keys());
  // Heat's Stack.validate: a CFN Ref could not tell such a name's parameter from its resource.
  // (Heat refuses it in HOT templates too; Hearth does so only where Ref makes it ambiguous.)
  const duplicates =
    template.version.format === 'cfn' ? [...resourceNames].filter((name) => parameters.has(name)) : [];
  if (duplicates.length > 0) {
    const names = duplicates.map((name) => `'${name}'`).join(', ');
    throw new TemplateError('schema', `Duplicate names {${names}}`, ['resources', duplicates[0]!]);
  }
  const context = new ValidationContext(
    template,
    parameters,
    options.files ?? {},
    options.types ?? EMPTY_CATALOG,
    nesting.depth === 0 && options.topLevel === true,
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
  const bound = stubs ? new Set(enabled.keys()) : undefined;
  if (stubs) for (const [name, stub] of stubs.resources) enabled.set(name, stub.definition);
  context.bindResources(enabled, resourceNames);

  nesting.counter.resources += enabled.size;
  if (nesting.counter.resources > limits.maxResourcesPerStack) {
    throw new TemplateError(
      'limit',
      `the stack has more than ${limits.maxResourcesPerStack} resources (the configured limit)`,
      ['resources'],
    );
  }

  const scope = { enabled, all: resourceNames };
  const registry = new ResourceRegistry(env);
  const graph = new DependencyGraph<string>();
  const resources = new Map<string, DefinedResource>();
  for (const [name, def] of enabled) {
    // The stubs come after the bound resources (enabled's order): they take the loop below.
    if (bound && !bound.has(name)) break;
    graph.addNode(name);
    const requires =
      def.externalId === undefined
        ? dependenciesOf(def, template, conditions, scope, context)
        : checkExternal(def, conditions, context, strict);
    for (const required of requires) graph.addEdge(name, required);
    const implementation = implement(def, template, registry, context, options, nesting);
    resources.set(name, { definition: def, implementation, requires });
    bindCount.resources++;
    yield;
  }
  if (stubs) {
    let stubbed = 0;
    for (const [name, stub] of stubs.resources) {
      if (++stubbed % 1024 === 0) yield;
      graph.addNode(name);
      for (const required of stub.requires) graph.addEdge(name, required);
      resources.set(name, stub);
    }
  }
  addImplicitDependencies(resources, graph, context);
  // The types' checks against each other run where their own checks do (see implement).
  if (strict) crossCheckResources(resources, context);

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
    let dangling = false;
    for (const ref of collectReferences(output.value, conditions)) {
      if (refersToParameter(ref.call.name, ref.resource, template)) continue;
      // Heat checks a CFN Ref naming nothing only when the output is shown (its output_error).
      if (ref.call.name === 'Ref' && !resourceNames.has(ref.resource)) dangling = true;
      else checkReference(ref.resource, ref.path, scope);
      if (ref.call.name === 'get_attr' || ref.call.name === 'Fn::GetAtt')
        context.recordAttributeRead(ref.resource, ref.call);
    }
    if (!dangling) context.resolve(output.value);
    outputs.set(name, output);
  }

  // get_attr reads are checked once every type is known (reads may come before their target).
  let checked = 0;
  for (const [name, resource] of resources) {
    const impl = resource.implementation;
    if (impl.kind === 'plugin') context.checkAttributeReads(name, impl.info);
    else if (impl.kind === 'template') context.checkAttributeReads(name, nestedTypeInfo(impl.stack));
    if (++checked % 256 === 0) yield;
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
    ...(nesting.depth === 0 && options.facade ? { facade: options.facade } : {}),
    ...(context.readsAvailabilityZones ? { usesAvailabilityZones: true } : {}),
    ...(bound ? { partial: bound } : {}),
  };
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
    const catalog = options.types ?? EMPTY_CATALOG;
    const info = catalog.get(resolved.type);
    if (!info) {
      if (options.allowUnknownTypes) return { kind: 'unknown', type: resolved.type };
      const via = resolved.type === def.type ? undefined : `mapped from "${def.type}" by the environment`;
      const near = via ? undefined : closest(resolved.type, catalog.names?.() ?? []);
      throw unknownResourceType(resolved.type, typePath, via ?? (near && `did you mean ${near}?`));
    }
    if (external) return { kind: 'plugin', type: resolved.type, info };
    // Values are checked where Heat checks them: the root of a stack being created (see define).
    const phase = options.strict && nesting.depth === 0 ? 'create' : 'validate';
    const path = [...def.path, 'properties'];
    const scope = {
      url: template.source.file,
      files: options.files ?? {},
      environment: options.environment,
      limits: options.limits ?? DEFAULT_LIMITS,
    };
    info.validateProperties(properties, path, { phase, scope });
    const deferred = options.deferredConstraints;
    if (deferred && info.constraintUses) {
      for (const use of constraintUsesOf(info, properties, path, deferred, phase))
        deferred.add(use, template.source);
    }
    return { kind: 'plugin', type: resolved.type, info };
  }
  const stack = defineNested(def, resolved.url, properties, template, options, nesting);
  return { kind: 'template', type: def.type, url: resolved.url, stack };
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
    const nested = parseTemplate(parseSource(url, text, limits), { checkDefaults: false });
    for (const name of Object.keys(supplied)) {
      if (!nested.parameters.has(name)) {
        throw new TemplateError(
          'property',
          `property "${name}" is not a parameter of the nested template "${def.type}"`,
          [...def.path, 'properties', name],
        );
      }
    }
    // Heat checks required properties with their values: at the root of a stack being created.
    const checkRequired = options.strict && nesting.depth === 0;
    for (const [name, schema] of checkRequired ? nested.parameters : []) {
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
