import { type ChildProcess, spawn } from 'node:child_process';
import { REPO } from './helpers.js';
import { hearthNodeArgs } from '../support/hearth-command.js';

/** A `hearth serve` child process, listening. */
export interface ServeProcess {
  /** e.g. `http://127.0.0.1:40123` */
  readonly url: string;
  /** What it has written so far. */
  stdout(): string;
  stderr(): string;
  /** Sends `method url` with an optional token and JSON body; the answer's status and parsed body. */
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown },
  ): Promise<{ status: number; body: unknown; text: string }>;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s); its exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL at once: a crash (nothing handed back). */
  kill(): void;
}

/**
 * Starts the real `hearth` command with `args` (which should include `serve --port 0`) and waits
 * for its "listening" line. Rejects with its stderr if it exits first or takes over 30 s.
 */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...hearthNodeArgs(), ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hearth serve did not listen within 30 s; stderr:\n${err}`));
    }, 30_000);
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolveUrl(match[1]!);
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hearth serve exited (${code}) before listening; stderr:\n${err}`));
    });
  });

  return {
    url,
    stdout: () => out,
    stderr: () => err,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.token !== undefined) headers['x-auth-token'] = options.token;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        redirect: 'manual',
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, body, text };
    },
    stop: () => stop(child, exited),
    kill: () => void child.kill('SIGKILL'),
  };
}

async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** `hearth serve` for the real clients: its project, and the OS_* variables of each user. */
export interface ClientServe {
  server: ServeProcess;
  projectId: string;
  /** The variables that make `openstack` this user (a token of `hearth manage token create`). */
  envOf: Record<string, Record<string, string>>;
}

/**
 * On the workdir's store: project demo with `users` (by default alice, a member), then `hearth
 * serve` on a free port, and a token per user for the openstack client's admin_token mode.
 */
export async function serveForClients(
  w: { db: string; run: (args: string[]) => { code: number; stdout: string; stderr: string } },
  users: readonly { name: string; role?: string }[] = [{ name: 'alice' }],
): Promise<ClientServe> {
  const ok = (args: string[]) => {
    const r = w.run(args);
    if (r.code !== 0) throw new Error(`hearth ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout;
  };
  const projectId = (JSON.parse(ok(['manage', 'project', 'create', 'demo', '-f', 'json'])) as { id: string })
    .id;
  for (const { name, role } of users) {
    ok(['manage', 'user', 'create', name, '--project', 'demo', ...(role ? ['--role', role] : [])]);
  }
  const server = await startServe(['--db', w.db, 'serve', '--port', '0']);
  const envOf: Record<string, Record<string, string>> = {};
  for (const { name } of users) {
    const made = ok(['manage', 'token', 'create', '--project', 'demo', '--user', name, '-f', 'json']);
    envOf[name] = {
      OS_AUTH_TYPE: 'admin_token',
      OS_TOKEN: (JSON.parse(made) as { token: string }).token,
      OS_ENDPOINT: `${server.url}/v1/${projectId}`,
      OS_CLOUD: '',
    };
  }
  return { server, projectId, envOf };
}
