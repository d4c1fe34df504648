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
