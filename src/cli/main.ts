import { Command, CommanderError } from 'commander';
import { EMPTY_CATALOG, type TypeCatalog } from '../template/types.js';
import { registerTemplateCommands } from './commands/template.js';
import { describeError, EXIT_INVALID, EXIT_USAGE } from './errors.js';

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

const STDIO: CliIO = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
};

/** Builds the `hearth` command tree. */
export function buildProgram(io: CliIO = STDIO, types: TypeCatalog = EMPTY_CATALOG): Command {
  const program = new Command('hearth')
    .description('Hearth: orchestration of Heat templates on a convergence engine')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerTemplateCommands(program, types, io.out);
  for (const sub of program.commands) {
    sub.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
    for (const leaf of sub.commands)
      leaf.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  }
  return program;
}

/** Runs the CLI and returns the process exit code; never throws for user errors. */
export async function main(argv: string[], io: CliIO = STDIO): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    io.err(`Error: ${describeError(err)}\n`);
    return EXIT_INVALID;
  }
}
