import type { Command } from 'commander';
import type { Engine } from '../../engine/engine.js';
import {
  migrateAll,
  migrateStack,
  type MigrationResult,
  type NotMigrated,
} from '../../engine/legacy/migrate.js';
import type { StackRecord } from '../../store/contract.js';
import { describeError } from '../errors.js';
import { type GlobalOptions, openEmbedded } from '../embedded.js';

type Print = (s: string) => void;

/**
 * `hearth manage migrate-convergence STACK | --all` (Heat's `heat-manage migrate_convergence_1`):
 * moves legacy stacks, with their nested stacks, to the convergence engine. An operator command:
 * stacks are found in every project.
 */
export function registerMigrateCommand(manage: Command, program: Command, print: Print): void {
  manage
    .command('migrate-convergence [stack]')
    .description(
      'Move a legacy stack (id or name), with its nested stacks, to the convergence engine; --all: every legacy stack',
    )
    .option('--all', 'migrate every legacy top-level stack and print counts')
    .action(async (stack: string | undefined, opts: { all?: boolean }) => {
      if (Boolean(opts.all) === (stack !== undefined)) {
        throw new Error('give either a stack (id or name) or --all');
      }
      const engine = await openEmbedded(program.opts<GlobalOptions>());
      try {
        if (opts.all) await migrateEvery(engine, print);
        else await migrateOne(engine, stack!, print);
      } finally {
        await engine.deps.store.close();
      }
    });
}

async function migrateOne(engine: Engine, nameOrId: string, print: Print): Promise<void> {
  const target = await findAnyStack(engine, nameOrId);
  const result = await migrateStack(engine.deps, engine.cache, target.id);
  if (!result) throw new Error(`stack "${nameOrId}" not found`);
  if (target.id !== result.root.id) {
    print(`stack ${label(target)} is nested in ${label(result.root)}: the whole tree is concerned\n`);
  }
  if (result.outcome === 'in_progress' || result.outcome === 'failed') throw new Error(notMigrated(result));
  print(`${describe(result)}\n`);
}

async function migrateEvery(engine: Engine, print: Print): Promise<void> {
  const summary = await migrateAll(engine.deps, engine.cache);
  for (const result of summary.migrated) print(`${describe(result)}\n`);
  for (const result of [...summary.inProgress, ...summary.failed]) print(`${notMigrated(result)}\n`);
  for (const { root, error } of summary.errors) {
    print(`stack ${label(root)} was not migrated: ${describeError(error)}\n`);
  }
  print(
    `migrated: ${summary.migrated.length}, skipped because in progress: ${summary.inProgress.length}, ` +
      `skipped because failed: ${summary.failed.length}, already convergence: ${summary.already}, ` +
      `errors: ${summary.errors.length}\n`,
  );
  if (summary.errors.length > 0) throw new Error(`${summary.errors.length} stack(s) could not be migrated`);
}

/** A stack by id, else by name in any project (a name must then be unambiguous). */
async function findAnyStack(engine: Engine, nameOrId: string): Promise<StackRecord> {
  const { byId, byName } = await engine.deps.store.tx(async (tx) => ({
    byId: await tx.stacks.get(nameOrId),
    byName: await tx.stacks.list({ name: nameOrId }),
  }));
  if (byId && !byId.deletedAt) return byId;
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    const projects = byName.map((s) => s.projectId).join(', ');
    throw new Error(`several stacks are named "${nameOrId}" (projects ${projects}): give the stack's id`);
  }
  throw new Error(`stack "${nameOrId}" not found`);
}

function describe(result: MigrationResult): string {
  if (result.outcome === 'already') {
    return `stack ${label(result.root)} already runs under the convergence engine: nothing changed`;
  }
  if (result.outcome !== 'migrated') return notMigrated(result);
  return (
    `stack ${label(result.root)} migrated to the convergence engine ` +
    `(${result.stacks} stack(s), ${result.resources} resource(s))`
  );
}

function notMigrated(result: NotMigrated): string {
  const which = result.stack.id === result.root.id ? 'it' : `its nested stack ${label(result.stack)}`;
  const state = `${result.stack.action}_${result.stack.status}`;
  return result.outcome === 'in_progress'
    ? `stack ${label(result.root)} was not migrated: ${which} is ${state}; run it again once that operation ends`
    : `stack ${label(result.root)} was not migrated: ${which} is ${state}; only a stack whose operations completed can be migrated`;
}

function label(stack: StackRecord): string {
  return `"${stack.name}" (${stack.id})`;
}
