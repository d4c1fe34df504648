import type { ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import { parseSource } from '../../template/source.js';
import type { Json, JsonObject } from '../../util/json.js';
import { childStackOf } from '../context/child-stack.js';
import type { EngineDeps } from '../core/deps.js';
import { stackEvent } from '../core/events.js';
import { OperationError } from '../core/errors.js';

/*
 * `stack abandon` (Heat's abandon): the stack's description in the format Heat prints (its template,
 * environment and files, and each resource with its physical id and the data its type keeps; nested
 * stacks inlined under their parent resource), then the stack leaves Hearth without any physical
 * resource being touched. The document is what `stack adopt` takes back.
 */

/** A resource of an abandoned stack that is not a nested stack. */
interface AbandonedResource {
  name: string;
  resource_id: string | null;
  type: string;
  action: string;
  status: string;
  metadata: JsonObject;
  resource_data: JsonObject;
}

/**
 * Describes the stack (and its nested stacks) and removes them from the store, in one transaction:
 * what is described is exactly what is removed. Refused while the stack or a nested one has an
 * operation in progress (its units would go on acting on what is no longer managed).
 */
export async function abandonStack(deps: EngineDeps, stackId: string): Promise<JsonObject> {
  const now = deps.clock.now();
  return deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
    const tree: StackRecord[] = [];
    const document = await describe(tx, deps, stack, tree);
    for (const member of tree) {
      if (member.status === 'IN_PROGRESS') {
        throw new OperationError(
          `stack "${member.name}" has an operation in progress (${member.action}); abandon it once it has ended`,
          'conflict',
        );
      }
    }
    for (const member of tree) await forget(tx, member, now);
    return document;
  });
}

/**
 * `stack export` (Heat's export_stack): the document abandon would print, with nothing removed, from
 * one read-only transaction (a consistent view of the tree). Heat exports a stack whatever its state.
 */
export async function exportStack(deps: EngineDeps, stackId: string): Promise<JsonObject> {
  return deps.store.read(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
    return describe(tx, deps, stack, []);
  });
}

/** The stack's abandon document, its nested stacks inlined (`tree` collects the stacks described). */
export async function describe(
  tx: Tx,
  deps: EngineDeps,
  stack: StackRecord,
  tree: StackRecord[],
): Promise<JsonObject> {
  tree.push(stack);
  const record = stack.templateId ? await tx.templates.get(stack.templateId) : undefined;
  const children = new Map((await tx.stacks.children(stack.id)).map((c) => [c.id, c]));
  const resources: JsonObject = {};
  for (const row of await tx.resources.listActive(stack.id)) {
    const childId = childStackOf(row);
    const child = childId === undefined ? undefined : children.get(childId);
    resources[row.name] = child
      ? await describe(tx, deps, child, tree)
      : (resourceEntry(row) as unknown as JsonObject);
  }
  return {
    name: stack.name,
    id: stack.id,
    action: stack.action,
    environment: record?.environment ?? {},
    files: record?.files ?? {},
    status: stack.status,
    template: record ? (parseSource(record.url, record.template, deps.settings.limits).data as Json) : {},
    resources,
    project_id: stack.projectId,
    stack_user_project_id: stack.projectId,
    tags: stack.tags,
  };
}

function resourceEntry(row: ResourceRecord): AbandonedResource {
  return {
    name: row.name,
    resource_id: row.physicalId,
    type: row.type,
    action: row.action,
    status: row.status,
    metadata: {},
    resource_data: row.data,
  };
}

/** The stack leaves the store: marked deleted (as a completed delete leaves it), its rows purged. */
async function forget(tx: Tx, stack: StackRecord, now: number): Promise<void> {
  const reason = 'Stack abandoned: its resources were left as they are';
  const changes = {
    action: 'DELETE' as const,
    status: 'COMPLETE' as const,
    reason,
    traversalId: '',
    deletedAt: new Date(now).toISOString(),
  };
  if (!(await tx.stacks.update(stack.id, stack.traversalId, changes))) {
    throw new OperationError(`stack "${stack.name}" was changed meanwhile; try again`, 'conflict');
  }
  await tx.resources.purge(stack.id, true);
  await tx.drift.replace(stack.id, stack.rootId, []);
  // Its snapshots' rows go too; what they made (backups, images) is left, as the resources are.
  for (const snapshot of await tx.snapshots.list(stack.id)) await tx.snapshots.delete(snapshot.id);
  await tx.events.append([stackEvent(stack, 'DELETE', 'COMPLETE', reason, now)]);
}
