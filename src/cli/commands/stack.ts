import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { abandonStack } from '../../engine/abandon.js';
import type { Engine } from '../../engine/engine.js';
import {
  cancelStack,
  checkStack,
  createStack,
  deleteStack,
  findStack,
  getResource,
  markUnhealthy,
  suspendOrResume,
  updateStack,
} from '../../engine/operations.js';
import { stackOutputs } from '../../engine/outputs.js';
import { previewStackCreate, previewStackUpdate } from '../../engine/preview.js';
import type { EventRecord, ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import { loadStackInput } from '../../template/loader.js';
import { localProject, withEngine } from '../embedded.js';
import { show, tabular } from '../output.js';
import { waitAndReport } from '../progress.js';
import { registerHookCommands } from './hook.js';
import { createPreviewView, updatePreviewView } from './preview.js';
import { registerSignalCommand } from './signal.js';
import { parseParameterArgs, readLocalFile } from './template.js';

type Print = (s: string) => void;

interface TemplateOptions {
  template?: string;
  environment: string[];
  parameter: string[];
}

interface FormatOptions {
  format: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];
function templateInput(opts: TemplateOptions) {
  const input = loadStackInput(opts.template!, opts.environment, readLocalFile);
  const environment = {
    ...input.environment,
    parameters: { ...input.environment.parameters, ...parseParameterArgs(opts.parameter) },
  };
  return { url: input.url, text: input.text, files: input.files, environment };
}

export function stackView(stack: StackRecord): Record<string, unknown> {
  return {
    id: stack.id,
    stack_name: stack.name,
    stack_status: `${stack.action}_${stack.status}`,
    stack_status_reason: stack.reason,
    creation_time: stack.createdAt,
    updated_time: stack.updatedAt,
    disable_rollback: stack.disableRollback,
    timeout_mins: stack.timeoutMins,
    parent: stack.parentId,
    tags: stack.tags,
  };
}

/** A row of `stack list`: Heat's list columns, and its `parent` when nested stacks are shown. */
function stackListView(stack: StackRecord, withParent: boolean): Record<string, unknown> {
  return {
    id: stack.id,
    stack_name: stack.name,
    stack_status: `${stack.action}_${stack.status}`,
    creation_time: stack.createdAt,
    updated_time: stack.updatedAt,
    ...(withParent ? { parent: stack.parentId } : {}),
  };
}

function resourceView(row: ResourceRecord): Record<string, unknown> {
  return {
    resource_name: row.name,
    physical_resource_id: row.physicalId ?? '',
    resource_type: row.type,
    resource_status: `${row.action}_${row.status}`,
    resource_status_reason: row.reason,
    updated_time: row.updatedAt ?? row.createdAt,
  };
}

function eventView(event: EventRecord): Record<string, unknown> {
  return {
    id: event.uuid,
    resource_name: event.resourceName,
    physical_resource_id: event.physicalId ?? '',
    resource_status: `${event.action}_${event.status}`,
    resource_status_reason: event.reason,
    event_time: event.createdAt,
  };
}

/** `-e` and `--parameter`, which every command taking a template accepts. */
function environmentOptions(cmd: Command): Command {
  return cmd
    .option('-e, --environment <file>', 'an environment file (repeatable)', collect, [])
    .option('--parameter <key=value>', 'a parameter value (repeatable)', collect, []);
}

/** `--wait` and `-f`, for commands that start an operation and print the stack. */
function operationOptions(cmd: Command): Command {
  return cmd
    .option('--wait', 'run the operation to its end, showing progress')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table');
}

/** Prints the stack an operation started on, after running it to its end when asked. */
async function reportOperation(
  engine: Engine,
  started: StackRecord,
  opts: FormatOptions & { wait?: boolean },
  print: Print,
): Promise<void> {
  const final = opts.wait ? await waitAndReport(engine, started.id, print) : started;
  show(print, opts.format, stackView(final ?? started));
}

export function registerStackCommands(program: Command, print: Print): void {
  const stack = program.command('stack').description('Create and manage stacks');

  const create = stack
    .command('create <name>')
    .description('Create a stack')
    .requiredOption('-t, --template <file>', 'the template file');
  operationOptions(
    environmentOptions(create)
      .option('--timeout <minutes>', 'stack timeout in minutes', (v) => Number(v))
      .option('--enable-rollback', 'roll back when the create fails')
      .option('--tags <tags>', 'comma-separated tags')
      .option('--dry-run', 'show the resources the create would make, and create nothing'),
  ).action(
    async (
      name: string,
      opts: TemplateOptions &
        FormatOptions & {
          timeout?: number;
          enableRollback?: boolean;
          tags?: string;
          wait?: boolean;
          dryRun?: boolean;
        },
    ) => {
      await withEngine(program, async (engine) => {
        const request = {
          name,
          projectId: localProject(),
          template: templateInput(opts),
          timeoutMins: opts.timeout ?? null,
          disableRollback: !opts.enableRollback,
          tags: opts.tags ? opts.tags.split(',') : [],
        };
        if (opts.dryRun) {
          const { resources } = previewStackCreate(engine.deps, engine.cache, request);
          return show(print, opts.format, createPreviewView(name, resources, tabular(opts.format)));
        }
        const created = await createStack(engine.deps, engine.cache, request);
        await reportOperation(engine, created, opts, print);
      });
    },
  );

  const update = stack
    .command('update <name>')
    .description('Update a stack (allowed while another operation runs: the newest wins)')
    .option('-t, --template <file>', 'the new template');
  operationOptions(
    environmentOptions(update)
      .option('--existing', 'reuse the stored template and environment, changing only the given parameters')
      .option('--rollback <mode>', 'enabled or disabled')
      .option('--timeout <minutes>', 'stack timeout in minutes', (v) => Number(v))
      .option('--dry-run', 'show what the update would do to each resource, and change nothing')
      .option('--show-nested', 'with --dry-run: the resources of nested stacks too'),
  ).action(
    async (
      name: string,
      opts: TemplateOptions &
        FormatOptions & {
          existing?: boolean;
          rollback?: string;
          timeout?: number;
          wait?: boolean;
          dryRun?: boolean;
          showNested?: boolean;
        },
    ) => {
      if (!opts.template && !opts.existing) throw new Error('stack update needs -t/--template or --existing');
      if (opts.showNested && !opts.dryRun) throw new Error('--show-nested goes with --dry-run');
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const request = {
          ...(opts.template ? { template: templateInput(opts) } : {}),
          ...(opts.existing ? { parameters: parseParameterArgs(opts.parameter) } : {}),
          ...(opts.rollback ? { disableRollback: opts.rollback !== 'enabled' } : {}),
          ...(opts.timeout !== undefined ? { timeoutMins: opts.timeout } : {}),
        };
        if (opts.dryRun) {
          const nested = opts.showNested ?? false;
          const changes = await previewStackUpdate(engine.deps, engine.cache, found.id, request, nested);
          return show(print, opts.format, updatePreviewView(changes, tabular(opts.format)));
        }
        const updated = await updateStack(engine.deps, engine.cache, found.id, request);
        await reportOperation(engine, updated, opts, print);
      });
    },
  );

  stack
    .command('delete <names...>')
    .description('Delete stacks')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--wait', 'run the operation to its end, showing progress')
    .action(async (names: string[], opts: { yes?: boolean; wait?: boolean }) => {
      await withEngine(program, async (engine) => {
        for (const name of names) {
          const found = await findStack(engine.deps, localProject(), name);
          await deleteStack(engine.deps, found.id);
          if (opts.wait) await waitAndReport(engine, found.id, print);
          else print(`Request to delete stack ${found.name} (${found.id}) has been accepted.\n`);
        }
      });
    });

  stack
    .command('list')
    .description('List stacks')
    // Heat's API calls it show_nested, the openstack client --nested.
    .option('--nested, --show-nested', 'include nested stacks, with the id of their parent')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (opts: FormatOptions & { showNested?: boolean }) => {
      await withEngine(program, async (engine) => {
        const filter = { projectId: localProject(), ...(opts.showNested ? {} : { parentId: null }) };
        const stacks = await engine.deps.store.tx((tx) => tx.stacks.list(filter));
        show(
          print,
          opts.format,
          stacks.map((s) => stackListView(s, opts.showNested === true)),
        );
      });
    });

  stack
    .command('show <name>')
    .description('Show a stack, with its outputs')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: FormatOptions) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const outputs = await stackOutputs(engine.deps, engine.cache, found);
        show(print, opts.format, { ...stackView(found), outputs });
      });
    });

  stack
    .command('abandon <name>')
    .description("Print the stack's abandon document (Heat's format) and remove it, leaving its resources")
    .option('-O, --output-file <file>', 'write the document to this file instead')
    .action(async (name: string, opts: { outputFile?: string }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const text = `${JSON.stringify(await abandonStack(engine.deps, found.id), null, 2)}\n`;
        if (opts.outputFile) writeFileSync(opts.outputFile, text);
        else print(text);
      });
    });

  stack
    .command('cancel <name>')
    .description('Cancel a running update (rolling back) or create/update (--no-rollback)')
    .option('--no-rollback', 'stop without rolling back')
    .option('--wait', 'run the engine until the cancellation (and rollback) settles')
    .action(async (name: string, opts: { rollback: boolean; wait?: boolean }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        await cancelStack(engine.deps, found.id, { rollback: opts.rollback });
        if (opts.wait) {
          const display = { tty: process.stderr.isTTY === true, failOnFailure: false };
          const final = await waitAndReport(engine, found.id, print, display);
          if (final) show(print, 'table', stackView(final));
        } else {
          print(`Request to cancel the ${found.action} of stack ${found.name} has been accepted.\n`);
        }
      });
    });

  stack
    .command('check <name>')
    .description("Check a stack's resources against their backends (the next update replaces failed ones)")
    .option('--wait', 'run the check to its end, showing progress')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: FormatOptions & { wait?: boolean }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const started = await checkStack(engine.deps, engine.cache, found.id);
        const final = opts.wait ? await waitAndReport(engine, started.id, print) : started;
        show(print, opts.format, stackView(final ?? started));
      });
    });

  for (const [verb, action] of [
    ['suspend', 'SUSPEND'],
    ['resume', 'RESUME'],
  ] as const) {
    stack
      .command(`${verb} <name>`)
      .description(
        verb === 'suspend'
          ? "Suspend a stack's resources (dependents first), nested stacks included"
          : "Resume a suspended stack's resources (dependencies first), nested stacks included",
      )
      .option('--wait', `run the ${verb} to its end, showing progress`)
      .option('-f, --format <format>', 'table, json, yaml or value', 'table')
      .action(async (name: string, opts: FormatOptions & { wait?: boolean }) => {
        await withEngine(program, async (engine) => {
          const found = await findStack(engine.deps, localProject(), name);
          await reportOperation(engine, await suspendOrResume(engine.deps, found.id, action), opts, print);
        });
      });
  }

  stack
    .command('run <name>')
    .description("Run the engine until the stack's current operation ends (after an interruption)")
    .action(async (name: string) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const final = await waitAndReport(engine, found.id, print);
        if (final) show(print, 'table', stackView(final));
      });
    });

  registerStackDetails(stack, program, print);
  registerHookCommands(stack, program, print);
}

function nestedDepth(value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`--nested-depth must be a whole number, got "${value}"`);
  return Number(value);
}

/**
 * A stack's resources, each followed by those of its nested stack down to `depth` levels (as
 * Heat's resource list with nested_depth), with the name of the stack each belongs to.
 */
async function nestedResources(
  tx: Tx,
  stack: StackRecord,
  depth: number,
): Promise<[string, ResourceRecord][]> {
  const rows = await tx.resources.listActive(stack.id);
  const children = depth > 0 ? await tx.stacks.children(stack.id) : [];
  const out: [string, ResourceRecord][] = [];
  for (const row of rows) {
    out.push([stack.name, row]);
    const child = children.find((c) => c.id === row.physicalId && c.parentResource === row.name);
    if (child) out.push(...(await nestedResources(tx, child, depth - 1)));
  }
  return out;
}

function registerStackDetails(stack: Command, program: Command, print: Print): void {
  const resource = stack.command('resource').description("A stack's resources");
  resource
    .command('list <stack>')
    .description('List the resources of a stack')
    .option(
      '--nested-depth <depth>',
      'also list the resources of nested stacks this many levels down (adds a stack_name column)',
      nestedDepth,
    )
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: FormatOptions & { nestedDepth?: number }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        if (!opts.nestedDepth) {
          const rows = await engine.deps.store.tx((tx) => tx.resources.listActive(found.id));
          show(print, opts.format, rows.map(resourceView));
          return;
        }
        const rows = await engine.deps.store.tx((tx) => nestedResources(tx, found, opts.nestedDepth!));
        show(
          print,
          opts.format,
          rows.map(([stackName, row]) => ({ ...resourceView(row), stack_name: stackName })),
        );
      });
    });
  resource
    .command('show <stack> <resource>')
    .description('Show one resource, with its attributes')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, resourceName: string, opts: FormatOptions) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const row = await getResource(engine.deps, found, resourceName);
        const read = engine.deps.plugins.typeCatalog.get(row.type)?.readAttribute;
        const attributes = read?.(row.attributes, undefined) ?? row.attributes;
        show(print, opts.format, { ...resourceView(row), attributes, required_by: [] });
      });
    });

  registerSignalCommand(resource, program);

  resource
    .command('mark-unhealthy <stack> <resource> [reason]')
    .description('Mark a resource unhealthy: the next update replaces it')
    .action(async (name: string, resourceName: string, reason: string | undefined) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        await markUnhealthy(engine.deps, found.id, resourceName, reason ?? '');
      });
    });

  const output = stack.command('output').description("A stack's outputs");
  output
    .command('list <stack>')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: FormatOptions) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const outputs = await stackOutputs(engine.deps, engine.cache, found);
        show(
          print,
          opts.format,
          outputs.map((o) => ({ output_key: o.output_key, description: o.description })),
        );
      });
    });
  output
    .command('show <stack> [output]')
    .option('--all', 'every output')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, key: string | undefined, opts: FormatOptions & { all?: boolean }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const outputs = await stackOutputs(engine.deps, engine.cache, found);
        if (opts.all || key === undefined) {
          const all: Record<string, unknown> = {};
          for (const o of outputs) all[o.output_key] = o;
          show(print, opts.format, all);
          return;
        }
        const one = outputs.find((o) => o.output_key === key);
        if (!one) throw new Error(`output "${key}" not found in stack "${found.name}"`);
        show(print, opts.format, { ...one });
      });
    });

  const event = stack.command('event').description("A stack's events");
  event
    .command('list <stack>')
    .option('--follow', 'keep printing new events until the operation ends')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: FormatOptions & { follow?: boolean }) => {
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        if (opts.follow) {
          await waitAndReport(engine, found.id, print);
          return;
        }
        const events = await engine.deps.store.tx((tx) => tx.events.list(found.id));
        show(print, opts.format, events.map(eventView));
      });
    });

  const template = stack.command('template').description("A stack's template");
  template.command('show <stack>').action(async (name: string) => {
    await withEngine(program, async (engine) => {
      const found = await findStack(engine.deps, localProject(), name);
      const record = found.templateId
        ? await engine.deps.store.tx((tx) => tx.templates.get(found.templateId!))
        : undefined;
      print(record?.template ?? '');
    });
  });
}
