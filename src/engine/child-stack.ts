import { createHash } from 'node:crypto';
import type { ResourceRecord, StackRecord, TemplateRecord, Tx } from '../store/contract.js';
import { childEnvironment, type Environment } from '../template/environment/index.js';
import { type DocPath, TemplateError } from '../template/errors.js';
import type { Value } from '../template/functions/types.js';
import type { StackDefinition } from '../template/stack-definition.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../util/json.js';
import { stackWaitKey } from './finish.js';
import type { NodeScope, Operation } from './node-work.js';
import { stackOutputs } from './outputs.js';
import { bindTemplate, environmentFromJSON, environmentJSON } from './templates.js';

/**
 * The child stacks of template resources: what a parent row records about its child, the child's
 * template and environment (computed from the parent's), its stack row, and its outputs as the
 * parent resource's attributes. The parent's side of the protocol is nested.ts.
 */

/** Keys of a template resource row's `data`: its child stack, and the digest it converged to. */
export const CHILD_KEY = 'nested_stack';
export const DIGEST_KEY = 'nested_digest';

/**
 * A parked parent unit waits this long at most for its child's event; it only matters if an event
 * were lost (a bug, or a child changed behind the engine's back): then the unit looks and parks again.
 */
export const NESTED_SAFETY_MS = 5 * 60_000;

/** What the lock holder of a template resource row is doing to the child (the row's `progress`). */
export interface NestedProgress {
  child: string;
  op: Operation;
  /** What the child converges to: the parameters given, a digest of everything, the resource type. */
  properties: JsonObject;
  digest: string;
  type: string;
}

/** The child operation in flight on a row (only while the row is IN_PROGRESS). */
export function nestedProgress(row: ResourceRecord): NestedProgress | undefined {
  const p = row.progress;
  if (row.status !== 'IN_PROGRESS' || !isPlainObject(p) || typeof p.child !== 'string') return undefined;
  return p as unknown as NestedProgress;
}

/** The child stack of a template resource row, if it has one. */
export function childStackOf(row: ResourceRecord): string | undefined {
  const id = row.data[CHILD_KEY];
  return typeof id === 'string' ? id : undefined;
}

/** Everything the child converges to, from the parent's stored template and the resolved properties. */
export interface ChildSpec {
  url: string;
  text: string;
  files: Record<string, string>;
  environment: JsonObject;
  properties: JsonObject;
  type: string;
  /** Changes when anything the child is built from changes: its template, files or environment. */
  digest: string;
}

export function childSpec(
  scope: NodeScope,
  parent: ParentTemplate,
  resourceName: string,
  impl: { type: string; url: string },
  properties: JsonObject,
  path: DocPath,
): ChildSpec {
  const files = parent.files;
  const text = Object.hasOwn(files, impl.url)
    ? files[impl.url]
    : Object.hasOwn(files, impl.type)
      ? files[impl.type]
      : undefined;
  if (text === undefined) {
    throw new TemplateError(
      'reference',
      `no content found in the files map for template "${impl.type}" (${impl.url})`,
      path,
    );
  }
  const environment = environmentJSON(childEnvironment(parent.environment, resourceName, properties));
  const hash = createHash('sha256');
  for (const part of [impl.url, text, JSON.stringify(environment), parent.filesDigest]) {
    hash.update(part).update('\0');
  }
  return { url: impl.url, text, files, environment, properties, type: impl.type, digest: hash.digest('hex') };
}

/** What children are built from in a parent's template version (immutable, so memoised by id). */
export interface ParentTemplate {
  files: Record<string, string>;
  filesDigest: string;
  environment: Environment;
}

const parents = new Map<string, ParentTemplate>();
const PARENTS_KEPT = 64;

/**
 * The parent's files, their digest and its parsed environment, for template version `templateId`:
 * loaded and computed once per process, so a template resource's node does not re-read and
 * re-hash the parent's files map on every run.
 */
export async function parentTemplate(
  scope: NodeScope,
  templateId: string,
): Promise<ParentTemplate | undefined> {
  const hit = parents.get(templateId);
  if (hit) return hit;
  const record = await scope.deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record) return undefined;
  const hash = createHash('sha256');
  for (const name of Object.keys(record.files).sort()) {
    hash.update(name).update('\0').update(record.files[name]!).update('\0');
  }
  const parent = {
    files: record.files,
    filesDigest: hash.digest('hex'),
    environment: environmentFromJSON(record.environment, scope.deps.settings.limits),
  };
  parents.set(templateId, parent);
  if (parents.size > PARENTS_KEPT) parents.delete(parents.keys().next().value!);
  return parent;
}

/**
 * The parameters a template resource gives its child: its resolved properties, null ones left out
 * (as Heat's TemplateResource.child_params), so the child's defaults apply.
 */
export function childParameters(raw: Value, path: DocPath): JsonObject {
  if (raw === null || raw === undefined) return {};
  if (!isPlainObject(raw)) throw new TemplateError('property', 'the properties must be a map', path);
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(raw)) if (value !== null) setOwn(out, name, value as Json);
  return out;
}

export function childTemplateRecord(id: string, spec: ChildSpec, now: number): TemplateRecord {
  return {
    id,
    template: spec.text,
    url: spec.url,
    files: spec.files,
    environment: spec.environment,
    createdAt: new Date(now).toISOString(),
  };
}

/** A new child stack row (no traversal yet): in the parent's tree, named as Heat names them. */
export function newChildStack(
  parent: StackRecord,
  resourceName: string,
  id: string,
  now: number,
): StackRecord {
  return {
    id,
    name: `${parent.name}-${resourceName}-${id.replace(/-/g, '').slice(0, 12)}`,
    projectId: parent.projectId,
    parentId: parent.id,
    parentResource: resourceName,
    rootId: parent.rootId,
    action: 'CREATE',
    status: 'IN_PROGRESS',
    reason: 'Stack CREATE started',
    traversalId: '',
    templateId: null,
    prevTemplateId: null,
    convergence: true,
    timeoutMins: parent.timeoutMins,
    // The parent decides what a failure means (its own rollback converges the child back).
    disableRollback: true,
    tags: [],
    createdAt: new Date(now).toISOString(),
    updatedAt: null,
    deletedAt: null,
  };
}

/** Validates the child's template strictly, for the child's identity, and caches the result. */
export function bindChild(scope: NodeScope, record: TemplateRecord, child: StackRecord): StackDefinition {
  const { deps, cache } = scope;
  const identity = { stackId: child.id, stackName: child.name, projectId: child.projectId };
  const definition = bindTemplate(record, identity, deps.plugins.typeCatalog, deps.settings.limits);
  cache.put(cache.keyOf(record.id, child.id), definition);
  return definition;
}

/** The payload of a unit parked on a child. */
export interface ParkedPayload {
  phase: 'nested';
  op: Operation;
  row: number;
  child: string;
}

/**
 * Parks this unit on the child's end event, in the caller's transaction (put it before whatever
 * starts the child's operation, so the event cannot come first). `runAt` is the safety deadline,
 * or now if the child has already ended.
 */
export async function park(
  tx: Tx,
  scope: NodeScope,
  payload: ParkedPayload,
  runAt: number,
): Promise<boolean> {
  const { deps, item } = scope;
  return tx.work.reschedule(item.id, deps.engineId, runAt, { ...payload }, stackWaitKey(payload.child));
}

/** The child's outputs as the parent resource's attributes (plus OS::stack_id); its id is the reference. */
export async function childOutputs(
  scope: NodeScope,
  child: StackRecord,
): Promise<{ refId: string; attributes: Record<string, Json> }> {
  const attributes: Record<string, Json> = {};
  for (const output of await stackOutputs(scope.deps, scope.cache, child)) {
    setOwn(attributes, output.output_key, output.output_value ?? null);
  }
  attributes['OS::stack_id'] = child.id;
  return { refId: child.id, attributes };
}
