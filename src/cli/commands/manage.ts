import type { Command } from 'commander';
import { createProject, createToken, createUser, setProjectCloud } from '../../auth/index.js';
import { loadCloudSettings } from '../../openstack/index.js';
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

  const project = manage.command('project').description('Projects of standalone authentication');
  project
    .command('create <name>')
    .description('Create a project; its id is what API URLs carry (/v1/<project_id>)')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { format: string }) => {
      const project = await withStore((engine) => createProject(engine.deps.store, name));
      show(print, opts.format, { id: project.id, name: project.name });
    });

  project
    .command('set-cloud <project>')
    .description(
      "Give a project the cloud (of clouds.yaml, with the project's own credentials) its stacks act in; --clear takes it away",
    )
    .option('--os-cloud <name>', 'the cloud, by its name in clouds.yaml (read by every Hearth process)')
    .option('--clear', 'remove the project’s cloud')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { osCloud?: string; clear?: boolean; format: string }) => {
      if ((opts.osCloud === undefined) === (opts.clear !== true)) {
        throw new Error('give the cloud (--os-cloud NAME) or --clear, not both');
      }
      const cloud = opts.osCloud ?? null;
      // A cloud this clouds.yaml lacks is a mistake the servers would only meet at a resource's create.
      if (cloud !== null)
        loadCloudSettings({ cloud, env: { OS_CLIENT_CONFIG_FILE: process.env.OS_CLIENT_CONFIG_FILE } });
      const found = await withStore((engine) => setProjectCloud(engine.deps.store, name, cloud));
      show(print, opts.format, { id: found.id, name: found.name, os_cloud: cloud });
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
