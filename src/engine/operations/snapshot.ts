import { randomUUID } from 'node:crypto';
import type { SnapshotRecord, StackRecord, WorkItem } from '../../store/contract.js';
import { getOwn, isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import { describe } from './abandon.js';
import type { EngineDeps } from '../core/deps.js';
import { pluginContext } from '../context/node-work.js';
import { getStack } from './queries.js';
import { OperationError } from '../core/errors.js';
import { updateStack } from './update.js';
import { beginVisit } from '../nodes/suspend-node.js';
import { environmentFromJSON, type TemplateCache } from '../core/templates.js';
import { notInLegacyMode } from '../legacy/begin.js';
import { enqueueSnapshotDelete } from '../core/snapshot-state.js';

/*
 * Stack snapshots (Heat's stack_snapshot, stack_restore, delete_snapshot). A snapshot is a row
 * holding Heat's snapshot document (the stack's abandon document: template, environment, files,
 * each resource's data) and a SNAPSHOT traversal in which each resource's type adds what it made
 * (snapshot-node.ts). A restore is an update to the snapshot's template and environment, each
 * resource's properties first rewritten by its type from its data (Heat's restore_data /
 * handle_restore). A delete is a unit of work that deletes what the snapshot made, then the row.
 */

/** Where the snapshot document keeps the template's URL (Hearth's addition, not shown by the API). */
export const TEMPLATE_URL = 'hearth_template_url';

/** Takes a snapshot of a stack: the row and its SNAPSHOT traversal in one transaction. */
export async function createSnapshot(
  deps: EngineDeps,
  stackId: string,
  name: string | null,
): Promise<SnapshotRecord> {
  const stack = await liveStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, 'take a snapshot');
  const now = deps.clock.now();
  const snapshot: SnapshotRecord = {
    id: randomUUID(),
    stackId: stack.id,
    projectId: stack.projectId,
    name,
    status: 'IN_PROGRESS',
    statusReason: '',
    traversalId: randomUUID(),
    data: null,
    deleting: false,
    createdAt: new Date(now).toISOString(),
    updatedAt: null,
  };
  await deps.store.tx(async (tx) => {
    const current = await tx.stacks.get(stack.id);
    if (!current || current.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
    // Heat's ActionInProgress: a snapshot is taken of a stack at rest.
    if (current.status === 'IN_PROGRESS') {
      throw new OperationError(
        `Stack ${current.name} already has an action (${current.action}) in progress.`,
        'conflict',
      );
    }
    const record = current.templateId ? await tx.templates.get(current.templateId) : undefined;
    // The template's URL too (not Heat's): relative paths in it (a nested template's type) resolve against it.
    snapshot.data = { ...(await describe(tx, deps, current, [])), [TEMPLATE_URL]: record?.url ?? '' };
    await tx.snapshots.insert(snapshot);
    await beginVisit(tx, current, 'SNAPSHOT', now, snapshot.traversalId);
  });
  return (await findSnapshot(deps, stack, snapshot.id))!;
}

/** A stack's snapshots (those being deleted left out), oldest first. */
export async function listSnapshots(deps: EngineDeps, stackId: string): Promise<SnapshotRecord[]> {
  const stack = await liveStack(deps, stackId);
  const all = await deps.store.read((tx) => tx.snapshots.list(stack.id));
  return all.filter((s) => !s.deleting);
}

export async function showSnapshot(
  deps: EngineDeps,
  stackId: string,
  snapshotId: string,
): Promise<SnapshotRecord> {
  const stack = await liveStack(deps, stackId);
  const snapshot = await findSnapshot(deps, stack, snapshotId);
  if (!snapshot) throw snapshotNotFound(snapshotId);
  return snapshot;
}

/**
 * Deletes a snapshot (Heat's delete_snapshot): refused while it is being taken; otherwise the row
 * is marked and a unit of work deletes what it made (backups, images), then the row.
 */
export async function deleteSnapshot(deps: EngineDeps, stackId: string, snapshotId: string): Promise<void> {
  const stack = await liveStack(deps, stackId);
  await deps.store.tx(async (tx) => {
    const snapshot = await tx.snapshots.get(snapshotId);
    if (!snapshot || snapshot.stackId !== stack.id || snapshot.deleting) throw snapshotNotFound(snapshotId);
    if (snapshot.status === 'IN_PROGRESS') {
      throw new OperationError('Deleting in-progress snapshot is not supported.', 'invalid');
    }
    await tx.snapshots.update(snapshot.id, {
      deleting: true,
      updatedAt: new Date(deps.clock.now()).toISOString(),
    });
    await enqueueSnapshotDelete(tx, stack, snapshot.id);
  });
}

/** How many times a snapshot's delete is tried before what it made is left (and logged). */
const DELETE_TRIES = 6;

/**
 * The unit that deletes a snapshot: each resource's type deletes what it made (idempotent: what is
 * gone is success), then the row goes. A failure is tried again with a backoff, a few times (a
 * backup still being made cannot be deleted yet); then the row goes anyway, what is left logged.
 */
export async function runSnapshotDelete(
  deps: EngineDeps,
  item: WorkItem,
  log: (message: string) => void = () => {},
): Promise<void> {
  const snapshot = await deps.store.tx((tx) => tx.snapshots.get(item.node));
  const stack = snapshot ? await deps.store.tx((tx) => tx.stacks.get(snapshot.stackId)) : undefined;
  if (snapshot && stack) {
    try {
      await deleteWhatItMade(deps, snapshot, stack);
    } catch (error) {
      const tries = ((item.payload as { tries?: number } | null)?.tries ?? 0) + 1;
      const what = `what snapshot ${snapshot.id} of stack ${stack.id} made`;
      const why = error instanceof Error ? error.message : String(error);
      if (tries < DELETE_TRIES) {
        log(`${what} could not be deleted (attempt ${tries}): ${why}; trying again`);
        const due = deps.clock.now() + 1000 * 2 ** tries;
        await deps.store.tx((tx) => tx.work.reschedule(item, due, { tries }));
        return;
      }
      log(`${what} could not be deleted, giving up: ${why}`);
    }
  }
  await deps.store.tx(async (tx) => {
    if (snapshot) await tx.snapshots.delete(snapshot.id);
    await tx.work.complete(item);
  });
}

async function deleteWhatItMade(
  deps: EngineDeps,
  snapshot: SnapshotRecord,
  stack: StackRecord,
): Promise<void> {
  for (const [name, entry] of Object.entries(resourcesOf(snapshot))) {
    const type = typeof entry.type === 'string' ? entry.type : '';
    const plugin = deps.plugins.plugin(type);
    if (!plugin?.deleteSnapshot) continue;
    const data = isJsonObject(entry.resource_data) ? entry.resource_data : {};
    const physicalId = typeof entry.resource_id === 'string' ? entry.resource_id : null;
    const ctx = pluginContext({ deps, stack }, resourceLike(stack, name, type, physicalId, data));
    await plugin.deleteSnapshot(ctx, data);
  }
}

/**
 * Restores a stack from a snapshot (Heat's stack_restore): an update to the snapshot's template,
 * environment and files, each resource's properties rewritten by its type from its snapshot data.
 */
export async function restoreSnapshot(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  snapshotId: string,
): Promise<StackRecord> {
  const stack = await liveStack(deps, stackId);
  const snapshot = await findSnapshot(deps, stack, snapshotId);
  if (!snapshot) throw snapshotNotFound(snapshotId);
  if (snapshot.status !== 'COMPLETE' || !snapshot.data) {
    throw new OperationError(
      `Snapshot ${snapshot.id} is ${snapshot.status}: only a COMPLETE snapshot can be restored`,
      'invalid',
    );
  }
  const data = snapshot.data;
  const files = isJsonObject(data.files) ? (data.files as Record<string, string>) : {};
  const environment = isJsonObject(data.environment) ? data.environment : {};
  const template = restoredTemplate(deps, data.template, resourcesOf(snapshot));
  return updateStack(deps, cache, stack.id, {
    template: {
      url: typeof data[TEMPLATE_URL] === 'string' ? data[TEMPLATE_URL] : '',
      text: JSON.stringify(template),
      files,
      environment: environmentFromJSON(environment, deps.settings.limits),
    },
  });
}

/** The snapshot's template with each resource's properties as its type restores them. */
function restoredTemplate(
  deps: EngineDeps,
  template: Json | undefined,
  entries: Record<string, JsonObject>,
): JsonObject {
  if (!isJsonObject(template)) throw new OperationError('the snapshot has no template to restore', 'invalid');
  // HOT's `resources`/`properties`, or the CFN format's `Resources`/`Properties`.
  const hot = isJsonObject(template.resources);
  const resourcesKey = hot ? 'resources' : 'Resources';
  const propertiesKey = hot ? 'properties' : 'Properties';
  const resources = template[resourcesKey];
  if (!isJsonObject(resources)) return template;
  const restored: JsonObject = {};
  for (const [name, definition] of Object.entries(resources)) {
    const entry = getOwn(entries, name);
    const plugin = entry && typeof entry.type === 'string' ? deps.plugins.plugin(entry.type) : undefined;
    if (!plugin?.restoreProperties || !isJsonObject(definition) || !isJsonObject(entry?.resource_data)) {
      restored[name] = definition;
      continue;
    }
    const properties = isJsonObject(definition[propertiesKey]) ? definition[propertiesKey] : {};
    restored[name] = {
      ...definition,
      [propertiesKey]: plugin.restoreProperties(properties, entry.resource_data),
    };
  }
  return { ...template, [resourcesKey]: restored };
}

function resourcesOf(snapshot: SnapshotRecord): Record<string, JsonObject> {
  const resources = snapshot.data?.resources;
  const out: Record<string, JsonObject> = {};
  if (!isJsonObject(resources)) return out;
  for (const [name, entry] of Object.entries(resources))
    if (isJsonObject(entry)) Object.defineProperty(out, name, { value: entry, enumerable: true });
  return out;
}

/** What a plugin context needs of a resource, from its entry in a snapshot. */
function resourceLike(
  stack: StackRecord,
  name: string,
  type: string,
  physicalId: string | null,
  data: JsonObject,
) {
  return {
    id: 0,
    uuid: '',
    stackId: stack.id,
    rootStackId: stack.rootId,
    name,
    type,
    action: 'SNAPSHOT' as const,
    status: 'COMPLETE' as const,
    reason: '',
    physicalId,
    templateId: null,
    properties: null,
    attributes: {},
    data,
    progress: null,
    requires: [],
    replaces: null,
    replacedBy: null,
    engineId: null,
    atomicKey: 0,
    unhealthy: false,
    createRetries: 0,
    createdAt: stack.createdAt,
    updatedAt: null,
  };
}

async function liveStack(deps: EngineDeps, stackId: string): Promise<StackRecord> {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
  return stack;
}

async function findSnapshot(
  deps: EngineDeps,
  stack: StackRecord,
  snapshotId: string,
): Promise<SnapshotRecord | undefined> {
  const snapshot = await deps.store.read((tx) => tx.snapshots.get(snapshotId));
  return snapshot && snapshot.stackId === stack.id && !snapshot.deleting ? snapshot : undefined;
}

/** Heat's NotFound wording for a snapshot. */
function snapshotNotFound(snapshotId: string): OperationError {
  return new OperationError(`The Snapshot (${snapshotId}) could not be found.`, 'not_found');
}

function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value);
}
