import type { Command } from 'commander';
import { cliConfig, type GlobalOptions, openConfiguredStore } from '../embedded.js';

/**
 * `hearth manage db sync`: creates or upgrades the store's schema, on SQLite or PostgreSQL (Heat's
 * `heat-manage db_sync`). Only the store is opened, without migrating, so the version before is
 * the database's own; concurrent syncs queue and the later ones find nothing to do.
 */
export function registerDbCommands(manage: Command, program: Command, print: (s: string) => void): void {
  manage
    .command('db')
    .description('The store’s schema')
    .command('sync')
    .description('Create or upgrade the schema of the store (--db, HEARTH_DB or the database option)')
    .action(async () => {
      const global = program.opts<GlobalOptions>();
      const store = await openConfiguredStore(cliConfig(global), global, { migrate: false });
      try {
        const before = await store.schemaVersion();
        const after = await store.migrate();
        print(`schema at version ${after} (was ${before}${before === after ? ': up to date' : ''})\n`);
      } finally {
        await store.close();
      }
    });
}
