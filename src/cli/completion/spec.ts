import type { Argument, Command, Option } from 'commander';

/*
 * The `hearth` command tree as shell completion needs it, read from the commander program, so a
 * command or option added anywhere is completed without touching the completion scripts.
 */

/** What a value is completed with: fixed words, file names, a stack's name, or nothing. */
export type ValueKind =
  { kind: 'words'; words: string[] } | { kind: 'file' } | { kind: 'stack' } | { kind: 'none' };

export interface OptionSpec {
  /** Its spellings, short then long: `-f`, `--format`. */
  flags: string[];
  description: string;
  /** Takes the next word as its value (`<value>`; an optional `[value]` takes none here). */
  takesValue: boolean;
  value: ValueKind;
  /** May be given again (collected into a list). */
  repeatable: boolean;
}

export interface ArgumentSpec {
  name: string;
  value: ValueKind;
  variadic: boolean;
}

export interface CommandSpec {
  /** The words from the program to this command: [] for the program, ['stack', 'create']. */
  path: string[];
  description: string;
  subcommands: CommandSpec[];
  options: OptionSpec[];
  args: ArgumentSpec[];
}

const HELP: OptionSpec = {
  flags: ['-h', '--help'],
  description: 'display help for command',
  takesValue: false,
  value: { kind: 'none' },
  repeatable: false,
};

/** The program's tree; commands named `__...` are the scripts' own helpers, not completed. */
export function completionSpec(cmd: Command, path: string[] = []): CommandSpec {
  return {
    path,
    description: firstLine(cmd.description()),
    subcommands: cmd.commands
      .filter((sub) => !sub.name().startsWith('__'))
      .map((sub) => completionSpec(sub, [...path, sub.name()])),
    options: [...cmd.options.filter((o) => !o.hidden).map(optionSpec), HELP],
    args: cmd.registeredArguments.map((a) => argumentSpec(path, a)),
  };
}

/** Every command of the tree, the program first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

function argumentSpec(path: string[], argument: Argument): ArgumentSpec {
  const value: ValueKind = namesAStack(path, argument.name())
    ? { kind: 'stack' }
    : (wordsOf(argument) ?? { kind: 'none' });
  return { name: argument.name(), value, variadic: argument.variadic };
}

function optionSpec(option: Option): OptionSpec {
  const flags = option.flags.split(/[\s,|]+/).filter((f) => f.startsWith('-'));
  const valueName = /<([^>]+)>/.exec(option.flags)?.[1] ?? '';
  return {
    flags,
    description: firstLine(option.description),
    takesValue: option.required,
    value: option.required ? valueKind(option, valueName) : { kind: 'none' },
    repeatable: option.variadic || Array.isArray(option.defaultValue),
  };
}

/** A description that is only a list of words (`table, json, yaml or value`) names the values. */
const WORD_LIST = /^[a-z][a-z0-9-]*(?:, [a-z][a-z0-9-]*)*(?:,? or [a-z][a-z0-9-]*)$/;

/** The values an option or argument lists: its choices, else its description's words. */
function wordsOf(of: Option | Argument): ValueKind | undefined {
  if (of.argChoices) return { kind: 'words', words: [...of.argChoices] };
  if (WORD_LIST.test(of.description)) return { kind: 'words', words: of.description.split(/,? (?:or )?/) };
  return undefined;
}

function valueKind(option: Option, valueName: string): ValueKind {
  return wordsOf(option) ?? (/file|path|dir/.test(valueName) ? { kind: 'file' } : { kind: 'none' });
}

/**
 * An argument naming an existing stack: any `<stack>`, and the `<name>` of the `stack`
 * subcommands other than those that make a new stack.
 */
function namesAStack(path: string[], argument: string): boolean {
  if (argument === 'stack') return true;
  const makesOne = ['create', 'adopt'].includes(path[1] ?? '');
  return path.length === 2 && path[0] === 'stack' && !makesOne && ['name', 'names'].includes(argument);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
