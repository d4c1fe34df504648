import type { Command } from 'commander';
import type { Hook } from '../../template/environment/index.js';
import { withBackend } from '../open-backend.js';
import { columnOption } from '../columns.js';
import { show } from '../output.js';

type Print = (s: string) => void;

const HOOK_FLAGS = ['preCreate', 'preUpdate', 'preDelete'] as const;
const HOOK_OF = { preCreate: 'pre-create', preUpdate: 'pre-update', preDelete: 'pre-delete' } as const;

/**
 * `stack hook poll` and `stack hook clear` (Heat's breakpoints, src/engine/context/hooks.ts). A resource of
 * a nested stack is named by its path, `parent_resource/resource`, as the openstack client does.
 * With --url, pauses are found from the events, as the openstack client finds them.
 */
export function registerHookCommands(stack: Command, program: Command, print: Print): void {
  const hook = stack.command('hook').description('Resource breakpoints (hooks) set in the environment');
  hook
    .command('poll <stack>')
    .description('List the resources waiting at a hook, in the stack and its nested stacks')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (name: string, opts: { format: string }) => {
      const waiting = await withBackend(program, print, async (backend) =>
        backend.pendingHooks(await backend.findStack(name)),
      );
      const rows = waiting.map((w) => ({
        resource_name: w.path,
        pending_hook: w.hook,
        stack_name: w.stackName,
      }));
      show(print, opts, rows);
    });
  hook
    .command('clear <stack> <resources...>')
    .description('Clear the hooks resources wait at, so their stack operation goes on')
    .option('--pre-create', 'clear the pre-create hook')
    .option('--pre-update', 'clear the pre-update hook')
    .option('--pre-delete', 'clear the pre-delete hook')
    .action(
      async (name: string, paths: string[], opts: Partial<Record<(typeof HOOK_FLAGS)[number], boolean>>) => {
        const asked: Hook[] = HOOK_FLAGS.filter((flag) => opts[flag]).map((flag) => HOOK_OF[flag]);
        await withBackend(program, print, async (backend) => {
          const top = await backend.findStack(name);
          for (const path of paths) await backend.clearHooks(top, path, asked);
        });
      },
    );
}
