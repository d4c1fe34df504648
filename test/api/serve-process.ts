import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServe } from '../cli/serve-process.js';

/** A `hearth serve --auth noauth` child process on a fresh database and a port of its choosing. */
export interface ServeProcess {
  /** e.g. `http://127.0.0.1:40123` */
  url: string;
  stop(): Promise<void>;
}

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
  try {
    await promisify(execFile)('openstack', ['--version']);
    return false;
  } catch {
    return process.env.CI === 'true' ? false : 'the openstack client is not installed';
  }
}

/** Runs `openstack <args>` against the server, as project `admin` without authentication. */
export async function openstack(server: ServeProcess, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('openstack', args, {
    env: { ...process.env, OS_AUTH_TYPE: 'none', OS_ENDPOINT: `${server.url}/v1/admin` },
  });
  return stdout;
}
