import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/*
 * The newcomer test's commands: real processes in an environment like a newcomer's shell, each in
 * a process group of its own so that a step that overruns its ceiling (npm ci compiling SQLite,
 * say) is ended with everything it started, and what is still running when the test ends too.
 */

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the ceiling ended it. */
  timedOut: boolean;
  wallSeconds: number;
  /** CPU of the command and all it started (Linux; undefined elsewhere). */
  cpuSeconds: number | undefined;
}

/**
 * The test's own environment less what a newcomer's shell does not have: the suite's HEARTH_*
 * (HEARTH_BACKGROUND_ENGINE=false above all: the real default must apply), the variables of the
 * `npm test` and `node --test` around this file, and forced colours.
 */
export function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(HEARTH_|npm_)/i.test(key)) continue;
    if (['NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'FORCE_COLOR', 'INIT_CWD'].includes(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Groups of commands still running, by their leader's pid. */
const running = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Ends every command of this file still running (and what each started). */
export function killRunning(): void {
  for (const pid of running) killGroup(pid);
  running.clear();
}

/**
 * CPU time of this process's children that have been waited for, with everything they waited for
 * in turn (`cutime` + `cstime` of /proc/self/stat): a command's cost is the difference across it.
 */
function childrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of the whole line, in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs a command to its end, or to `timeoutMs`, when its whole process group is killed. */
export function runStep(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<StepResult> {
  const started = Date.now();
  const cpuBefore = childrenCpuSeconds();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid !== undefined) running.add(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) killGroup(child.pid);
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${command} did not start: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      const cpuAfter = childrenCpuSeconds();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        timedOut,
        wallSeconds: (Date.now() - started) / 1000,
        cpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      });
    });
  });
}

/** How a step went, for assertion messages: its command, exit, and the end of what it printed. */
export function describeStep(what: string, r: StepResult): string {
  const exit = r.timedOut ? 'was killed at its ceiling' : `exited ${r.code ?? r.signal}`;
  const tail = (text: string) => text.split('\n').slice(-40).join('\n');
  return `${what} ${exit} after ${r.wallSeconds.toFixed(0)} s\n--- stdout ---\n${tail(r.stdout)}\n--- stderr ---\n${tail(r.stderr)}`;
}

/** `12 s wall, 20 s CPU` for a diagnostic line. */
export function cost(r: StepResult): string {
  const cpu = r.cpuSeconds === undefined ? '' : `, ${r.cpuSeconds.toFixed(0)} s CPU`;
  return `${r.wallSeconds.toFixed(0)} s wall${cpu}`;
}
