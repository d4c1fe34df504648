import { writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { timeoutProblem } from '../../engine/core/stack-timeout.js';
import type { Hook } from '../../template/environment/index.js';
import { loadEnvironments, loadStackInput, toFileUrl } from '../../template/loader.js';
import type { Backend, StackInfo } from '../backend.js';
import { withBackend } from '../open-backend.js';
import { columnOption } from '../columns.js';
import { type OutputOptions, show, tabular } from '../output.js';
import { waitDisplay } from '../progress.js';
import { stackListView, stackView } from '../views.js';
import { registerDriftCommands } from './drift.js';
import { registerHookCommands } from './hook.js';
import { renderPlan } from './plan.js';
import { createPreviewView, updatePreviewView } from './preview.js';
import { registerStackDetails } from './stack-details.js';
import { parameterFileValues, pollSeconds, withHooks } from './stack-input.js';
import { parseParameterArgs, readLocalFile } from './template.js';

type Print = (s: string) => void;

interface TemplateOptions {
  template?: string;
  environment: string[];
  parameter: string[];
  parameterFile: string[];
}

interface FormatOptions {
  format: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];
/** `--parameter` and `--parameter-file` values (a file's wins, as in heatclient). */
function parameterValues(opts: Omit<TemplateOptions, 'environment'>) {
  return { ...parseParameterArgs(opts.parameter), ...parameterFileValues(opts.parameterFile, opts.template) };
}

/** The template, environments and parameters; `hooks` set on the resources they name (`--pre-create`). */
function templateInput(opts: TemplateOptions, hooks?: { paths: string[]; hook: Hook }, lazy = false) {
  const input = loadStackInput(opts.template!, opts.environment, readLocalFile, undefined, lazy);
  const given = {
    ...input.environment,
    parameters: { ...input.environment.parameters, ...parameterValues(opts) },
  };
  const environment = hooks ? withHooks(given, hooks.paths, hooks.hook) : given;
  const { url, text, files, parsed } = input;
  return { url, text, files, environment, ...(parsed ? { parsed } : {}) };
}

/** A document named on the command line (the adopt file), with a clear error when unreadable. */
function readDocument(path: string): string {
  try {
    return readLocalFile(toFileUrl(path));
  } catch (err) {
    throw new Error(`cannot read "${path}": ${(err as Error).message}`);
  }
}

/** `-e` and `--parameter`, which every command taking a template accepts. */
const TIMEOUT_HELP = 'stack timeout in whole minutes (0: the default, stack_action_timeout)';

/** `--timeout`, read as Heat's API reads timeout_mins: 0 is the default, null here. */
function timeoutMinutes(text: string): number | null {
  const mins = /^\s*-?\d+\s*$/.test(text) ? Number(text) : NaN;
  if (mins === 0) return null;
  const problem = timeoutProblem(mins, '--timeout');
  if (problem) throw new InvalidArgumentError(problem);
  return mins;
}

function environmentOptions(cmd: Command): Command {
  return cmd
    .option('-e, --environment <file>', 'an environment file (repeatable)', collect, [])
    .option('--parameter <key=value>', 'a parameter value (repeatable)', collect, [])
    .option(
      '--parameter-file <key=file>',
      "a parameter whose value is the file's content (repeatable; a relative path is taken from the template's directory)",
      collect,
      [],
    );
}

/** What `--wait` shows: with --url, the stack's status and new events polled about every second. */
const WAIT_HELP =
  'run the operation to its end, showing progress (with --url: the status and events, no resource counts)';

/** `--wait` and `-f`, for commands that start an operation and print the stack. */
function operationOptions(cmd: Command): Command {
  return cmd
    .option('--wait', WAIT_HELP)
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption());
}

/** heatclient's breakpoints: a resource of a nested stack by its path, `parent/child` (fnmatch patterns allowed). */
const PRE_CREATE_HELP =
  'set a pre-create hook on this resource (repeatable; nested: parent/child; wildcards: group/*)';
const PRE_UPDATE_HELP =
  'set a pre-update hook on this resource (repeatable; nested: parent/child; wildcards: group/*)';

/** heatclient's `--poll`: --wait, polling at that interval (5 s when no value is given). */
const POLL_HELP =
  'as --wait, asking the server every this many seconds with --url (the embedded engine reports as it goes)';

function pollOption(): Option {
  return new Option('--poll [seconds]', POLL_HELP).preset('5').argParser(pollSeconds);
}

interface WaitOptions {
  wait?: boolean;
  poll?: number;
  format?: string;
}

/** The `--wait` (or `--poll`) display an operation runs with, or none. */
const waitFor = (opts: WaitOptions) =>
  opts.wait || opts.poll !== undefined
    ? { ...waitDisplay(true, opts.format), ...(opts.poll !== undefined ? { pollMs: opts.poll * 1000 } : {}) }
    : undefined;

/** Prints the stack an operation started on (or ended with, after --wait). */
function printStack(print: Print, output: string | OutputOptions, stack: StackInfo | undefined): void {
  if (stack) show(print, output, stackView(stack));
}

const OBSERVE_HELP =
  'read the live state of every resource every this many seconds, and record drift as events';
const HEAL_HELP =
  'with --observe: converge what drifted back (replace what went away or broke), within bounds';

interface ObserveOptions {
  observe?: number;
  heal?: boolean;
}

/** The observation `--observe` and `--heal` ask for (undefined: none, or 0 seconds). */
function observePolicy(opts: ObserveOptions): { intervalMs: number; heal: boolean } | undefined {
  if (opts.heal && opts.observe === undefined) throw new Error('--heal goes with --observe SECONDS');
  if (opts.observe === undefined) return undefined;
  if (!Number.isFinite(opts.observe) || opts.observe < 0)
    throw new Error(`--observe expects a number of seconds, not "${opts.observe}"`);
  return opts.observe === 0
    ? undefined
    : { intervalMs: Math.round(opts.observe * 1000), heal: opts.heal ?? false };
}

export function registerStackCommands(program: Command, print: Print): void {
  const stack = program.command('stack').description('Create and manage stacks');
  const run = <T>(fn: (backend: Backend) => Promise<T>) => withBackend(program, print, fn);

  const create = stack
    .command('create <name>')
    .description('Create a stack')
    .requiredOption('-t, --template <file>', 'the template file');
  operationOptions(
    environmentOptions(create)
      .option('--timeout <minutes>', TIMEOUT_HELP, timeoutMinutes)
      .option('--enable-rollback', 'roll back when the create fails')
      .option('--tags <tags>', 'comma-separated tags')
      .option('--observe <seconds>', OBSERVE_HELP, (v) => Number(v))
      .option('--heal', HEAL_HELP)
      .option('--pre-create <resource>', PRE_CREATE_HELP, collect, [])
      .option('--dry-run', 'show the resources the create would make, and create nothing')
      .addOption(pollOption()),
  ).action(
    async (
      name: string,
      opts: TemplateOptions &
        FormatOptions & {
          timeout?: number | null;
          enableRollback?: boolean;
          tags?: string;
          preCreate: string[];
          dryRun?: boolean;
        } & WaitOptions &
        ObserveOptions,
    ) => {
      const observe = observePolicy(opts);
      const request = {
        name,
        template: templateInput(opts, { paths: opts.preCreate, hook: 'pre-create' }),
        timeoutMins: opts.timeout ?? null,
        disableRollback: !opts.enableRollback,
        tags: opts.tags ? opts.tags.split(',') : [],
        ...(observe ? { observe } : {}),
      };
      await run(async (backend) => {
        if (opts.dryRun) {
          const resources = await backend.previewCreate(request);
          return show(print, opts, createPreviewView(name, resources, tabular(opts.format)));
        }
        printStack(print, opts, await backend.createStack(request, waitFor(opts)));
      });
    },
  );

  const adopt = stack
    .command('adopt <name>')
    .description(
      "Adopt a stack from an abandon document (Heat's or Hearth's `stack abandon`): its resources are taken over as they are, none is created",
    )
    .requiredOption('--adopt-file <file>', 'the abandon document (JSON or YAML)');
  operationOptions(
    environmentOptions(adopt)
      .option('--timeout <minutes>', TIMEOUT_HELP, timeoutMinutes)
      .option('--enable-rollback', 'roll back when the adopt fails'),
  ).action(
    async (
      name: string,
      opts: Omit<TemplateOptions, 'template'> &
        FormatOptions & {
          adoptFile: string;
          timeout?: number | null;
          enableRollback?: boolean;
          wait?: boolean;
        },
    ) => {
      const { environment, files } = loadEnvironments(opts.environment, readLocalFile);
      const request = {
        name,
        document: readDocument(opts.adoptFile),
        environment: {
          ...environment,
          parameters: { ...environment.parameters, ...parameterValues(opts) },
        },
        files,
        timeoutMins: opts.timeout ?? null,
        disableRollback: !opts.enableRollback,
      };
      await run(async (backend) => printStack(print, opts, await backend.adoptStack(request, waitFor(opts))));
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
      .option('--timeout <minutes>', TIMEOUT_HELP, timeoutMinutes)
      .option('--observe <seconds>', `${OBSERVE_HELP} (0: stop observing)`, (v) => Number(v))
      .option('--heal', HEAL_HELP)
      .option(
        '--converge',
        "compare with the resources' live state, not the stored one: what changed or went away outside Hearth is put back",
      )
      .option('--pre-update <resource>', PRE_UPDATE_HELP, collect, [])
      .option('--dry-run', 'show what the update would do to each resource, and change nothing')
      .option('--show-nested', 'with --dry-run: the resources of nested stacks too')
      .addOption(pollOption()),
  ).action(
    async (
      name: string,
      opts: TemplateOptions &
        FormatOptions & {
          existing?: boolean;
          rollback?: string;
          timeout?: number | null;
          preUpdate: string[];
          dryRun?: boolean;
          showNested?: boolean;
          converge?: boolean;
        } & WaitOptions &
        ObserveOptions,
    ) => {
      if (!opts.template && !opts.existing) throw new Error('stack update needs -t/--template or --existing');
      if (opts.showNested && !opts.dryRun) throw new Error('--show-nested goes with --dry-run');
      // With --existing alone the stored environment is kept as it is: no hook can be added to it.
      if (opts.preUpdate.length > 0 && !opts.template) throw new Error('--pre-update needs -t/--template');
      const hooks = { paths: opts.preUpdate, hook: 'pre-update' as const };
      const change = {
        // An update parses only what changed (engine/operations/partial-bind.ts): not the file here.
        ...(opts.template ? { template: templateInput(opts, hooks, true) } : {}),
        ...(opts.existing ? { parameters: parameterValues(opts) } : {}),
        ...(opts.rollback ? { disableRollback: opts.rollback !== 'enabled' } : {}),
        ...(opts.timeout !== undefined ? { timeoutMins: opts.timeout } : {}),
        ...(opts.converge ? { converge: true } : {}),
        ...(opts.observe !== undefined ? { observe: observePolicy(opts) ?? null } : {}),
      };
      await run(async (backend) => {
        const found = await backend.findStack(name);
        if (opts.dryRun) {
          const changes = await backend.previewUpdate(found, change, opts.showNested ?? false);
          return show(print, opts, updatePreviewView(changes, tabular(opts.format)));
        }
        printStack(print, opts, await backend.updateStack(found, change, waitFor(opts)));
      });
    },
  );

  // Hearth's own: the update's plan with property-level diffs (docs: README, `stack plan`).
  environmentOptions(
    stack
      .command('plan <name>')
      .description(
        'Show what an update would do: per resource its action, why a replacement, and the properties that change (old → new); changes nothing',
      )
      .option('-t, --template <file>', 'the new template')
      .option('--existing', 'reuse the stored template and environment, changing only the given parameters')
      .option('-f, --format <format>', 'table, json, yaml or value', 'table'),
  ).action(async (name: string, opts: TemplateOptions & FormatOptions & { existing?: boolean }) => {
    if (!opts.template && !opts.existing) throw new Error('stack plan needs -t/--template or --existing');
    const change = {
      ...(opts.template ? { template: templateInput(opts) } : {}),
      ...(opts.existing ? { parameters: parameterValues(opts) } : {}),
    };
    // Nested stacks' resources too, named from the parent (a group's members as `group.0`).
    const plan = await run(async (backend) =>
      backend.planUpdate(await backend.findStack(name), change, true),
    );
    print(renderPlan(plan, opts.format));
  });

  stack
    .command('delete <names...>')
    .description('Delete stacks')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--wait', WAIT_HELP)
    .addOption(pollOption())
    .action(async (names: string[], opts: { yes?: boolean } & WaitOptions) => {
      await run(async (backend) => {
        for (const name of names) {
          const found = await backend.findStack(name);
          const wait = waitFor(opts);
          await backend.deleteStack(found, wait);
          if (!wait) print(`Request to delete stack ${found.name} (${found.id}) has been accepted.\n`);
        }
      });
    });

  stack
    .command('list')
    .description('List stacks')
    // Heat's API calls it show_nested, the openstack client --nested.
    .option('--nested, --show-nested', 'include nested stacks, with the id of their parent')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (opts: FormatOptions & { showNested?: boolean }) => {
      const nested = opts.showNested === true;
      const stacks = await run((backend) => backend.listStacks(nested));
      show(
        print,
        opts,
        stacks.map((s) => stackListView(s, nested)),
      );
    });

  stack
    .command('show <name>')
    .description('Show a stack, with its outputs')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (name: string, opts: FormatOptions) => {
      await run(async (backend) => {
        const found = await backend.findStack(name);
        const outputs = await backend.outputs(found, true);
        show(print, opts, { ...stackView(found), outputs });
      });
    });

  stack
    .command('abandon <name>')
    .description("Print the stack's abandon document (Heat's format) and remove it, leaving its resources")
    .option('-O, --output-file <file>', 'write the document to this file instead')
    .action(async (name: string, opts: { outputFile?: string }) => {
      const document = await run(async (backend) => backend.abandonStack(await backend.findStack(name)));
      const text = `${JSON.stringify(document, null, 2)}\n`;
      if (opts.outputFile) writeFileSync(opts.outputFile, text);
      else print(text);
    });

  stack
    .command('cancel <name>')
    .description('Cancel a running update (rolling back) or create/update (--no-rollback)')
    .option('--no-rollback', 'stop without rolling back')
    .option(
      '--wait',
      'run the engine until the cancellation (and rollback) settles (with --url: poll the server)',
    )
    .action(async (name: string, opts: { rollback: boolean; wait?: boolean }) => {
      await run(async (backend) => {
        const found = await backend.findStack(name);
        // A cancel ends FAILED by design: not an error of the command.
        const final = await backend.cancelStack(
          found,
          opts.rollback,
          opts.wait ? waitDisplay(false) : undefined,
        );
        if (opts.wait) printStack(print, 'table', final);
        else {
          const action = found.status.slice(0, found.status.indexOf('_'));
          print(`Request to cancel the ${action} of stack ${found.name} has been accepted.\n`);
        }
      });
    });

  const visits = [
    ['check', "Check a stack's resources against their backends (the next update replaces failed ones)"],
    ['suspend', "Suspend a stack's resources (dependents first), nested stacks included"],
    ['resume', "Resume a suspended stack's resources (dependencies first), nested stacks included"],
  ] as const;
  for (const [visit, description] of visits) {
    stack
      .command(`${visit} <name>`)
      .description(description)
      .option('--wait', WAIT_HELP.replace('the operation', `the ${visit}`))
      .option('-f, --format <format>', 'table, json, yaml or value', 'table')
      .addOption(columnOption())
      .action(async (name: string, opts: FormatOptions & { wait?: boolean }) => {
        await run(async (backend) => {
          const found = await backend.findStack(name);
          printStack(print, opts, await backend.visitStack(found, visit, waitFor(opts)));
        });
      });
  }

  stack
    .command('run <name>')
    .description(
      "Run the engine until the stack's current operation ends (after an interruption); with --url, wait for it",
    )
    .action(async (name: string) => {
      await run(async (backend) => {
        const final = await backend.waitForStack(await backend.findStack(name), waitDisplay());
        printStack(print, 'table', final);
      });
    });

  registerStackDetails(stack, program, print);
  registerHookCommands(stack, program, print);
  registerDriftCommands(stack, run, print);
}
