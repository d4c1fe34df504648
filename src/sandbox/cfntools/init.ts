import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, posix, resolve, sep } from 'node:path';
import type { Json, JsonObject } from '../../util/json.js';
import { killHook } from '../agent/hooks.js';

/**
 * cfn-init's work on a sandbox guest (heat-cfntools' Metadata.cfn_init): the resource's
 * `AWS::CloudFormation::Init`, its configSets expanded, each config's sections in cfn-init's order
 * (packages, sources, groups, users, files, commands, services). Files are written under the
 * server's scratch root; commands follow a policy (recorded, run there, or failed); the other
 * sections are recorded only: the host is never changed.
 */

export type CommandPolicy = 'succeed' | 'run' | 'fail';

export interface InitSpace {
  /** The guest's `/`: every file goes under it. */
  root: string;
  policy: CommandPolicy;
  timeoutMs: number;
  children: Set<ChildProcess>;
}

export type FileRecord = {
  path: string;
  mode: string | null;
  owner: string | null;
  group: string | null;
  /** Bytes written (null: a `source` URL the sandbox does not fetch). */
  bytes: number | null;
  source: string | null;
};

export type CommandRecord = {
  config: string;
  name: string;
  command: Json;
  policy: CommandPolicy;
  /** The exit status (null: skipped: a missing cwd or a failed test). */
  status: number | null;
  output: string;
};

/** What one config's other sections asked for (nothing installed, started or created). */
export type RecordedSections = { config: string } & JsonObject;

export interface InitResult {
  status: 0 | 1;
  error: string | null;
  files: FileRecord[];
  commands: CommandRecord[];
  recorded: RecordedSections[];
}

const INIT_KEY = 'AWS::CloudFormation::Init';
const RECORDED = ['packages', 'sources', 'groups', 'users', 'services'] as const;
const MAX_OUTPUT = 4000;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** heat-cfntools' ConfigsetsHandler: the configs to process in order (none: `config` alone). */
export function executionList(
  configSets: Json | undefined,
  selected: string | undefined,
): string[] | undefined {
  if (!isObject(configSets) || Object.keys(configSets).length === 0) {
    if (selected) throw new Error('Template has no configSets');
    return undefined;
  }
  if (!selected && !('default' in configSets)) {
    throw new Error('Template has no default configSet, must specify');
  }
  const list: string[] = [];
  const expand = (items: Json | undefined, depth: number) => {
    if (depth > 20) throw new Error('invalid ConfigSets metadata');
    for (const item of Array.isArray(items) ? items : []) {
      if (isObject(item)) {
        const keys = Object.keys(item);
        if (keys.length !== 1 || keys[0] !== 'ConfigSet') throw new Error('invalid ConfigSets metadata');
        const name = String(item.ConfigSet);
        if (!(name in configSets)) throw new Error(`Undefined ConfigSet '${name}' referenced`);
        expand(configSets[name], depth + 1);
      } else list.push(String(item));
    }
  };
  for (const name of (selected ?? 'default').split(',').map((s) => s.trim())) {
    if (!(name in configSets)) throw new Error(`Requested configSet '${name}' not in configSets section`);
    expand(configSets[name], 0);
  }
  if (list.length === 0) throw new Error(`Requested configSet ${selected ?? 'default'} empty?`);
  return list;
}

/** A guest path under the scratch root (`..` stops at the guest's `/`, as it does there). */
export function guestPath(root: string, path: string): string {
  const base = resolve(root);
  const target = resolve(base, `.${posix.normalize(`/${path}`)}`);
  if (target !== base && !target.startsWith(base + sep)) throw new Error(`${path}: outside the guest`);
  return target;
}

async function applyFiles(space: InitSpace, files: Json | undefined, result: InitResult): Promise<void> {
  if (!isObject(files)) return;
  for (const [path, meta] of Object.entries(files)) {
    if (!isObject(meta)) continue;
    const text = (v: Json | undefined) => (v === undefined || v === null ? null : String(v));
    const mode = text(meta.mode);
    // int(mode, 8) as cfn-init reads it: a bad mode fails the run.
    if (mode !== null && !/^[0-7]+$/.test(mode.trim())) throw new Error(`invalid mode ${mode} for ${path}`);
    const record: FileRecord = {
      path,
      mode,
      owner: text(meta.owner),
      group: text(meta.group),
      bytes: null,
      source: null,
    };
    const target = guestPath(space.root, path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    if ('content' in meta) {
      const content = typeof meta.content === 'string' ? meta.content : JSON.stringify(meta.content, null, 4);
      // The recorded mode is the guest's; the host copy stays the sandbox's own to rewrite.
      await writeFile(target, content, { mode: 0o600 });
      record.bytes = Buffer.byteLength(content);
    } else if ('source' in meta) {
      record.source = String(meta.source);
    } else continue;
    result.files.push(record);
  }
}

function runShell(
  space: InitSpace,
  command: Json,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const argv = Array.isArray(command) ? command.map(String) : ['/bin/sh', '-c', String(command)];
  return new Promise((done) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: space.root, LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    space.children.add(child);
    let output = '';
    const keep = (b: Buffer) => (output = (output + b.toString('utf8')).slice(-MAX_OUTPUT));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n(killed after ${space.timeoutMs} ms)`;
      killHook(child);
    }, space.timeoutMs);
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      clearTimeout(timer);
      space.children.delete(child);
      done({ code: code ?? 1, output });
    });
  });
}

async function applyCommands(
  space: InitSpace,
  config: string,
  commands: Json | undefined,
  result: InitResult,
): Promise<void> {
  if (!isObject(commands)) return;
  // cfn-init runs them in the order of their names.
  for (const name of Object.keys(commands).sort()) {
    const props = commands[name];
    if (!isObject(props)) continue;
    const record: CommandRecord = {
      config,
      name,
      command: props.command ?? null,
      policy: space.policy,
      status: null,
      output: '',
    };
    result.commands.push(record);
    const env: Record<string, string> = {};
    if (isObject(props.env)) for (const [k, v] of Object.entries(props.env)) env[k] = String(v);
    let cwd = space.root;
    if (props.cwd !== undefined) {
      cwd = guestPath(space.root, String(props.cwd));
      if (space.policy === 'run' && !existsSync(cwd)) {
        record.output = `${String(props.cwd)} path does not exist`;
        continue;
      }
    }
    if (props.command === undefined) {
      record.output = "'command' property missing";
      continue;
    }
    if (space.policy === 'run') {
      if (props.test !== undefined) {
        const test = await runShell(space, String(props.test), cwd, env);
        if (test.code !== 0) {
          record.output = 'test returns false, skipping command';
          continue;
        }
      }
      const ran = await runShell(space, props.command, cwd, env);
      record.status = ran.code;
      record.output = ran.output;
    } else {
      record.status = space.policy === 'fail' ? 1 : 0;
    }
    if (record.status !== 0 && !['true', 'yes', '1'].includes(String(props.ignoreErrors).toLowerCase())) {
      throw new Error(`${name} has failed.`);
    }
  }
}

/** cfn-init on `metadata` (the resource's whole metadata): status 1 with the error on any failure. */
export async function applyInit(
  space: InitSpace,
  metadata: Json | undefined,
  configsets: string | undefined,
): Promise<InitResult> {
  const result: InitResult = { status: 0, error: null, files: [], commands: [], recorded: [] };
  try {
    await mkdir(space.root, { recursive: true, mode: 0o700 });
    const init = isObject(metadata) ? metadata[INIT_KEY] : undefined;
    if (!isObject(init) || Object.keys(init).length === 0) throw new Error('invalid metadata');
    const list = executionList(init.configSets, configsets) ?? ['config'];
    for (const name of list) {
      const config = init[name];
      if (!isObject(config)) {
        throw new Error(`Could not find '${name}' set in template, may need to specify another set.`);
      }
      const recorded: RecordedSections = { config: name };
      for (const section of RECORDED) if (config[section] !== undefined) recorded[section] = config[section];
      if (Object.keys(recorded).length > 1) result.recorded.push(recorded);
      await applyFiles(space, config.files, result);
      await applyCommands(space, name, config.commands, result);
    }
  } catch (error) {
    result.status = 1;
    result.error = (error as Error).message;
  }
  return result;
}
