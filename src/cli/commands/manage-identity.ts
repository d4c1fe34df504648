import type { Command } from 'commander';
import {
  createProject,
  createUser,
  deleteProject,
  deleteUser,
  listProjects,
  listUsers,
  setProjectCloud,
  setUserEnabled,
} from '../../auth/index.js';
import type { Config } from '../../config/index.js';
import { loadCloudSettings } from '../../openstack/index.js';
import type { Store, UserRecord } from '../../store/contract.js';
import { cliConfig, type GlobalOptions, openConfiguredStore } from '../embedded.js';
import { columnOption } from '../columns.js';
import { show } from '../output.js';

type Print = (s: string) => void;
const collect = (value: string, previous: string[]) => [...previous, value];
const FORMAT = ['-f, --format <format>', 'table, json, yaml or value', 'table'] as const;

/** Runs `fn` on the configured store (its schema brought up to date), closing it after. */
export function storeRunner(program: Command) {
  return async <T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> => {
    const global = program.opts<GlobalOptions>();
    const config = cliConfig(global);
    const store = await openConfiguredStore(config, global);
    try {
      return await fn(store, config);
    } finally {
      await store.close();
    }
  };
}

/** `hearth manage project|user ...`: the projects and users of standalone authentication. */
export function registerIdentityCommands(manage: Command, program: Command, print: Print): void {
  const withStore = storeRunner(program);

  const project = manage.command('project').description('Projects of standalone authentication');
  project
    .command('create <name>')
    .description('Create a project; its id is what API URLs carry (/v1/<project_id>)')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (name: string, opts: { format: string }) => {
      const made = await withStore((store) => createProject(store, name));
      show(print, opts, { id: made.id, name: made.name });
    });
  project
    .command('list')
    .description('List projects')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (opts: { format: string }) => {
      const projects = await withStore((store) => listProjects(store));
      show(
        print,
        opts,
        projects.map((p) => ({ id: p.id, name: p.name, created_at: p.createdAt })),
      );
    });
  project
    .command('delete <project>')
    .description('Delete a project (name or id), its users and their tokens; refused while it owns stacks')
    .action(async (name: string) => {
      await withStore((store) => deleteProject(store, name));
    });

  project
    .command('set-cloud <project>')
    .description(
      "Give a project the cloud (of clouds.yaml, with the project's own credentials) its stacks act in; --clear takes it away",
    )
    .option('--os-cloud <name>', 'the cloud, by its name in clouds.yaml (read by every Hearth process)')
    .option('--clear', 'remove the project’s cloud')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (name: string, opts: { osCloud?: string; clear?: boolean; format: string }) => {
      if ((opts.osCloud === undefined) === (opts.clear !== true)) {
        throw new Error('give the cloud (--os-cloud NAME) or --clear, not both');
      }
      const cloud = opts.osCloud ?? null;
      // A cloud this clouds.yaml lacks is a mistake the servers would only meet at a resource's create.
      if (cloud !== null) {
        loadCloudSettings({ cloud, env: { OS_CLIENT_CONFIG_FILE: process.env.OS_CLIENT_CONFIG_FILE } });
      }
      const found = await withStore((store) => setProjectCloud(store, name, cloud));
      show(print, opts, { id: found.id, name: found.name, os_cloud: cloud });
    });

  const user = manage.command('user').description('Users of standalone authentication');
  user
    .command('create <name>')
    .description('Create a user in a project')
    .requiredOption('--project <project>', 'the project (name or id)')
    .option('--role <role>', 'a role (repeatable; "admin" may act on every project)', collect, [])
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (name: string, opts: { project: string; role: string[]; format: string }) => {
      const made = await withStore((store) => createUser(store, opts.project, name, opts.role));
      show(print, opts, {
        id: made.id,
        name: made.name,
        project_id: made.projectId,
        roles: made.roles.join(','),
      });
    });
  user
    .command('list')
    .description('List users, of one project or of all')
    .option('--project <project>', 'only this project’s (name or id)')
    .option(...FORMAT)
    .addOption(columnOption())
    .action(async (opts: { project?: string; format: string }) => {
      const users = await withStore((store) => listUsers(store, opts.project));
      show(
        print,
        opts,
        users.map((u) => ({
          id: u.id,
          name: u.name,
          project: u.projectName,
          roles: u.roles.join(','),
          enabled: u.disabledAt === null,
          created_at: u.createdAt,
        })),
      );
    });
  for (const [verb, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    user
      .command(`${verb} <project> <user>`)
      .description(
        enabled
          ? 'Enable a disabled user again: its tokens that are not revoked or expired work again'
          : 'Disable a user: the API refuses its tokens until it is enabled again',
      )
      .option(...FORMAT)
      .addOption(columnOption())
      .action(async (projectName: string, userName: string, opts: { format: string }) => {
        const changed = await withStore((store) => setUserEnabled(store, projectName, userName, enabled));
        show(print, opts, userView(changed));
      });
  }
  user
    .command('delete <project> <user>')
    .description('Delete a user and its tokens')
    .action(async (projectName: string, userName: string) => {
      await withStore((store) => deleteUser(store, projectName, userName));
    });
}

function userView(user: UserRecord): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    project_id: user.projectId,
    enabled: user.disabledAt === null,
    disabled_at: user.disabledAt,
  };
}
