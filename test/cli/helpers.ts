import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hearthNodeArgs } from '../support/hearth-command.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `hearth` command in a child process, from the TypeScript sources; `env` adds variables. */
export function hearth(args: string[], cwd: string = ROOT, env: Record<string, string> = {}): CliResult {
  // tsx resolved from here, so the child finds it whatever its working directory.
  const r = spawnSync(process.execPath, [...hearthNodeArgs(), ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export const REPO = ROOT;

/** A fresh directory holding `files`, and a runner of `hearth` there on its own state file. */
export function workdir(files: Record<string, string>): {
  dir: string;
  db: string;
  run: (args: string[], env?: Record<string, string>) => CliResult;
} {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-stack-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const db = join(dir, 'state.db');
  return { dir, db, run: (args, env) => hearth(['--db', db, ...args], dir, env) };
}
