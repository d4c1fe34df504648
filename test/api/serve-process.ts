import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A `hearth serve --auth noauth` child process on a fresh database and a port of its choosing. */
export interface ServeProcess {
  /** e.g. `http://127.0.0.1:40123` */
  url: string;
  stop(): Promise<void>;
}

const STARTUP_MS = 30_000;

export async function startServe(): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-serve-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/index.ts',
      '--db',
      join(dir, 'state.db'),
      'serve',
      '--auth',
      'noauth',
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new Error(`hearth serve did not start: ${stderr}`)), STARTUP_MS);
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /listening on (\S+)/.exec(stdout);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`hearth serve exited (${code}): ${stderr}`));
      });
    });
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** SIGTERM (the server drains and exits), then SIGKILL if it has not gone within a few seconds. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Whether the real openstack client is installed (its tests are skipped where it is not). */
export async function hasOpenstackClient(): Promise<boolean> {
  try {
    await promisify(execFile)('openstack', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** Runs `openstack <args>` against the server, as project `admin` without authentication. */
export async function openstack(server: ServeProcess, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('openstack', args, {
    env: { ...process.env, OS_AUTH_TYPE: 'none', OS_ENDPOINT: `${server.url}/v1/admin` },
  });
  return stdout;
}
