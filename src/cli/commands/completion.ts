import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { isPostgresUrl, openStore, sqliteFileOf } from '../../store/index.js';
import { bashScript } from '../completion/bash.js';
import { fishScript } from '../completion/fish.js';
import { completionSpec } from '../completion/spec.js';
import { zshScript } from '../completion/zsh.js';
import { cliConfig, configuredDatabase, type GlobalOptions, localProject } from '../embedded.js';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

function shell(name: string): keyof typeof SHELLS {
  if (!Object.hasOwn(SHELLS, name))
    throw new InvalidArgumentError(`expected ${Object.keys(SHELLS).join(', ')}`);
  return name as keyof typeof SHELLS;
}

/** `hearth completion SHELL`, and the hidden `__complete` its scripts call for stack names. */
export function registerCompletionCommands(program: Command, print: (s: string) => void): void {
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish (see README to install it)')
    .argument('<shell>', 'bash, zsh or fish', shell)
    .action((name: keyof typeof SHELLS) => {
      print(SHELLS[name](completionSpec(program)));
    });

  program
    .command('__complete', { hidden: true })
    .argument('<what>', 'stacks: the names of the top-level stacks')
    .action(async (what: string) => {
      if (what !== 'stacks') return;
      for (const name of await stackNames(program.opts())) print(`${name}\n`);
    });
}

/**
 * The top-level stacks' names for a completion: quietly none unless the store is a SQLite file
 * that exists. A TAB must never create a store, migrate one, nor wait on a server or a network.
 */
async function stackNames(opts: GlobalOptions & { url?: string }): Promise<string[]> {
  try {
    if (opts.url || process.env.HEARTH_URL) return [];
    const database = configuredDatabase(cliConfig(opts), opts);
    const file = sqliteFileOf(database);
    if (isPostgresUrl(database) || file === undefined || !existsSync(file)) return [];
    const store = await openStore(database, { migrate: false });
    try {
      const stacks = await store.tx((tx) => tx.stacks.list({ projectId: localProject(), parentId: null }));
      return stacks.map((s) => s.name);
    } finally {
      await store.close();
    }
  } catch {
    return [];
  }
}
