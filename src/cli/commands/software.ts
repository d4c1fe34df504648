import type { Command } from 'commander';
import { parse } from 'yaml';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import type { Backend } from '../backend.js';
import { withBackend } from '../open-backend.js';
import { show } from '../output.js';
import { readLocalFile } from './template.js';

type Print = (s: string) => void;
type Format = { format: string };

const FORMAT_HELP = 'table, json, yaml or value';
const CONFIG_COLUMNS = ['id', 'name', 'group', 'creation_time'];
const DEPLOYMENT_COLUMNS = ['id', 'config_id', 'server_id', 'action', 'status'];

const pick = (value: JsonObject, columns: string[]) =>
  Object.fromEntries(columns.map((c) => [c, value[c] ?? null]));

/**
 * `hearth software config|deployment ...`: Heat's software configs and deployments, as `openstack
 * software config|deployment` shows them (embedded or `--url`).
 */
export function registerSoftwareCommands(program: Command, print: Print): void {
  const run = <T>(fn: (backend: Backend) => Promise<T>) => withBackend(program, print, fn);
  const software = program.command('software').description('Software configs and deployments (Heat’s)');

  const config = software
    .command('config')
    .description('Software configs: immutable scripts or data for servers');
  config
    .command('list')
    .description('List the software configs')
    .option('-f, --format <format>', FORMAT_HELP, 'table')
    .action(async (opts: Format) => {
      const configs = await run((b) => b.listSoftwareConfigs());
      show(
        print,
        opts.format,
        configs.map((c) => pick(c, CONFIG_COLUMNS)),
      );
    });
  config
    .command('show <config>')
    .description('Show a software config')
    .option('--config-only', 'print only the config itself')
    .option('-f, --format <format>', FORMAT_HELP, 'table')
    .action(async (id: string, opts: Format & { configOnly?: boolean }) => {
      const shown = await run((b) => b.showSoftwareConfig(id));
      if (opts.configOnly) {
        const text = shown.config;
        print(`${typeof text === 'string' ? text : JSON.stringify(text, null, 2)}\n`);
        return;
      }
      show(print, opts.format, shown);
    });
  config
    .command('create <name>')
    .description('Create a software config')
    .option('--config-file <file>', 'the config itself: a script, a manifest')
    .option('--definition-file <file>', 'YAML or JSON with its inputs, outputs and options')
    .option('--group <group>', 'the tool that applies it (script, ansible, ...)', 'Heat::Ungrouped')
    .option('-f, --format <format>', FORMAT_HELP, 'table')
    .action(
      async (
        name: string,
        opts: Format & { configFile?: string; definitionFile?: string; group: string },
      ) => {
        const definition = opts.definitionFile === undefined ? {} : readDefinition(opts.definitionFile);
        const body: JsonObject = {
          name,
          group: opts.group,
          config: opts.configFile === undefined ? '' : readLocalFile(opts.configFile),
          inputs: definition.inputs ?? [],
          outputs: definition.outputs ?? [],
          options: definition.options ?? {},
        };
        show(print, opts.format, await run((b) => b.createSoftwareConfig(body)));
      },
    );
  config
    .command('delete <config...>')
    .description('Delete software configs')
    .action(async (ids: string[]) => {
      await run(async (b) => {
        for (const id of ids) await b.deleteSoftwareConfig(id);
      });
    });

  const deployment = software
    .command('deployment')
    .description('Software deployments: configs applied to servers');
  deployment
    .command('list')
    .description('List the software deployments')
    .option('--server <server>', 'only those of this server (its id)')
    .option('-f, --format <format>', FORMAT_HELP, 'table')
    .action(async (opts: Format & { server?: string }) => {
      const deployments = await run((b) => b.listSoftwareDeployments(opts.server));
      show(
        print,
        opts.format,
        deployments.map((d) => pick(d, DEPLOYMENT_COLUMNS)),
      );
    });
  deployment
    .command('show <deployment>')
    .description('Show a software deployment, its outputs too')
    .option('-f, --format <format>', FORMAT_HELP, 'table')
    .action(async (id: string, opts: Format) => {
      show(print, opts.format, await run((b) => b.showSoftwareDeployment(id)));
    });
  deployment
    .command('delete <deployment...>')
    .description('Delete software deployments and their configs (as `openstack software deployment delete`)')
    .action(async (ids: string[]) => {
      await run(async (b) => {
        for (const id of ids) {
          const { config_id: configId } = await b.showSoftwareDeployment(id);
          await b.deleteSoftwareDeployment(id);
          if (typeof configId === 'string') await b.deleteSoftwareConfig(configId).catch(() => undefined);
        }
      });
    });
  deployment
    .command('metadata <server>')
    .description("A server's deployments metadata: the configs of its deployments, as its agent reads them")
    .action(async (serverId: string) => {
      print(`${JSON.stringify(await run((b) => b.softwareMetadata(serverId)), null, 2)}\n`);
    });
}

function readDefinition(file: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = parse(readLocalFile(file));
  } catch (err) {
    throw new Error(`--definition-file ${file} is not valid YAML or JSON: ${(err as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (!isPlainObject(parsed)) throw new Error(`--definition-file ${file} must hold a map`);
  return parsed as JsonObject;
}
