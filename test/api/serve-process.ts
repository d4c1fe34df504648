import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `hearth serve` as a child process (`node --import tsx src/cli/index.ts <args>`, so `--port 0`
 * picks a free port): resolves with the URL of its "listening on" line, e.g.
 * `startServe(['--db', file, 'serve', '--auth', 'noauth', '--port', '0'])`. `stop` ends it with
 * SIGTERM (SIGKILL after 5 s) and waits for it to exit.
 */
export function startServe(args: readonly string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let listening = false;
  return new Promise((resolve, reject) => {
    // Both streams are read to the end, so the child never blocks on a full pipe.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (listening) return;
      output += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (!found) return;
      listening = true;
      resolve({ url: found[1]!, stop: () => stop(child) });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (!listening) output += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`hearth serve exited (${code}) before listening:\n${output}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
