import { randomUUID } from 'node:crypto';
import { checkCloudConstraints } from '../context/cloud-constraints.js';
import type { CatalogPlugin } from '../../resources/catalog.js';
import type { ResourcePlugin } from '../../resources/contract.js';
import { isNestedPlugin } from '../../resources/nested-type.js';
import type { ResourceState, Tx } from '../../store/contract.js';
import type { Environment } from '../../template/environment/index.js';
import type { FacadeSection } from '../../template/facade.js';
import { type DocPath, isTemplateError } from '../../template/errors.js';
import { type Node, Omitted, UNKNOWN, type Value } from '../../template/functions/types.js';
import { validateProperties } from '../../template/properties/index.js';
import type { Json } from '../../util/json.js';
import type { DefinedResource, StackDefinition } from '../../template/stack-definition.js';
import { CHILD_KEY } from '../context/child-stack.js';
import type { EngineDeps } from '../core/deps.js';
import { isExternal } from '../nodes/external.js';
import type { NodeOutput } from '../core/nodes.js';
import type { TemplateCache } from '../core/templates.js';
import type { CreateRequest, UpdateRequest } from '../core/requests.js';
import { desiredOf } from '../core/plan.js';
import { prepareCreate, prepareUpdate } from './prepare.js';
import { chooseRows } from '../core/plan.js';
import { NodeResolveContext } from '../context/resolver.js';
import { childLevel, generatedChild, type PreviewLevel } from './preview-nested.js';
import { unchangedResources } from '../nodes/unchanged.js';
import { explainDecision } from '../context/update-decision.js';

/**
 * Previews (Heat's stack preview and update preview): what a create or an update would do to
 * each resource, computed from the stored rows without writing anything. The update preview
 * asks the engine's own deciders — `chooseRows` (which row carries a resource), `unchanged.ts`
 * (resources an update leaves alone) and update-node's `decide` (create, update in place,
 * replace or nothing) — so it cannot disagree with what an update does, except where a value
 * only the update will produce is involved: a property that uses an attribute or reference of a
 * resource that is itself changing is unknown, and counts as changed (as the engine runs such
 * a resource's node, and the node may find nothing to do).
 */

export const CHANGES = ['unchanged', 'updated', 'replaced', 'added', 'deleted'] as const;
export type Change = (typeof CHANGES)[number];

export interface PreviewedChange {
  name: string;
  type: string;
  change: Change;
  /** The stack the resource is in (a nested stack for a child; none for one a create would add). */
  stackId: string | null;
  /** The template resources leading from the stack updated to this resource's stack. */
  path: string[];
  /** Its row now (none for an added resource). */
  row?: ResourceState;
  /** The resources of its stack that will depend on it (none for a deleted one). */
  requiredBy: readonly string[];
  /** Its `description` in the new template ('' for a deleted one, or without one). */
  description: string;
  /** Its new properties as far as known before the update (what `stack plan` diffs); none when not told. */
  properties?: Value;
  /** Why a replaced resource is replaced. */
  reason?: string;
}

/** `stack update --dry-run`: the request validated as an update would be, then classified. */
export async function previewStackUpdate(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
  nested: boolean,
): Promise<PreviewedChange[]> {
  const { stack, definition, environment } = await prepareUpdate(deps, cache, stackId, req);
  return previewUpdate(deps, stack.id, definition, nested, environment);
}

/** What a create would make: the bound template, and every resource (nested stacks' too). */
export interface CreatePreview {
  definition: StackDefinition;
  resources: PreviewedResource[];
}

/** `stack create --dry-run`: the request validated as a create would be, nothing stored. */
export async function previewStackCreate(
  deps: EngineDeps,
  cache: TemplateCache,
  req: CreateRequest,
): Promise<CreatePreview> {
  const { definition, constraints } = await prepareCreate(deps, cache, req, randomUUID());
  await checkCloudConstraints(constraints);
  const level = {
    definition,
    environment: req.template.environment,
    projectId: req.projectId,
    stackName: req.name,
  };
  return { definition, resources: previewCreate(deps, level) };
}

/** A previewed value as JSON: the parts not known before the operation runs are null. */
export function knownValue(value: Value): Json {
  if (value === UNKNOWN || value instanceof Omitted) return null;
  if (Array.isArray(value)) return value.map(knownValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, knownValue(v)]));
  }
  return value as Json;
}

/** Resolves snippets with only `known` resources' outputs: every other reference is UNKNOWN. */
class PreviewResolveContext extends NodeResolveContext {
  constructor(
    definition: StackDefinition,
    private readonly known: ReadonlyMap<string, NodeOutput>,
  ) {
    super(definition, known);
  }

  override resourceRef(name: string, path: DocPath): Value {
    return this.known.has(name) ? super.resourceRef(name, path) : UNKNOWN;
  }

  override resourceAttr(name: string, attr: string | undefined, path: DocPath): Value {
    return this.known.has(name) ? super.resourceAttr(name, attr, path) : UNKNOWN;
  }

  // A previewed nested stack's parent has not recorded its facade yet.
  override facade(section: FacadeSection, path: DocPath): Value {
    return this.definition.facade ? super.facade(section, path) : UNKNOWN;
  }

  // A preview calls no cloud: the zones stay unknown, as in validation.
  override availabilityZones(): Value {
    return UNKNOWN;
  }
}

/**
 * A resource's properties as far as they are known before the operation: converted and
 * defaulted by its schema, UNKNOWN where they depend on what is not known (UNKNOWN as a whole
 * when the properties section itself is).
 */
export function previewProperties(
  definition: StackDefinition,
  resource: DefinedResource,
  plugin: ResourcePlugin | undefined,
  known: ReadonlyMap<string, NodeOutput> = new Map(),
): Value {
  const raw = new PreviewResolveContext(definition, known).resolve(resource.definition.properties);
  // An external resource's properties are shown as written: they are not validated (external.ts).
  const external = resource.definition.externalId !== undefined;
  if (!plugin || external || (plugin as CatalogPlugin).anyProperties) return raw ?? {};
  return validateProperties(plugin.properties, raw, [...resource.definition.path, 'properties']);
}

/**
 * What updating stack `stackId` (rows as stored) to `definition` with `environment` would do to
 * each resource; `nested`: also to the resources of nested stacks — template resources' and
 * nested-stack types' (a ResourceGroup's members), with the same classification (Heat's
 * --show-nested), their `path` naming the resources that lead to them.
 */
export async function previewUpdate(
  deps: EngineDeps,
  stackId: string,
  definition: StackDefinition,
  nested: boolean,
  environment: Environment,
): Promise<PreviewedChange[]> {
  return deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    const rows = await tx.resources.listStates(stackId);
    const out: PreviewedChange[] = [];
    const level = {
      definition,
      environment,
      projectId: stack?.projectId ?? '',
      stackName: stack?.name ?? '',
    };
    await classifyStack({ deps, tx, nested, out }, stackId, level, rows, []);
    return out;
  });
}

function resolveSnippet(definition: StackDefinition) {
  return (snippet: Node, known: ReadonlyMap<string, NodeOutput>) =>
    new PreviewResolveContext(definition, known).resolve(snippet);
}

interface Walk {
  deps: EngineDeps;
  tx: Tx;
  nested: boolean;
  out: PreviewedChange[];
}

/** What a deleted resource has no more. */
const GONE: Pick<PreviewedChange, 'requiredBy' | 'description'> = { requiredBy: [], description: '' };

async function classifyStack(
  walk: Walk,
  stackId: string,
  level: PreviewLevel,
  rows: readonly ResourceState[],
  path: string[],
): Promise<void> {
  const { deps, out } = walk;
  const { definition } = level;
  const desired = desiredOf(definition);
  const { chosen, obsolete } = chooseRows(desired, rows);
  const unchanged = unchangedResources(deps, definition, desired, chosen, stackId);
  const dependents = dependentsOf(definition);
  for (const want of desired) {
    const row = chosen.get(want.name);
    const resource = definition.resources.get(want.name)!;
    const { change, properties, reason } = unchanged.has(want.name)
      ? { change: 'unchanged' as const, properties: undefined, reason: undefined }
      : row
        ? classify(deps, definition, resource, row, unchanged)
        : { change: 'added' as const, properties: knownProperties(deps, definition, resource, unchanged) };
    out.push({
      name: want.name,
      type: want.type,
      change,
      ...(properties === undefined ? {} : { properties }),
      ...(reason === undefined ? {} : { reason }),
      stackId,
      path,
      requiredBy: dependents.get(want.name) ?? [],
      description: resource.definition.description ?? '',
      ...(row ? { row } : {}),
    });
    if (!walk.nested) continue;
    const impl = resource.implementation;
    const child =
      impl.kind === 'template'
        ? impl.stack
        : change === 'unchanged'
          ? undefined
          : generatedChildOf(deps, level, resource, row, unchanged);
    if (child)
      await classifyChildren(walk, childLevel(level, want.name, child), change, row, [...path, want.name]);
  }
  const wanted = new Set(desired.map((d) => d.name));
  const deleted = new Map<string, ResourceState>();
  // The newest row of each name that goes (older ones are leftovers of replacements).
  for (const row of obsolete) if (!wanted.has(row.name)) deleted.set(row.name, row);
  for (const row of deleted.values()) {
    out.push({ name: row.name, type: row.type, change: 'deleted', stackId, path, row, ...GONE });
    if (walk.nested) await deleteChildren(walk, row, [...path, row.name]);
  }
}

/** The child a nested-stack type's update would converge its child stack to, when it can be told. */
function generatedChildOf(
  deps: EngineDeps,
  level: PreviewLevel,
  resource: DefinedResource,
  row: ResourceState | undefined,
  known: ReadonlyMap<string, NodeOutput>,
): StackDefinition | undefined {
  const plugin = deps.plugins.plugin(resource.implementation.type);
  let properties: Value;
  try {
    properties = previewProperties(level.definition, resource, plugin, known);
  } catch (err) {
    if (isTemplateError(err)) return undefined;
    throw err;
  }
  const childId =
    row && typeof row.data[CHILD_KEY] === 'string' ? (row.data[CHILD_KEY] as string) : undefined;
  const existing = { childId, data: row?.data ?? {} };
  return generatedChild(
    deps,
    level,
    resource,
    plugin,
    properties,
    known,
    existing,
    resolveSnippet(level.definition),
  );
}

interface Classified {
  change: Change;
  properties?: Value;
  reason?: string;
}

/** A resource that has a row and is not left alone: what its update node would decide. */
function classify(
  deps: EngineDeps,
  definition: StackDefinition,
  resource: DefinedResource,
  row: ResourceState,
  unchanged: ReadonlyMap<string, NodeOutput>,
): Classified {
  const impl = resource.implementation;
  const plugin = deps.plugins.plugin(impl.type);
  if (impl.kind === 'template' || isNestedPlugin(plugin)) {
    const properties = knownProperties(deps, definition, resource, unchanged);
    // As nested.ts: a row that never had a child (it was a plugin resource), or whose child was
    // being deleted, gets a new row; otherwise the child is updated (Heat always updates a
    // nested stack and lets its resources decide).
    if (row.action === 'INIT') return { change: 'added', properties };
    const hasChild = typeof row.data[CHILD_KEY] === 'string';
    if (row.action === 'DELETE')
      return { change: 'replaced', properties, reason: 'its nested stack was deleted' };
    if (!hasChild && row.physicalId !== null)
      return { change: 'replaced', properties, reason: `type changes from ${row.type} to ${impl.type}` };
    return { change: 'updated', properties };
  }
  if (!plugin) return { change: 'updated' };
  if (isExternal(row, resource)) {
    // As external.ts: adopted anew on a new row, or looked at again (or refused) in place.
    if (row.action === 'INIT') return { change: 'added' };
    if (row.type !== impl.type)
      return { change: 'replaced', reason: `type changes from ${row.type} to ${impl.type}` };
    if (row.action === 'DELETE') return { change: 'replaced', reason: 'its physical resource was deleted' };
    return { change: 'updated' };
  }
  let properties: Value;
  try {
    properties = previewProperties(definition, resource, plugin, unchanged);
  } catch (err) {
    // The update node will fail on it: it is not left alone.
    if (isTemplateError(err)) return { change: 'updated' };
    throw err;
  }
  if (properties === UNKNOWN) return { change: 'updated', properties };
  const { decision, reason } = explainDecision(plugin, row, impl.type, properties as Record<string, Value>);
  if (decision === 'none') return { change: 'unchanged', properties };
  if (decision === 'create') return { change: 'added', properties };
  return decision === 'update'
    ? { change: 'updated', properties }
    : { change: 'replaced', properties, reason };
}

/** A resource's properties as far as known, or none when they do not resolve (the update will fail on them). */
function knownProperties(
  deps: EngineDeps,
  definition: StackDefinition,
  resource: DefinedResource,
  known: ReadonlyMap<string, NodeOutput>,
): Value | undefined {
  const impl = resource.implementation;
  const plugin = impl.kind === 'plugin' ? deps.plugins.plugin(impl.type) : undefined;
  try {
    return previewProperties(definition, resource, plugin, known);
  } catch (err) {
    if (isTemplateError(err)) return undefined;
    throw err;
  }
}

/** The children of a template resource, given what happens to the resource itself. */
async function classifyChildren(
  walk: Walk,
  child: PreviewLevel,
  change: Change,
  row: ResourceState | undefined,
  path: string[],
): Promise<void> {
  const childId =
    row && typeof row.data[CHILD_KEY] === 'string' ? (row.data[CHILD_KEY] as string) : undefined;
  if (change === 'updated' && childId) {
    const rows = await walk.tx.resources.listStates(childId);
    return classifyStack(walk, childId, child, rows, path);
  }
  // A replaced resource's old child goes and a new one is made; an added resource's child is new.
  if (change === 'replaced' && row) await deleteChildren(walk, row, path);
  if (change === 'replaced' || change === 'added' || change === 'updated') addAll(walk, child, path);
}

function addAll(walk: Walk, level: PreviewLevel, path: string[]): void {
  const dependents = dependentsOf(level.definition);
  for (const [name, resource] of level.definition.resources) {
    const impl = resource.implementation;
    const properties = knownProperties(walk.deps, level.definition, resource, new Map());
    walk.out.push({
      name,
      type: impl.type,
      change: 'added',
      stackId: null,
      path,
      requiredBy: dependents.get(name) ?? [],
      description: resource.definition.description ?? '',
      ...(properties === undefined ? {} : { properties }),
    });
    const child =
      impl.kind === 'template'
        ? impl.stack
        : generatedChildOf(walk.deps, level, resource, undefined, new Map());
    if (child) addAll(walk, childLevel(level, name, child), [...path, name]);
  }
}

/** Everything in the child stack of a row that goes (and in their children), as deleted. */
async function deleteChildren(walk: Walk, row: ResourceState, path: string[]): Promise<void> {
  const childId = row.data[CHILD_KEY];
  if (typeof childId !== 'string') return;
  const rows = await walk.tx.resources.listStates(childId);
  const names = new Map<string, ResourceState>();
  for (const r of rows) if (r.replacedBy === null || !names.has(r.name)) names.set(r.name, r);
  for (const r of names.values()) {
    walk.out.push({
      name: r.name,
      type: r.type,
      change: 'deleted',
      stackId: childId,
      path,
      row: r,
      ...GONE,
    });
    await deleteChildren(walk, r, [...path, r.name]);
  }
}

export interface PreviewedResource {
  name: string;
  type: string;
  /** Resolved properties; UNKNOWN where they depend on resources not created yet. */
  properties: Value;
  /** The resources of the same stack that depend on this one. */
  requiredBy: string[];
  /** The template resources leading to this resource's nested stack (empty at the top). */
  path: string[];
  /** Its `description` in the template ('' without one). */
  description: string;
  /** Its metadata as far as known (null without any). */
  metadata: Value;
}

/**
 * What creating a stack from `definition` would make (Heat's stack preview): every resource,
 * nested stacks' too, with its properties as far as they are known before anything exists.
 */
export function previewCreate(
  deps: EngineDeps,
  level: PreviewLevel,
  path: string[] = [],
): PreviewedResource[] {
  const { definition } = level;
  const requiredBy = dependentsOf(definition);
  const out: PreviewedResource[] = [];
  for (const [name, resource] of definition.resources) {
    const impl = resource.implementation;
    const plugin = impl.kind === 'plugin' ? deps.plugins.plugin(impl.type) : undefined;
    const properties = previewProperties(definition, resource, plugin);
    const metadata = new PreviewResolveContext(definition, new Map()).resolve(resource.definition.metadata);
    out.push({
      name,
      type: impl.type,
      properties,
      requiredBy: requiredBy.get(name) ?? [],
      path,
      description: resource.definition.description ?? '',
      metadata,
    });
    const child =
      impl.kind === 'template' ? impl.stack : generatedChildOf(deps, level, resource, undefined, new Map());
    if (child) out.push(...previewCreate(deps, childLevel(level, name, child), [...path, name]));
  }
  return out;
}

/** For each resource of the stack, the resources that depend on it (Heat's required_by). */
function dependentsOf(definition: StackDefinition): Map<string, string[]> {
  const requiredBy = new Map<string, string[]>();
  for (const [name, resource] of definition.resources) {
    for (const dep of new Set(resource.requires)) requiredBy.set(dep, [...(requiredBy.get(dep) ?? []), name]);
  }
  return requiredBy;
}
