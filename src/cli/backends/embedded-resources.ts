import type { EngineDeps } from '../../engine/core/deps.js';
import type { Engine } from '../../engine/engine.js';
import { pendingHook } from '../../engine/context/hooks.js';
import { getResource } from '../../engine/operations/queries.js';
import { OperationError } from '../../engine/core/errors.js';
import { signalResource } from '../../engine/operations/signal.js';
import type { ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import type { Hook } from '../../template/environment/index.js';
import { maskSecretAttributes } from '../../template/hidden-values.js';
import type { Json } from '../../util/json.js';
import type { PendingHook, ResourceDetail, ResourceInfo } from '../backend.js';
import { resourceInfo } from './embedded-views.js';

/** Reads of a stack's resources (and hooks) for the embedded backend. */

/**
 * A stack's resources, each followed by those of its nested stack down to `depth` levels (as
 * Heat's resource list with nested_depth), with the name of the stack each belongs to.
 */
export async function nestedResources(tx: Tx, stack: StackRecord, depth: number): Promise<ResourceInfo[]> {
  const rows = await tx.resources.listActive(stack.id);
  const children = depth > 0 ? await tx.stacks.children(stack.id) : [];
  const out: ResourceInfo[] = [];
  for (const row of rows) {
    out.push(resourceInfo(row, stack.name));
    const child = children.find((c) => c.id === row.physicalId && c.parentResource === row.name);
    if (child) out.push(...(await nestedResources(tx, child, depth - 1)));
  }
  return out;
}

/** One resource with its attributes and the resources of its stack that depend on it. */
export async function resourceDetail(
  engine: Engine,
  stack: StackRecord,
  name: string,
): Promise<ResourceDetail> {
  const { deps } = engine;
  const row = await getResource(deps, stack, name);
  const info = deps.plugins.typeCatalog.get(row.type);
  const read = info?.readAttribute;
  const attributes = maskSecretAttributes(
    info?.secretAttributes,
    (read?.(row.attributes, undefined) ?? row.attributes) as Record<string, Json>,
  );
  return { ...resourceInfo(row, stack.name), attributes, requiredBy: await requiredBy(engine, stack, name) };
}

async function requiredBy(engine: Engine, stack: StackRecord, name: string): Promise<string[]> {
  const templateId = stack.templateId;
  const record = templateId ? await engine.deps.store.tx((tx) => tx.templates.get(templateId)) : undefined;
  if (!record) return [];
  const definition = engine.cache.get(record, {
    stackId: stack.id,
    stackName: stack.name,
    projectId: stack.projectId,
  });
  const out: string[] = [];
  for (const [other, resource] of definition.resources) if (resource.requires.includes(name)) out.push(other);
  return out;
}

/** Resources waiting at a hook, named by their path from the top stack (`parent/child`). */
export async function pendingHooks(tx: Tx, stack: StackRecord, prefix = ''): Promise<PendingHook[]> {
  const out: PendingHook[] = [];
  const children = new Map((await tx.stacks.children(stack.id)).map((c) => [c.id, c]));
  for (const row of await tx.resources.listActive(stack.id)) {
    const hook = pendingHook(row);
    if (hook) out.push({ path: `${prefix}${row.name}`, hook, stackName: stack.name });
    const child = row.physicalId ? children.get(row.physicalId) : undefined;
    if (child) out.push(...(await pendingHooks(tx, child, `${prefix}${row.name}/`)));
  }
  return out;
}

/** Clears hooks of the resource at `path` (an `unset_hook` signal each); none given, the one it waits at. */
export async function clearHooks(
  deps: EngineDeps,
  top: StackRecord,
  path: string,
  hooks: Hook[],
): Promise<void> {
  const { stack, resource } = await resolvePath(deps, top, path);
  const row: ResourceRecord = await getResource(deps, stack, resource);
  // No hook named: the one the resource waits at, as there can be only one at a time.
  const clear = hooks.length > 0 ? hooks : [pendingHook(row)].filter((h) => h !== undefined);
  if (clear.length === 0) throw new OperationError(`resource "${path}" is not waiting at a hook`, 'invalid');
  for (const unset of clear) await signalResource(deps, stack.id, resource, { unset_hook: unset });
}

/** The stack and resource name a `parent/child/resource` path names. */
async function resolvePath(
  deps: EngineDeps,
  top: StackRecord,
  path: string,
): Promise<{ stack: StackRecord; resource: string }> {
  const parts = path.split('/');
  let stack = top;
  for (const part of parts.slice(0, -1)) {
    const row = await getResource(deps, stack, part);
    const child = row.physicalId ? await deps.store.tx((tx) => tx.stacks.get(row.physicalId!)) : undefined;
    if (!child || child.parentId !== stack.id) {
      throw new OperationError(
        `resource "${part}" of stack "${stack.name}" is not a nested stack`,
        'not_found',
      );
    }
    stack = child;
  }
  return { stack, resource: parts.at(-1)! };
}
