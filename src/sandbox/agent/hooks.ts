import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Json, JsonObject } from '../../util/json.js';
import type { GroupPolicy } from '../noise.js';

/**
 * heat-config's hooks as the sandbox's guest runs them: `script` (heat-config-script: the config
 * written to a file and run with the inputs as environment variables, outputs read from
 * `$heat_outputs_path.<name>`), `component` (the config for the deploy action, then its tool's
 * hook), and every other group by the configured policy (succeed, fail, or a shell command run as
 * a script is). Children are spawned, never waited for synchronously.
 */

/** One entry of the metadata's `deployments`: a derived config (Heat's format_software_config). */
export interface DeployedConfig {
  id: string;
  name?: string;
  group?: string;
  config?: Json;
  inputs?: { name: string; type?: string; value?: Json }[];
  outputs?: { name: string }[];
}

/** What the hook reports, signalled back: Heat's deploy_* keys and the declared outputs. */
export type HookResult = JsonObject & {
  deploy_stdout: string;
  deploy_stderr: string;
  deploy_status_code: number;
};

/** Where a server's hooks keep their files, and the children running now (killed on stop). */
export interface HookSpace {
  dir: string;
  children: Set<ChildProcess>;
}

/** Each stream keeps at most this much (heat-config-notify trims a signal under 1 MB). */
const MAX_CAPTURE = 400_000;

export function inputValues(config: DeployedConfig): Record<string, Json> {
  const values: Record<string, Json> = {};
  for (const input of config.inputs ?? []) {
    if (typeof input?.name === 'string') values[input.name] = input.value ?? null;
  }
  return values;
}

/** An input's value as the hook puts it in the environment (structures as JSON). */
function envValue(value: Json | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function capture(chunks: Buffer[]): string {
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length > MAX_CAPTURE ? text.slice(text.length - MAX_CAPTURE) : text;
}

/** Runs a child to its end: stdout, stderr and its exit status (a signal's as Python's -N). */
function run(
  space: HookSpace,
  file: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string },
): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    // A group of its own: stopping the agent kills what the script started too.
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    space.children.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    let failed: Error | undefined;
    child.on('error', (error) => (failed = error));
    child.on('close', (code, signal) => {
      space.children.delete(child);
      const stderr = capture(err) + (failed ? `${failed.message}\n` : '');
      const status = code ?? (signal ? -(osSignals[signal] ?? 1) : 1);
      resolve({ stdout: capture(out), stderr, code: failed && code === null && !signal ? 1 : status });
    });
  });
}

const osSignals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Kills a hook's child and everything it started (its process group). */
export function killHook(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Reads `<outputsPath>.<name>` of each declared output that the run wrote. */
async function readOutputs(config: DeployedConfig, outputsPath: string): Promise<JsonObject> {
  const outputs: JsonObject = {};
  for (const output of config.outputs ?? []) {
    if (typeof output?.name !== 'string' || output.name.includes('/')) continue;
    try {
      outputs[output.name] = await readFile(`${outputsPath}.${output.name}`, 'utf8');
    } catch {
      // Not written: the output is absent, as the script hook leaves it.
    }
  }
  return outputs;
}

/** The environment a config runs with: a small base (never the sandbox's own) and the inputs. */
async function prepare(space: HookSpace, config: DeployedConfig) {
  const scripts = join(space.dir, 'scripts');
  const outputs = join(space.dir, 'outputs');
  await mkdir(scripts, { recursive: true, mode: 0o700 });
  await mkdir(outputs, { recursive: true, mode: 0o700 });
  const outputsPath = join(outputs, config.id);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: space.dir,
    LANG: 'C.UTF-8',
  };
  for (const [name, value] of Object.entries(inputValues(config))) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) env[name] = envValue(value);
  }
  env.heat_outputs_path = outputsPath;
  return { scripts, outputsPath, env };
}

async function runScript(space: HookSpace, config: DeployedConfig): Promise<HookResult> {
  const { scripts, outputsPath, env } = await prepare(space, config);
  const file = join(scripts, config.id);
  const text = typeof config.config === 'string' ? config.config : JSON.stringify(config.config ?? '');
  await writeFile(file, text, { mode: 0o700 });
  // A script without `#!` is run by the shell, as execvp falls back to it.
  const result = text.startsWith('#!')
    ? await run(space, file, [], { cwd: scripts, env })
    : await run(space, '/bin/sh', [file], { cwd: scripts, env });
  return {
    ...(await readOutputs(config, outputsPath)),
    deploy_stdout: result.stdout,
    deploy_stderr: result.stderr,
    deploy_status_code: result.code,
  };
}

async function runCommand(space: HookSpace, config: DeployedConfig, command: string): Promise<HookResult> {
  const { scripts, outputsPath, env } = await prepare(space, config);
  // The hook protocol: the deployment's JSON on stdin.
  const result = await run(space, '/bin/sh', ['-c', command], {
    cwd: scripts,
    env,
    stdin: JSON.stringify(config),
  });
  return {
    ...(await readOutputs(config, outputsPath)),
    deploy_stdout: result.stdout,
    deploy_stderr: result.stderr,
    deploy_status_code: result.code,
  };
}

/**
 * The config a `component` applies for its deploy action (its tool as the group), or undefined
 * when the component has none for it: heat-config then skips it and signals nothing.
 */
export function resolveComponent(config: DeployedConfig): DeployedConfig | undefined {
  if (config.group !== 'component') return config;
  const action = inputValues(config).deploy_action;
  const configs = (config.config as JsonObject | null)?.configs;
  if (!Array.isArray(configs)) return undefined;
  for (const item of configs as JsonObject[]) {
    if (Array.isArray(item?.actions) && item.actions.includes(action as Json)) {
      return { ...config, config: item.config ?? '', group: String(item.tool ?? 'script') };
    }
  }
  return undefined;
}

export const NO_POLICY: GroupPolicy = { policy: 'succeed' };

/** Applies a config (already resolved from a component) by its group. */
export async function applyConfig(
  space: HookSpace,
  config: DeployedConfig,
  policies: Record<string, GroupPolicy>,
): Promise<HookResult> {
  const group = config.group ?? 'Heat::Ungrouped';
  if (group === 'script') return runScript(space, config);
  const policy = policies[group] ?? policies['*'] ?? NO_POLICY;
  if (policy.policy === 'fail') {
    return {
      deploy_stdout: '',
      deploy_stderr: policy.message ?? `the sandbox agent fails ${group} configs (agentGroups policy)`,
      deploy_status_code: policy.status_code ?? 1,
    };
  }
  if (policy.policy === 'command' && policy.command) return runCommand(space, config, policy.command);
  return { deploy_stdout: '', deploy_stderr: '', deploy_status_code: 0 };
}
