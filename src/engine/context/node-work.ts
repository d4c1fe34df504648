import { type PluginContext, ResourceFailure, type ResourcePlugin } from '../../resources/contract.js';
import type {
  ResourceRecord,
  StackRecord,
  SyncPointRecord,
  TraversalRecord,
  WorkItem,
} from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import { cloudOf, type EngineDeps, ownerOf } from '../core/deps.js';
import type { NodeOutput } from '../core/nodes.js';
import { peerReader, signalWaitKey } from './peers.js';
import { CFN_TOOLS_PATH } from '../../resources/server-agent/transport.js';
import { resourceMetadata } from './metadata.js';
import { NodeResolveContext } from './resolver.js';
import { loadZones } from './zones.js';
import { idempotencyKey } from '../core/rows.js';
import { findSoftwareConfig } from './software-configs.js';
import { softwareService } from '../../software/service.js';
import type { TemplateCache } from '../core/templates.js';

/** The operation a node runs on a row. */
export type Operation = 'create' | 'update' | 'delete';

/** What a unit of work for a graph node carries between its steps (persisted in the work item). */
export type NodePayload =
  /** `retries`: a cleanup node's delete retries so far (retry.ts). */
  | { phase: 'start'; retries?: number }
  /** `reassess`: the operation resumed an interrupted one with its original properties; decide again after. */
  | { phase: 'poll'; op: Operation; row: number; attempt: number; reassess?: boolean; retries?: number }
  /** Waiting for another engine to release the resource's lock. */
  | { phase: 'locked' }
  /** Parked until nested stack `child` (the row's physical resource) ends its operation. */
  | { phase: 'nested'; op: Operation; row: number; child: string }
  /** A suspend or resume handler not finished yet (suspend-node.ts). */
  | { phase: 'visit-poll'; row: number; attempt: number }
  /** A resource's snapshot (a backup, an image) not made yet (snapshot-node.ts). */
  | { phase: 'snapshot-poll'; row: number; attempt: number }
  | RetryPayload;

/**
 * The create of row `row` failed and is retried (retry.ts): the unit deletes what the failed
 * attempt made, then waits out a backoff. The retry's state is the row's; `polls` counts the
 * polls of that delete (persisted polling's backoff).
 */
export type RetryPayload = { phase: 'retry'; row: number; polls: number };

export function payloadOf(item: WorkItem): NodePayload {
  const p = item.payload as NodePayload | null;
  return p && typeof p === 'object' && 'phase' in p ? p : { phase: 'start' };
}

/** A unit's sync point with the inputs the unit carries (a direct dependent's), if it carries them. */
export function withCarriedInputs(
  point: SyncPointRecord | undefined,
  item: WorkItem,
): SyncPointRecord | undefined {
  return point && item.inputs ? { ...point, inputs: item.inputs } : point;
}

/** Everything one step of a node needs, loaded once at the start of the step. */
export interface NodeScope {
  deps: EngineDeps;
  cache: TemplateCache;
  item: WorkItem;
  stack: StackRecord;
  traversal: TraversalRecord | undefined;
  /** Undefined when the traversal was superseded or failed. */
  point: SyncPointRecord | undefined;
  /** Whether this item still belongs to the stack's current traversal. */
  current: boolean;
  /** The lock holder id of this unit (`<engine>/<item>`). */
  holder: string;
  /** Ids of the units this engine is running now (a lock held by one of them is busy). */
  running: ReadonlySet<number>;
}

export function pluginContext(
  scope: Pick<NodeScope, 'deps' | 'stack'> &
    Partial<Pick<NodeScope, 'cache' | 'traversal'>> & { point?: SyncPointRecord | undefined },
  row: ResourceRecord,
  extra: { physicalId?: string | null; data?: Record<string, Json> } = {},
): PluginContext {
  const { deps, stack } = scope;
  return {
    resourceName: row.name,
    resourceType: row.type,
    stackId: stack.id,
    stackName: stack.name,
    idempotencyKey: idempotencyKey(row),
    physicalId: extra.physicalId !== undefined ? extra.physicalId : row.physicalId,
    data: { ...row.data, ...extra.data },
    storedProperties: row.properties as Record<string, Value> | null,
    reality: deps.reality,
    softwareConfig: (id) =>
      findSoftwareConfig(deps, { projectId: stack.projectId, stackId: stack.id, point: scope.point }, id),
    software: softwareService(deps.store, { projectId: stack.projectId, now: () => deps.clock.now() }),
    now: () => deps.clock.now(),
    random: deps.random,
    readResource: peerReader(deps, stack.id, scope.point),
    signalCredentials: () =>
      deps.signalCredentials?.({
        projectId: stack.projectId,
        stackId: stack.id,
        stackName: stack.name,
        resourceName: row.name,
      }),
    agentCredentials: (nonce) =>
      deps.agentCredentials?.({
        projectId: stack.projectId,
        stackId: stack.id,
        resourceName: row.name,
        nonce,
      }),
    stackUserKeypair: (nonce) =>
      deps.stackUserKeypair?.({
        projectId: stack.projectId,
        stackId: stack.id,
        resourceName: row.name,
        nonce,
      }),
    metadata: () => templateMetadata(scope, row.name),
    cfnUrl: () => {
      // The public URL agents' credentials point to is the API's; heat-cfntools ask for /v1/ there.
      const agent = deps.agentCredentials?.({ projectId: '', stackId: '', resourceName: '', nonce: '' });
      return agent ? `${agent.publicUrl}${CFN_TOOLS_PATH}` : undefined;
    },
    openstack: () => cloudOf(deps, ownerOf(stack)),
  };
}

/**
 * A resource's template metadata: in a traversal's node, resolved from its sync point inputs (what
 * it refers to is among its dependencies); elsewhere with a template cache (the legacy walk), from
 * the stack's template and its resources as recorded. {} without either, or when it has none.
 */
async function templateMetadata(
  scope: Pick<NodeScope, 'deps' | 'stack'> & Partial<Pick<NodeScope, 'cache' | 'traversal' | 'point'>>,
  name: string,
): Promise<JsonObject> {
  const { cache, traversal } = scope;
  if (!cache) return {};
  const definition = await definitionFor(
    { cache, ...scope },
    traversal ? traversal.templateId : scope.stack.templateId,
    traversal ? [name] : undefined,
  );
  if (!definition) return {};
  if (!traversal) return resourceMetadata(scope.deps, definition, scope.stack, name);
  const snippet = definition.resources.get(name)?.definition.metadata;
  if (snippet === undefined || snippet === null) return {};
  try {
    const value = new NodeResolveContext(definition, inputsOf(scope.point)).resolve(snippet);
    return isPlainObject(value) ? (value as JsonObject) : {};
  } catch (err) {
    // As the API's metadata: what cannot be resolved is left out rather than failing the action.
    if (err instanceof TemplateError) return {};
    throw err;
  }
}

/** The sync point inputs of a node, by resource name. */
export function inputsOf(point: SyncPointRecord | undefined): Map<string, NodeOutput> {
  const out = new Map<string, NodeOutput>();
  for (const value of Object.values(point?.inputs ?? {})) {
    const output = value as unknown as NodeOutput;
    if (output && typeof output === 'object' && typeof output.name === 'string') out.set(output.name, output);
  }
  return out;
}

/** Attribute values to cache after an operation, and the reference id. */
export async function outputsOf(
  plugin: ResourcePlugin,
  ctx: PluginContext,
  properties: Record<string, Value>,
): Promise<{ refId: string | null; attributes: Record<string, Json> }> {
  const attributes: Record<string, Json> = {};
  for (const name of Object.keys(plugin.attributes)) {
    if (name === 'show') continue;
    attributes[name] = (await plugin.attribute(ctx, name, properties)) as Json;
  }
  return { refId: plugin.referenceId ? plugin.referenceId(ctx) : ctx.physicalId, attributes };
}

/**
 * What a failure that carries learned data (ResourceFailure.data) changes on the row: that data, and
 * the attributes read from it (kept as they were when the plugin cannot read them).
 */
export async function failureOutputs(
  scope: Pick<NodeScope, 'deps' | 'stack'> & { point?: SyncPointRecord | undefined },
  plugin: ResourcePlugin,
  row: ResourceRecord,
  properties: Record<string, Value>,
  err: unknown,
): Promise<Partial<ResourceRecord>> {
  if (!(err instanceof ResourceFailure) || err.data === undefined) return {};
  const data = { ...(row.data as JsonObject), ...err.data };
  try {
    const { attributes } = await outputsOf(plugin, pluginContext(scope, row, { data }), properties);
    return { data, attributes: attributes as JsonObject };
  } catch {
    return { data };
  }
}

/**
 * Loads a stack's bound template `templateId` (cached per process: templates never change). A
 * reader of the snippets of `names` only may get a partial bind that bound them (core/templates.ts).
 */
export async function definitionFor(
  scope: Pick<NodeScope, 'deps' | 'cache' | 'stack'>,
  templateId: string | null,
  names?: readonly string[],
): Promise<StackDefinition | undefined> {
  if (!templateId) return undefined;
  const identity = { stackId: scope.stack.id, stackName: scope.stack.name, projectId: scope.stack.projectId };
  let definition = names
    ? scope.cache.peekBound(templateId, scope.stack.id, names)
    : scope.cache.peek(templateId, scope.stack.id);
  if (!definition) {
    const record = await scope.deps.store.tx((tx) => tx.templates.get(templateId));
    definition = record ? await scope.cache.load(record, identity) : undefined;
  }
  // Nodes resolve its snippets next: Fn::GetAZs needs the zones at hand (checked here: no await for most).
  if (definition?.usesAvailabilityZones) await loadZones(scope.deps, scope.stack, definition);
  return definition;
}

/**
 * When a pending action polls again: backed off from the plugin's hint, or, parked on a
 * resource's signals (`wakeOnSignalTo`), at the hint at the latest and as soon as one is handled.
 */
export function pollSchedule(
  scope: Pick<NodeScope, 'stack'>,
  result: { pollAfterMs?: number | undefined; wakeOnSignalTo?: string | undefined },
  attempt: number,
): { delay: number; key: string | undefined } {
  const wakeOn = result.wakeOnSignalTo;
  if (wakeOn === undefined) return { delay: pollDelay(result.pollAfterMs, attempt), key: undefined };
  const delay = Math.max(0, result.pollAfterMs ?? pollDelay(undefined, attempt));
  return { delay, key: signalWaitKey(scope.stack.id, wakeOn) };
}

/** Backoff for persisted polling: start from the plugin's hint, grow, cap at 5 s. */
export function pollDelay(hint: number | undefined, attempt: number): number {
  const base = hint ?? 100;
  return Math.min(5000, Math.max(10, base * 1.5 ** Math.min(attempt, 10)));
}

/**
 * The rows `row` requires while an operation on it runs, written when it starts, as Heat stores
 * `requires` when it takes the lock: if the operation fails (its end, which records what the row
 * requires, never comes), a later delete still removes the row before what it needs. A row that
 * records some already (an update) keeps them: mixing the old and new sets could order two rows
 * each before the other.
 */
export function requiresWhileRunning(scope: Pick<NodeScope, 'point'>, row: ResourceRecord): number[] {
  if (row.requires.length > 0) return row.requires;
  const ids: number[] = [];
  for (const input of inputsOf(scope.point).values()) if (input.rowId !== null) ids.push(input.rowId);
  return ids;
}

/** Another engine works on the resource: check again shortly (persisted, not a blocked worker). */
export async function waitForLock(scope: NodeScope): Promise<void> {
  const { deps, item } = scope;
  await deps.store.tx((tx) =>
    tx.work.reschedule(item, deps.clock.now() + deps.settings.lockRetryMs, {
      phase: 'start',
    }),
  );
}

/** A compare-and-swap lost to a concurrent writer: run this step again from fresh state. */
export async function retryLater(scope: NodeScope): Promise<void> {
  const { deps, item } = scope;
  await deps.store.tx((tx) => tx.work.reschedule(item, deps.clock.now() + 10, item.payload));
}

/** Stale work of a superseded traversal that had not started: nothing to do. */
export async function drop(scope: NodeScope): Promise<void> {
  const { deps, item } = scope;
  await deps.store.tx((tx) => tx.work.complete(item));
}
