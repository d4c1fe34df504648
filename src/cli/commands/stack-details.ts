import type { Command } from 'commander';
import type { Backend } from '../backend.js';
import { withBackend } from '../open-backend.js';
import { columnOption } from '../columns.js';
import { show } from '../output.js';
import { waitDisplay } from '../progress.js';
import { eventView, resourceDetailView, resourceView } from '../views.js';
import { registerSignalCommand } from './signal.js';

type Print = (s: string) => void;

interface FormatOptions {
  format: string;
}

function nestedDepth(value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`--nested-depth must be a whole number, got "${value}"`);
  return Number(value);
}

/** `stack resource|output|event|template ...`: what a stack is made of and what happened to it. */
export function registerStackDetails(stack: Command, program: Command, print: Print): void {
  const run = <T>(fn: (backend: Backend) => Promise<T>) => withBackend(program, print, fn);

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
    .addOption(columnOption())
    .action(async (name: string, opts: FormatOptions & { nestedDepth?: number }) => {
      const depth = opts.nestedDepth ?? 0;
      const rows = await run(async (backend) => backend.resources(await backend.findStack(name), depth));
      show(
        print,
        opts,
        rows.map((r) => resourceView(r, depth > 0)),
      );
    });
  resource
    .command('show <stack> <resource>')
    .description('Show one resource, with its attributes')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (name: string, resourceName: string, opts: FormatOptions) => {
      const row = await run(async (backend) => backend.resource(await backend.findStack(name), resourceName));
      show(print, opts, resourceDetailView(row));
    });

  registerSignalCommand(resource, run);

  resource
    .command('mark-unhealthy <stack> <resource> [reason]')
    .description('Mark a resource unhealthy: the next update replaces it')
    .action(async (name: string, resourceName: string, reason: string | undefined) => {
      await run(async (backend) =>
        backend.markUnhealthy(await backend.findStack(name), resourceName, reason ?? ''),
      );
    });

  const output = stack.command('output').description("A stack's outputs");
  output
    .command('list <stack>')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (name: string, opts: FormatOptions) => {
      const outputs = await run(async (backend) => backend.outputs(await backend.findStack(name), false));
      show(
        print,
        opts,
        outputs.map((o) => ({ output_key: o.output_key, description: o.description })),
      );
    });
  output
    .command('show <stack> [output]')
    .option('--all', 'every output')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (name: string, key: string | undefined, opts: FormatOptions & { all?: boolean }) => {
      await run(async (backend) => {
        const found = await backend.findStack(name);
        if (opts.all || key === undefined) {
          const all: Record<string, unknown> = {};
          for (const o of await backend.outputs(found, true)) all[o.output_key] = o;
          show(print, opts, all);
          return;
        }
        show(print, opts, { ...(await backend.output(found, key)) });
      });
    });

  const event = stack.command('event').description("A stack's events");
  event
    .command('list <stack>')
    .option(
      '--follow',
      'keep printing new events until the operation ends (with --url: polled about every second)',
    )
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (name: string, opts: FormatOptions & { follow?: boolean }) => {
      await run(async (backend) => {
        const found = await backend.findStack(name);
        if (opts.follow) {
          await backend.waitForStack(found, waitDisplay());
          return;
        }
        show(print, opts, (await backend.events(found)).map(eventView));
      });
    });

  const template = stack.command('template').description("A stack's template");
  template
    .command('show <stack>')
    .description('Print the template as it was given (with --url: as the API returns it, in YAML)')
    .action(async (name: string) => {
      print(await run(async (backend) => backend.template(await backend.findStack(name))));
    });
}
