import { isNestedPlugin } from '../../resources/nested-type.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { retained } from '../nodes/cleanup-node.js';
import { stackEvent } from '../core/events.js';
import { releaseCompleted } from '../core/finish.js';
import type { NodeOutput } from '../core/nodes.js';
import { definitionFor } from '../context/node-work.js';
import { currentRows, initRow } from '../core/rows.js';
import { checkpoint, LEGACY_CONCURRENCY, type LegacyRun, StackFailed, StackTimedOut } from './context.js';
import { abortedText, nestedFailureText, stackFailureText, TIMED_OUT } from '../core/failure-text.js';
import { childToDelete, convergeNested, startChildDelete } from './nested.js';
import { convergeResource, deleteResource } from './resource.js';
import { lockRow, recordDone, recordFailed } from './resource-op.js';
import { walkGraph } from './schedule.js';

/**
 * One legacy stack's operation, walked in memory: a create, update or rollback converges every
 * resource of the stack's template in dependency order, then deletes what the template no longer
 * has (dependents first); a delete, or the rollback of a create, deletes every row. Throws
 * StackFailed with the stack's reason. The rows read at the start are the truth for the walk:
 * nobody else writes them while the stack lock is held.
 */
export async function walkStack(run: LegacyRun, stack: StackRecord): Promise<void> {
  const deleting = stack.action === 'DELETE' || (stack.action === 'ROLLBACK' && stack.templateId === null);
  if (deleting) return deleteAll(run, stack);
  const definition = await boundOrFailed(run, stack, stack.templateId);
  if (!definition) throw new StackFailed(`the template of stack ${stack.name} is gone`);
  await convergeAll(run, stack, definition);
  const previous = await definitionFor({ ...run, stack }, stack.prevTemplateId).catch(() => undefined);
  await deleteObsolete(run, stack, [definition, ...(previous ? [previous] : [])]);
}

/** A nested stack's operation, its end recorded on its own stack row (the root's is the runner's). */
export async function walkChild(run: LegacyRun, child: StackRecord): Promise<void> {
  const now = () => run.deps.clock.now();
  try {
    await walkStack(run, child);
  } catch (err) {
    if (!(err instanceof StackFailed)) throw err;
    await run.deps.store.tx(async (tx) => {
      await tx.stacks.update(child.id, null, { status: 'FAILED', reason: err.message });
      await tx.events.append([stackEvent(child, child.action, 'FAILED', err.message, now())]);
    });
    throw err;
  }
  const reason = `Stack ${child.action} completed successfully`;
  const deleting = child.action === 'DELETE';
  await run.deps.store.tx(async (tx) => {
    await tx.stacks.update(child.id, null, {
      status: 'COMPLETE',
      reason,
      prevTemplateId: null,
      ...(deleting ? { deletedAt: new Date(now()).toISOString() } : {}),
    });
    await releaseCompleted(tx, child, deleting, true);
    await tx.events.append([stackEvent(child, child.action, 'COMPLETE', reason, now())]);
  });
}

async function convergeAll(run: LegacyRun, stack: StackRecord, definition: StackDefinition): Promise<void> {
  const { deps } = run;
  const now = deps.clock.now();
  const rows = new Map(
    currentRows(await deps.store.tx((tx) => tx.resources.listActive(stack.id))).map((r) => [r.name, r]),
  );
  const fresh = [...definition.resources]
    .filter(([name]) => !rows.has(name))
    .map(([name, r]) =>
      initRow({ stackId: stack.id, rootStackId: stack.rootId, name, type: r.implementation.type }, now),
    );
  if (fresh.length > 0) {
    for (const row of await deps.store.tx((tx) => tx.resources.insert(fresh))) rows.set(row.name, row);
  }
  const outputs = new Map<string, NodeOutput>();
  const order = new Map([...definition.resources].map(([name, r]) => [name, r.requires]));
  await walkGraph(
    order,
    async (name) => {
      checkpoint(run, stack.action);
      const resource = definition.resources.get(name)!;
      const row = rows.get(name)!;
      const impl = resource.implementation;
      const plugin = impl.kind === 'plugin' ? deps.plugins.plugin(impl.type) : undefined;
      let output: NodeOutput;
      if (impl.kind === 'template' || isNestedPlugin(plugin)) {
        const nested = isNestedPlugin(plugin) ? plugin : undefined;
        output = await convergeNested(run, stack, definition, resource, nested, row, outputs, (child) =>
          walkChild(run, child),
        );
      } else if (plugin) {
        output = await convergeResource(run, stack, definition, resource, plugin, row, outputs);
      } else {
        await recordFailed(run, row, 'create', `unknown resource type "${impl.type}"`);
        throw new StackFailed(`Resource CREATE failed: unknown resource type "${impl.type}"`);
      }
      outputs.set(name, output);
    },
    LEGACY_CONCURRENCY,
  );
}

/** After a converge: the rows the template no longer names, and the rows that were replaced. */
async function deleteObsolete(
  run: LegacyRun,
  stack: StackRecord,
  definitions: StackDefinition[],
): Promise<void> {
  const [target] = definitions;
  const rows = await run.deps.store.tx((tx) => tx.resources.listActive(stack.id));
  const current = new Set(currentRows(rows).map((r) => r.id));
  const doomed = rows.filter((r) => !current.has(r.id) || !target!.resources.has(r.name));
  await deleteRows(run, stack, doomed, definitions);
}

async function deleteAll(run: LegacyRun, stack: StackRecord): Promise<void> {
  const definitions: StackDefinition[] = [];
  for (const id of [stack.templateId, stack.prevTemplateId]) {
    // Only the order of deletes comes from templates: one that no longer binds orders nothing.
    const definition = await definitionFor({ ...run, stack }, id).catch(() => undefined);
    if (definition) definitions.push(definition);
  }
  const rows = await run.deps.store.tx((tx) => tx.resources.listActive(stack.id));
  await deleteRows(run, stack, rows, definitions);
}

/** Deletes rows, each after the rows that depend on it (in any of `definitions`). */
async function deleteRows(
  run: LegacyRun,
  stack: StackRecord,
  rows: ResourceRecord[],
  definitions: StackDefinition[],
): Promise<void> {
  if (rows.length === 0) return;
  const byName = new Map<string, ResourceRecord[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  const order = new Map<string, string[]>(rows.map((r) => [String(r.id), []]));
  for (const definition of definitions) {
    for (const [dependent, resource] of definition.resources) {
      for (const required of resource.requires) {
        for (const row of byName.get(required) ?? []) {
          order.get(String(row.id))!.push(...(byName.get(dependent) ?? []).map((d) => String(d.id)));
        }
      }
    }
  }
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  await walkGraph(
    order,
    async (id) => {
      checkpoint(run, stack.action);
      await deleteRow(run, stack, byId.get(id)!);
    },
    LEGACY_CONCURRENCY,
  );
}

async function deleteRow(run: LegacyRun, stack: StackRecord, row: ResourceRecord): Promise<void> {
  // As a convergence cleanup: Retain (in the row's own template) and external resources stay.
  const retain = await retained({ ...run, stack }, row);
  const child = retain ? undefined : await childToDelete(run, row);
  if (!child) return deleteResource(run, stack, run.deps.plugins.plugin(row.type), row, retain);
  const locked = await lockRow(run, row, 'delete', null);
  try {
    await walkChild(run, await startChildDelete(run, stack, child));
  } catch (err) {
    if (err instanceof StackTimedOut) {
      await recordFailed(run, locked, 'delete', abortedText('DELETE', TIMED_OUT));
      throw err;
    }
    if (err instanceof StackFailed) {
      const reason = nestedFailureText(err.message, 'DELETE', locked.name);
      await recordFailed(run, locked, 'delete', reason);
      throw new StackFailed(stackFailureText('DELETE', reason));
    }
    throw err;
  }
  await recordDone(run, locked, 'delete', {});
}

/** The template a converge walks to; one that does not bind (a child's parameters) fails the stack. */
async function boundOrFailed(
  run: LegacyRun,
  stack: StackRecord,
  templateId: string | null,
): Promise<StackDefinition | undefined> {
  try {
    return await definitionFor({ ...run, stack }, templateId);
  } catch (err) {
    if (err instanceof TemplateError) throw new StackFailed(err.message);
    throw err;
  }
}
