import { posix } from 'node:path';
import { type Command, expandWord, parseScript, type Statement } from './shell.js';
import { TOOLS } from './options.js';

/**
 * A UserData script interpreted, never run: its heat-cfntools calls happen in script order and
 * feed `$?`, `||` and `&&` as they would; every other command (yum, service, mysqladmin, sed...)
 * is taken as done (status 0) without running. Functions (`error_exit`) are called with their
 * arguments; `exit` ends the script, `return` a function.
 */

export type ToolName = 'cfn-init' | 'cfn-signal' | 'cfn-hup' | 'cfn-get-metadata';

export interface ScriptHost {
  /** Runs a heat-cfntools command (its arguments expanded): its exit status. */
  tool(name: ToolName, args: string[]): Promise<number>;
  /** Any other command, expanded: its status (the host may notice e.g. `crontab FILE`). */
  other(words: string[]): Promise<number>;
  /** Whether to go on (false: the guest went away). */
  alive(): boolean;
}

class Exit {
  constructor(readonly status: number) {}
}
class Return {
  constructor(readonly status: number) {}
}

/** Which heat-cfntools command a command word names (`/opt/aws/bin/cfn-init`, `cfn-signal`). */
export function toolOf(word: string): ToolName | undefined {
  const name = posix.basename(word);
  return name in TOOLS ? (name as ToolName) : undefined;
}

export class ScriptRun {
  private status = 0;
  private readonly vars = new Map<string, string>();
  private readonly functions = new Map<string, Statement[]>();
  private positional: string[][] = [[]];

  constructor(private readonly host: ScriptHost) {}

  /** Runs the script: its exit status (the last command's, or `exit N`'s). */
  async run(script: string): Promise<number> {
    try {
      await this.block(parseScript(script));
    } catch (signal) {
      if (signal instanceof Exit) return signal.status;
      throw signal;
    }
    return this.status;
  }

  private lookup = (name: string): string | undefined => {
    if (name === '?') return String(this.status);
    const args = this.positional[this.positional.length - 1]!;
    if (name === '#') return String(args.length);
    if (name === '@' || name === '*') return args.join(' ');
    if (/^[0-9]+$/.test(name)) return name === '0' ? 'sh' : args[Number(name) - 1];
    return this.vars.get(name);
  };

  private async block(statements: Statement[]): Promise<void> {
    for (const statement of statements) {
      if (!this.host.alive()) throw new Exit(this.status);
      if (statement.kind === 'function') this.functions.set(statement.name, statement.body);
      else await this.list(statement.commands);
    }
  }

  private async list(commands: Command[]): Promise<void> {
    for (let i = 0; i < commands.length; i++) {
      const joined = i === 0 ? null : commands[i - 1]!.then;
      if (joined === '||' && this.status === 0) continue;
      if (joined === '&&' && this.status !== 0) continue;
      this.status = await this.command(commands[i]!.words);
    }
  }

  private async command(raw: string[]): Promise<number> {
    let words = raw;
    // Assignments: alone they set a variable; before a command they are its environment only.
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
      if (words.length === 1) {
        const eq = words[0]!.indexOf('=');
        this.vars.set(words[0]!.slice(0, eq), expandWord(words[0]!.slice(eq + 1), this.lookup));
        return 0;
      }
      words = words.slice(1);
    }
    const expanded = words.map((w) => expandWord(w, this.lookup));
    const [name = '', ...args] = expanded;
    if (name === 'exit') throw new Exit(args[0] !== undefined ? Number(args[0]) || 0 : this.status);
    if (name === 'return') throw new Return(args[0] !== undefined ? Number(args[0]) || 0 : this.status);
    if (name === 'true' || name === ':') return 0;
    if (name === 'false') return 1;
    const body = this.functions.get(name);
    if (body) return this.call(body, args);
    const tool = toolOf(name);
    if (tool) return this.host.tool(tool, args);
    return this.host.other(expanded);
  }

  private async call(body: Statement[], args: string[]): Promise<number> {
    if (this.positional.length > 50) return 1; // runaway recursion: the guest's shell would die
    this.positional.push(args);
    try {
      await this.block(body);
      return this.status;
    } catch (signal) {
      if (signal instanceof Return) return signal.status;
      throw signal;
    } finally {
      this.positional.pop();
    }
  }
}
