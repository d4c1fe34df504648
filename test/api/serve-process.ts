import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ServeProcess {
  /** What the server printed it listens on, e.g. `http://127.0.0.1:41234`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `hearth <args>` (e.g. `--db <file> serve --auth noauth --port 0`) as a child process and
 * resolves once it prints its "listening on" line. Its log goes to a file, not a pipe: a test
 * blocked in spawnSync would not drain a pipe, and the server would stall writing to it.
 */
export function startServe(args: string[]): Promise<ServeProcess> {
  const log = join(mkdtempSync(join(tmpdir(), 'hearth-serve-log-')), 'serve.log');
  const fd = openSync(log, 'w');
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), resolve(ROOT, 'src/cli/index.ts'), ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', fd] },
  );
  closeSync(fd);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  return new Promise((res, rej) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      output += s;
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url) res({ url, stop });
    });
    child.once('exit', (code) =>
      rej(new Error(`hearth serve exited ${code} before listening:\n${output}${readFileSync(log, 'utf8')}`)),
    );
  });
}
