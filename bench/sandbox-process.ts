// The sandbox cloud for a benchmark: `hearth sandbox serve` in a child process (its CPU apart from
// the engine's), or in this process; and the out-of-band changes a benchmark makes through it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createSandbox, sandboxClientEnv } from '../src/sandbox/index.js';

const fromSource = import.meta.url.endsWith('.ts');
const CLI = fileURLToPath(new URL(`../src/cli/index.${fromSource ? 'ts' : 'js'}`, import.meta.url));

export interface BenchSandbox {
  /** The OS_* variables of user demo. */
  env: Record<string, string>;
  /** Renames a network as its owner would, through the network API. */
  rename(networkId: string, name: string): Promise<void>;
  /** Deletes a network behind the API's back (the sandbox's admin action). */
  deleteNetwork(networkId: string): Promise<void>;
  setNoise(noise: Record<string, unknown>): Promise<void>;
  /** CPU time the cloud has used (the child's; NaN when it shares this process). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export async function startSandbox(inProcess: boolean): Promise<BenchSandbox> {
  let url: string;
  let child: ChildProcess | undefined;
  let close: () => Promise<void>;
  if (inProcess) {
    const { app } = createSandbox();
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = () => app.close();
  } else {
    const started = spawn(process.execPath, [CLI, 'sandbox', 'serve', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = started;
    process.on('exit', () => started.kill('SIGKILL'));
    url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: started.stdout }).on('line', (line) => {
        const found = /listening on (\S+)/.exec(line);
        if (found) resolve(found[1]!);
      });
      started.on('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
    });
    close = async () => {
      started.kill('SIGTERM');
      await once(started, 'exit');
    };
  }
  const env = sandboxClientEnv(url);
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  let token: string | undefined;
  const demoToken = async () => {
    const auth = {
      identity: {
        methods: ['password'],
        password: { user: { name: 'demo', domain: { name: 'Default' }, password: 'demo' } },
      },
      scope: { project: { name: 'demo', domain: { name: 'Default' } } },
    };
    token ??= (await call('POST', '/identity/v3/auth/tokens', { auth })).headers.get('x-subject-token')!;
    return token;
  };
  return {
    env,
    async rename(networkId, name) {
      await call(
        'PUT',
        `/network/v2.0/networks/${networkId}`,
        { network: { name } },
        {
          'X-Auth-Token': await demoToken(),
        },
      );
    },
    async deleteNetwork(networkId) {
      await call('POST', `/admin/network/${networkId}/delete`, {});
    },
    async setNoise(noise) {
      await call('PUT', '/admin/noise', noise);
    },
    cpuSeconds() {
      if (!child?.pid) return NaN;
      try {
        // utime and stime, in clock ticks (100 a second on Linux), after the command's name.
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return NaN;
      }
    },
    stop: () => close(),
  };
}
