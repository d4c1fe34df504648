import { Command, CommanderError } from 'commander';
import { builtinPlugins, pluginCatalog } from '../resources/catalog.js';
import type { TypeCatalog } from '../template/types.js';
import { HEARTH_VERSION } from '../version.js';
import { registerCompletionCommands } from './commands/completion.js';
import { registerEngineCommand } from './commands/engine.js';
import { registerManageCommands } from './commands/manage.js';
import { registerSandboxCommands } from './commands/sandbox.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSoftwareCommands } from './commands/software.js';
import { registerStackCommands } from './commands/stack.js';
import { registerTemplateCommands } from './commands/template.js';
import { describeError, EXIT_INVALID, EXIT_USAGE } from './errors.js';
import { addTableOptions, setTableLayout, tableLayoutFor } from './output.js';
import { paint } from './terminal.js';

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

const STDIO: CliIO = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
};

/** Builds the `hearth` command tree; the type catalog (built-in plugins') only if a command needs it. */
export function buildProgram(io: CliIO = STDIO, types?: TypeCatalog): Command {
  let catalog = types;
  const typeCatalog = () => (catalog ??= pluginCatalog(builtinPlugins()).typeCatalog);
  const program = new Command('hearth')
    .description('Hearth: orchestration of Heat templates on a convergence engine')
    .version(HEARTH_VERSION)
    .option('--db <path|url>', 'the store: a SQLite file or a postgres:// URL (env HEARTH_DB)')
    .option('--config <file>', 'the configuration file (env HEARTH_CONFIG)')
    .option(
      '--url <url>',
      'talk to a Hearth (or Heat) server, http://host:port/v1/<project_id>, instead of the embedded engine (env HEARTH_URL; stack commands)',
    )
    .option(
      '--token <token>',
      'the API token sent as X-Auth-Token with --url (env HEARTH_TOKEN, which keeps it out of ps)',
    )
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerTemplateCommands(program, typeCatalog, io.out);
  registerStackCommands(program, io.out);
  registerSoftwareCommands(program, io.out);
  registerEngineCommand(program, io.out);
  registerServeCommand(program, io.out);
  registerManageCommands(program, io.out);
  registerSandboxCommands(program, io.out);
  registerCompletionCommands(program, io.out);
  // Commander's own errors (`error: unknown option`) get the red prefix ours have.
  const outputError = (text: string, write: (s: string) => void) =>
    write(io === STDIO ? text.replace(/^error:/, (prefix) => paint(process.stderr, 'red', prefix)) : text);
  const configure = (cmd: Command) => {
    cmd.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err, outputError });
    // Every command that prints tables (its `-f` defaults to table) takes cliff's width options.
    if (cmd.options.some((o) => o.long === '--format' && o.defaultValue === 'table')) addTableOptions(cmd);
    cmd.commands.forEach(configure);
  };
  program.configureOutput({ outputError });
  program.commands.forEach(configure);
  program.hook('preAction', (_program, action) => {
    setTableLayout(tableLayoutFor(action.opts(), io === STDIO ? process.stdout : undefined));
  });
  return program;
}

/** Exit status of a process a closed pipe stopped (SIGPIPE's 128 + 13), as for any Unix tool. */
const EXIT_PIPE = 141;

/**
 * `hearth ... | head`: once the reader is gone, stop quietly as a Unix tool does, rather than
 * print an unhandled EPIPE. The store needs nothing: whatever was under way is in the database.
 */
function stopOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(EXIT_PIPE);
    });
  }
}

/** Runs the CLI and returns the process exit code; never throws for user errors. */
export async function main(argv: string[], io: CliIO = STDIO): Promise<number> {
  if (io === STDIO) stopOnClosedPipe();
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    const prefix = io === STDIO ? paint(process.stderr, 'red', 'Error:') : 'Error:';
    io.err(`${prefix} ${describeError(err)}\n`);
    return EXIT_INVALID;
  }
}
