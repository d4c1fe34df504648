import type { Command } from 'commander';
import { createProject, createToken, createUser } from '../../auth/index.js';
import { type GlobalOptions, openEmbedded } from '../embedded.js';
import { show } from '../output.js';
import { registerDbCommands } from './manage-db.js';
import { registerMigrateCommand } from './manage-migrate.js';
import { registerServiceCommands } from './manage-service.js';

type Print = (s: string) => void;
const collect = (value: string, previous: string[]) => [...previous, value];

/** `hearth manage ...`: operator tasks on the store: its schema, its engines, standalone identity. */
export function registerManageCommands(program: Command, print: Print): void {
  const manage = program.command('manage').description('Operator tasks on the store');
  registerDbCommands(manage, program, print);
  registerServiceCommands(manage, program, print);
  registerMigrateCommand(manage, program, print);
  const withStore = async <T>(fn: (engine: Awaited<ReturnType<typeof openEmbedded>>) => Promise<T>) => {
    const engine = await openEmbedded(program.opts<GlobalOptions>());
    try {
      return await fn(engine);
    } finally {
      await engine.deps.store.close();
    }
  };

  manage
    .command('project')
    .description('Projects of standalone authentication')
    .command('create <name>')
    .description('Create a project; its id is what API URLs carry (/v1/<project_id>)')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { format: string }) => {
      const project = await withStore((engine) => createProject(engine.deps.store, name));
      show(print, opts.format, { id: project.id, name: project.name });
    });

  manage
    .command('user')
    .description('Users of standalone authentication')
    .command('create <name>')
    .description('Create a user in a project')
    .requiredOption('--project <project>', 'the project (name or id)')
    .option('--role <role>', 'a role (repeatable; "admin" may act on every project)', collect, [])
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { project: string; role: string[]; format: string }) => {
      const user = await withStore((engine) => createUser(engine.deps.store, opts.project, name, opts.role));
      show(print, opts.format, {
        id: user.id,
        name: user.name,
        project_id: user.projectId,
        roles: user.roles.join(','),
      });
    });

  manage
    .command('token')
    .description('API tokens of standalone authentication')
    .command('create')
    .description('Create an API token for a user; it is shown once and stored only as a hash')
    .requiredOption('--project <project>', 'the project (name or id)')
    .requiredOption('--user <user>', 'the user (name or id)')
    .option('--expires-in <seconds>', 'lifetime in seconds (default: no expiry)')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (opts: { project: string; user: string; expiresIn?: string; format: string }) => {
      const ttl = opts.expiresIn === undefined ? undefined : Number(opts.expiresIn);
      if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) {
        throw new Error(`--expires-in must be a positive number of seconds, got "${opts.expiresIn}"`);
      }
      const made = await withStore((engine) =>
        createToken(engine.deps.store, opts.project, opts.user, ttl === undefined ? {} : { ttlSeconds: ttl }),
      );
      show(print, opts.format, {
        token: made.token,
        id: made.id,
        project_id: made.user.projectId,
        user_id: made.user.id,
        expires_at: made.expiresAt === null ? null : new Date(made.expiresAt).toISOString(),
      });
    });
}
