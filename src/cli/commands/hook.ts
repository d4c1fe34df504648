import type { Command } from 'commander';
import { pendingHook } from '../../engine/hooks.js';
import { findStack, getResource, OperationError } from '../../engine/operations.js';
import { signalResource } from '../../engine/signal.js';
import type { EngineDeps } from '../../engine/deps.js';
import type { StackRecord, Tx } from '../../store/contract.js';
import { localProject, withEngine } from '../embedded.js';
import { show } from '../output.js';

type Print = (s: string) => void;

const HOOK_FLAGS = ['preCreate', 'preUpdate', 'preDelete'] as const;
const HOOK_OF = { preCreate: 'pre-create', preUpdate: 'pre-update', preDelete: 'pre-delete' } as const;

/**
 * `stack hook poll` and `stack hook clear` (Heat's breakpoints, src/engine/hooks.ts). A resource of
 * a nested stack is named by its path, `parent_resource/resource`, as the openstack client does.
 */
export function registerHookCommands(stack: Command, program: Command, print: Print): void {
  const hook = stack.command('hook').description('Resource breakpoints (hooks) set in the environment');
  hook
    .command('poll <stack>')
    .description('List the resources waiting at a hook, in the stack and its nested stacks')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { format: string }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const rows = await engine.deps.store.tx((tx) => waiting(tx, found, ''));
        show(print, opts.format, rows);
      });
    });
  hook
    .command('clear <stack> <resources...>')
    .description('Clear the hooks resources wait at, so their stack operation goes on')
    .option('--pre-create', 'clear the pre-create hook')
    .option('--pre-update', 'clear the pre-update hook')
    .option('--pre-delete', 'clear the pre-delete hook')
    .action(
      async (name: string, paths: string[], opts: Partial<Record<(typeof HOOK_FLAGS)[number], boolean>>) => {
        const asked = HOOK_FLAGS.filter((flag) => opts[flag]).map((flag) => HOOK_OF[flag]);
        await withEngine(program, async (engine) => {
          const top = await findStack(engine.deps, localProject(), name);
          for (const path of paths) {
            const { stack, resource } = await resolvePath(engine.deps, top, path);
            const row = await getResource(engine.deps, stack, resource);
            // No flag: the hook the resource waits at, as there can be only one at a time.
            const hooks = asked.length > 0 ? asked : [pendingHook(row)].filter((h) => h !== undefined);
            if (hooks.length === 0)
              throw new OperationError(`resource "${path}" is not waiting at a hook`, 'invalid');
            for (const unset of hooks)
              await signalResource(engine.deps, stack.id, resource, { unset_hook: unset });
          }
        });
      },
    );
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

/** Resources waiting at a hook, named by their path from the top stack. */
async function waiting(tx: Tx, stack: StackRecord, prefix: string): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  const children = new Map((await tx.stacks.children(stack.id)).map((c) => [c.id, c]));
  for (const row of await tx.resources.listActive(stack.id)) {
    const hook = pendingHook(row);
    if (hook) out.push({ resource_name: `${prefix}${row.name}`, pending_hook: hook, stack_name: stack.name });
    const child = row.physicalId ? children.get(row.physicalId) : undefined;
    if (child) out.push(...(await waiting(tx, child, `${prefix}${row.name}/`)));
  }
  return out;
}
