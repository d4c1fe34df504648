import type { ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { environmentFromJSON } from '../core/templates.js';
import { currentRow } from '../core/rows.js';
import { OperationError } from '../core/errors.js';
import type { TemplateInput } from '../core/requests.js';

/* Reading stacks and resources for the operations and the front ends: found, or an OperationError. */

/** A stack as last committed (a read transaction: it does not queue behind the engine's writes). */
export async function getStack(deps: EngineDeps, stackId: string): Promise<StackRecord | undefined> {
  return deps.store.read((tx) => tx.stacks.get(stackId));
}

/** A stack by name or id, in a project; deleted stacks are not found. */
export async function findStack(deps: EngineDeps, projectId: string, nameOrId: string): Promise<StackRecord> {
  const found = await deps.store.tx(async (tx) => {
    const byName = await tx.stacks.findByName(projectId, nameOrId);
    if (byName) return byName;
    const byId = await tx.stacks.get(nameOrId);
    return byId && byId.projectId === projectId && !byId.deletedAt ? byId : undefined;
  });
  if (!found) throw new OperationError(`stack "${nameOrId}" not found`, 'not_found');
  return found;
}

/** A resource of a stack by name: the row that carries the name now. */
export async function getResource(
  deps: EngineDeps,
  stack: StackRecord,
  name: string,
): Promise<ResourceRecord> {
  const row = currentRow(await deps.store.tx((tx) => tx.resources.findByName(stack.id, name)));
  if (!row) throw resourceNotFound(stack, name);
  return row;
}

export function resourceNotFound(stack: StackRecord, name: string): OperationError {
  return new OperationError(`resource "${name}" not found in stack "${stack.name}"`, 'not_found');
}

export async function requireStack(deps: EngineDeps, stackId: string): Promise<StackRecord> {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
  return stack;
}

/** The template, files and environment a stack was last given (what an `existing` update reuses). */
export async function storedInput(deps: EngineDeps, stack: StackRecord): Promise<TemplateInput> {
  const record = stack.templateId
    ? await deps.store.tx((tx: Tx) => tx.templates.get(stack.templateId!))
    : undefined;
  if (!record) throw new OperationError(`stack "${stack.name}" has no stored template to reuse`, 'invalid');
  return {
    url: record.url,
    text: record.template,
    files: record.files,
    environment: environmentFromJSON(record.environment, deps.settings.limits),
  };
}
