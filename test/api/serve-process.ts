import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';

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
  const child = spawn(process.execPath, [...hearthNodeArgs(), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', fd],
  });
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

/** A `hearth serve --auth noauth` child process on a fresh database and a port of its choosing. */
export async function startNoauthServe(): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-serve-'));
  try {
    const child = await startServe([
      '--db',
      join(dir, 'state.db'),
      'serve',
      '--auth',
      'noauth',
      '--port',
      '0',
    ]);
    return {
      url: child.url,
      async stop() {
        await child.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Why the real openstack client's tests cannot run here, or false when they can. CI installs the
 * client (.ci/run): there its absence fails the tests instead of skipping them.
 */
export async function openstackSkip(): Promise<string | false> {
  return OPENSTACK_CLIENT_SKIP;
}

/** Runs `openstack <args>` against the server, as project `admin` without authentication. */
export async function openstack(server: ServeProcess, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('openstack', args, {
    env: { ...process.env, OS_AUTH_TYPE: 'none', OS_ENDPOINT: `${server.url}/v1/admin` },
  });
  return stdout;
}

/** Pythons that may have python-heatclient: Debian's (the `openstack` client's), then the PATH's. */
const PYTHONS = ['/usr/bin/python3', 'python3'];

const pythonsFound = new Map<string, Promise<string | undefined>>();

/** The first Python that imports `module`, if any. */
function pythonWith(module: string): Promise<string | undefined> {
  let found = pythonsFound.get(module);
  if (!found) {
    found = (async () => {
      for (const python of PYTHONS) {
        try {
          await promisify(execFile)(python, ['-c', `import ${module}`]);
          return python;
        } catch {
          // Not this one.
        }
      }
      return undefined;
    })();
    pythonsFound.set(module, found);
  }
  return found;
}

const heatclientPython = () => pythonWith('heatclient.client');

/** Why heatclient's Python API cannot be driven here, or false when it can (CI: never skipped). */
export async function heatclientSkip(): Promise<string | false> {
  if (await heatclientPython()) return false;
  return process.env.CI === 'true' ? false : 'python-heatclient is not installed';
}

/** Why python-zaqarclient cannot be driven here, or false when it can (CI installs it: never skipped). */
export async function zaqarclientSkip(): Promise<string | false> {
  if (await pythonWith('zaqarclient.queues.v2.client')) return false;
  return process.env.CI === 'true' ? false : 'python-zaqarclient is not installed';
}

/** Runs the Python script `file` with `args` by the Python that has python-zaqarclient; its output. */
export async function runZaqarclientScript(file: string, args: string[]): Promise<string> {
  const python = (await pythonWith('zaqarclient.queues.v2.client')) ?? 'python3';
  const { stdout } = await promisify(execFile)(python, [file, ...args]);
  return stdout;
}

/**
 * Runs the Python script `file` with the server's project endpoint (project `admin`, noauth) as
 * its first argument, then `args`; resolves with what it prints.
 */
export async function runHeatclientScript(
  server: ServeProcess,
  file: string,
  args: string[] = [],
): Promise<string> {
  const python = (await heatclientPython()) ?? 'python3';
  const { stdout } = await promisify(execFile)(python, [file, `${server.url}/v1/admin`, ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** A request with a JSON body (when given) to `url`: its status and text. */
export async function jsonCall(
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}
