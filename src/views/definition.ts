import type { Engine } from '../engine/engine.js';
import type { StackRecord } from '../store/contract.js';
import type { StackDefinition } from '../template/stack-definition.js';

/** The stack's current template bound to it (cached: a hit reads nothing), or undefined before it has one. */
export function stackDefinition(engine: Engine, stack: StackRecord): Promise<StackDefinition | undefined> {
  return lookUp(engine, stack, 'lookup');
}

/**
 * `stackDefinition` for a reader of its head alone (description, parameters, hidden values of
 * nested stacks): a partial bind of an update in this process serves (core/templates.ts).
 */
export function stackHead(engine: Engine, stack: StackRecord): Promise<StackDefinition | undefined> {
  return lookUp(engine, stack, 'lookupHead');
}

async function lookUp(
  engine: Engine,
  stack: StackRecord,
  how: 'lookup' | 'lookupHead',
): Promise<StackDefinition | undefined> {
  if (!stack.templateId) return undefined;
  return engine.cache[how](
    stack.templateId,
    { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
    (id) => engine.deps.store.read((tx) => tx.templates.get(id)),
  );
}
