import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliResult } from './helpers.js';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { until } from '../support/poll.js';

// End-to-end tests drive the real `hearth` command: a temporary directory holds the templates and
// the SQLite state, and every call is a new process, as a user at a terminal would run it.

export const T = 'OS::Heat::TestResource';

/** A row of `stack resource list -f json`. */
export interface ResourceRow {
  resource_name: string;
  physical_resource_id: string;
  resource_type: string;
  resource_status: string;
  resource_status_reason: string;
  /** With --nested-depth: the stack the row belongs to. */
  stack_name?: string;
}

/** A row of `stack event list -f json`. */
export interface EventRow {
  id: string;
  resource_name: string;
  physical_resource_id: string;
  resource_status: string;
  resource_status_reason: string;
}

/** `stack show -f json`. */
export interface StackView {
  id: string;
  stack_name: string;
  stack_status: string;
  stack_status_reason: string;
  disable_rollback: boolean;
  outputs: { output_key: string; output_value: unknown; description: string }[];
}

/** A `hearth` process left running in the background. */
export interface Background {
  /** Its exit code and everything it printed, once it has exited. */
  done: Promise<CliResult>;
}

/** Parses what a `-f json` command printed: the document alone (`--wait` logs to stderr then). */
export function parseJson<T = unknown>(stdout: string): T {
  try {
    return JSON.parse(stdout) as T;
  } catch (err) {
    assert.fail(`not one JSON document (${(err as Error).message}):\n${stdout}`);
  }
}

/** Directories made by this test process, removed when it exits (every command has ended by then). */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory with files and a state database, and `hearth` bound to that database. */
export class Workdir {
  readonly dir: string;
  readonly db: string;

  constructor(files: Record<string, string> = {}) {
    this.dir = mkdtempSync(join(tmpdir(), 'hearth-func-'));
    made.push(this.dir);
    this.db = join(this.dir, 'state.db');
    for (const [name, text] of Object.entries(files)) this.write(name, text);
  }

  write(name: string, text: string): void {
    writeFileSync(join(this.dir, name), text);
  }

  /**
   * Starts `hearth --db <db> ...args` in the directory (without `--db` when `args` begin with
   * `--url`; the command line of `hearth()` in
   * helpers.ts, but not blocking this process: tests of a file can run side by side, and a
   * command can be left running in the background while others are issued).
   */
  start(args: string[], timeoutMs = 90_000): Background {
    // A command for a server (`--url ...`) has no database of its own.
    const db = args[0] === '--url' ? [] : ['--db', this.db];
    const child = spawn(process.execPath, [...hearthNodeArgs(), ...db, ...args], {
      cwd: this.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const done = new Promise<CliResult>((res) =>
      child.on('close', (code) => res({ code: code ?? -1, stdout, stderr })),
    );
    return { done };
  }

  /** Runs `hearth --db <db> ...args` and waits for it to exit. */
  run(args: string[], timeoutMs?: number): Promise<CliResult> {
    return this.start(args, timeoutMs).done;
  }

  /** Runs a command that must succeed; returns its standard output. */
  async ok(args: string[], timeoutMs?: number): Promise<string> {
    const r = await this.run(args, timeoutMs);
    assert.equal(r.code, 0, `hearth ${args.join(' ')} exited ${r.code}:\n${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  /** Runs a command that must succeed with `-f json` and parses what it printed. */
  async json<T = unknown>(args: string[]): Promise<T> {
    return parseJson<T>(await this.ok([...args, '-f', 'json']));
  }

  /** `stack show`: the stack's fields and its outputs. */
  show(stack: string): Promise<StackView> {
    return this.json<StackView>(['stack', 'show', stack]);
  }

  /**
   * Runs an operation with `--wait` (create, update, adopt, suspend, resume) and `-f json`: the
   * status the stack ended in, as the command printed it (one `hearth` child, not two).
   */
  async finished(args: string[]): Promise<string> {
    return (await this.json<StackView>(args)).stack_status;
  }

  async status(stack: string): Promise<string> {
    return (await this.show(stack)).stack_status;
  }

  resources(stack: string, nestedDepth?: number): Promise<ResourceRow[]> {
    const depth = nestedDepth === undefined ? [] : ['--nested-depth', String(nestedDepth)];
    return this.json<ResourceRow[]>(['stack', 'resource', 'list', stack, ...depth]);
  }

  /** Physical ids by resource name. */
  async ids(stack: string): Promise<Record<string, string>> {
    return Object.fromEntries(
      (await this.resources(stack)).map((r) => [r.resource_name, r.physical_resource_id]),
    );
  }

  /** An attribute of a resource, from `stack resource show`. */
  async attribute(stack: string, resource: string, name = 'output'): Promise<unknown> {
    const shown = await this.json<{ attributes: Record<string, unknown> }>([
      'stack',
      'resource',
      'show',
      stack,
      resource,
    ]);
    return shown.attributes[name];
  }

  /** Every output's value, from `stack output show --all`. */
  async outputs(stack: string): Promise<Record<string, unknown>> {
    const all = await this.json<Record<string, { output_value: unknown }>>([
      'stack',
      'output',
      'show',
      stack,
      '--all',
    ]);
    return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.output_value]));
  }

  events(stack: string): Promise<EventRow[]> {
    return this.json<EventRow[]>(['stack', 'event', 'list', stack]);
  }

  /** Polls `probe` (which runs `hearth`) until it returns true; fails after `timeoutMs`. */
  async until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    await until(what, probe, { ceilingMs: timeoutMs });
  }
}

/** Statuses by resource name. */
export function statuses(rows: ResourceRow[]): Record<string, string> {
  return Object.fromEntries(rows.map((r) => [r.resource_name, r.resource_status]));
}

/** The statuses a resource (or the stack, by its name) went through, in the order of the event list. */
export function history(events: EventRow[], resource: string): string[] {
  return events.filter((e) => e.resource_name === resource).map((e) => e.resource_status);
}

/** The output values of `stack show`, by key. */
export function outputValues(view: StackView): Record<string, unknown> {
  return Object.fromEntries(view.outputs.map((o) => [o.output_key, o.output_value]));
}

/** `--parameter key=value` for each entry. */
export function params(values: Record<string, string | number | boolean>): string[] {
  return Object.entries(values).flatMap(([k, v]) => ['--parameter', `${k}=${v}`]);
}
