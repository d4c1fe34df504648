import type { Command } from 'commander';
import { registerDbCommands } from './manage-db.js';
import { registerIdentityCommands } from './manage-identity.js';
import { registerMigrateCommand } from './manage-migrate.js';
import { registerServiceCommands } from './manage-service.js';
import { registerTokenCommands } from './manage-tokens.js';

type Print = (s: string) => void;

/** `hearth manage ...`: operator tasks on the store: its schema, its engines, standalone identity. */
export function registerManageCommands(program: Command, print: Print): void {
  const manage = program.command('manage').description('Operator tasks on the store');
  registerDbCommands(manage, program, print);
  registerServiceCommands(manage, program, print);
  registerMigrateCommand(manage, program, print);
  registerIdentityCommands(manage, program, print);
  registerTokenCommands(manage, program, print);
}
