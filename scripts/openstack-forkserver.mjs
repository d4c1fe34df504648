// The real OpenStack clients for a test run, started once (test/support/openstack-forkserver/):
// a directory put first on the passes' PATH holds `openstack` and `heat`, which hand their command
// to a Python process that imported the clients once and forks one child a command. A command then
// costs about a tenth of a CPU second (shim and child) instead of 1.4; the suite runs hundreds.
// Until the server listens, and if it never does, the same names run the installed clients
// themselves (the shim execs them).
// HEARTH_TEST_REAL_OPENSTACK=1 leaves PATH alone: every command starts the installed client.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const HERE = resolve(import.meta.dirname, '..', 'test', 'support', 'openstack-forkserver');
const PYTHON = '/usr/bin/python3';
/** Debian's clients (what .ci/run installs); the shim runs these when there is no server. */
const CLIENTS = ['openstack', 'heat'].filter((name) => existsSync(`/usr/bin/${name}`));

/** Starts the server; `env` (PATH) for the passes and `stop()`. Without the clients: nothing. */
export function startOpenstackForkserver() {
  if (process.env.HEARTH_TEST_REAL_OPENSTACK === '1' || CLIENTS.length === 0 || !existsSync(PYTHON)) {
    return { env: {}, stop() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'hearth-osc-'));
  for (const name of CLIENTS) symlinkSync(join(HERE, 'shim.py'), join(dir, name));
  const server = spawn(PYTHON, [join(HERE, 'server.py'), join(dir, 'forkserver.sock')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  server.stderr.setEncoding('utf8').on('data', (text) => {
    if (errors.length < 10_000) errors += text;
  });
  server.on('error', () => undefined);
  // A run stopped by a signal or an exception leaves no server behind.
  process.on('exit', () => server.kill('SIGKILL'));
  return {
    env: { PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` },
    stop() {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      // What it said is worth seeing only if it said something (a request it could not read).
      if (errors.trim()) console.log(`\n===== openstack fork server =====\n${errors}`);
    },
  };
}
