import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { type Environment, type Hook, mergeRegistryInto } from '../../template/environment/index.js';
import {
  emptyRegistryData,
  emptyResourceEntry,
  type ResourceEntry,
} from '../../template/environment/types.js';

/*
 * What python-heatclient's `openstack stack create|update` adds to a stack's inputs on the client
 * side: parameters read from files (`--parameter-file`) and breakpoints (`--pre-create`,
 * `--pre-update`) written into the environment sent with the stack.
 */

/**
 * `--parameter-file KEY=FILE`: each parameter's value is the file's content, as it is (a final
 * newline kept). A relative FILE is taken from the template's directory, as heatclient resolves
 * it, or from the working directory when no template is given (`update --existing`). Content
 * that is not UTF-8 is sent base64-encoded, as heatclient does.
 */
export function parameterFileValues(
  pairs: readonly string[],
  templatePath: string | undefined,
  cwd: string = process.cwd(),
): Record<string, string> {
  const base = templatePath === undefined ? cwd : dirname(resolve(cwd, templatePath));
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      throw new Error(`--parameter-file expects KEY=FILE, got "${pair}"`);
    }
    const key = pair.slice(0, eq);
    const file = pair.slice(eq + 1);
    let bytes: Buffer;
    try {
      bytes = readFileSync(resolve(base, file));
    } catch (err) {
      throw new Error(`--parameter-file ${key}: cannot read "${file}": ${(err as Error).message}`);
    }
    Object.defineProperty(values, key, {
      value: fileText(bytes),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return values;
}

/** The file as text, or (not UTF-8) as Python's base64.encodebytes writes it: lines of 76. */
function fileText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return (bytes.toString('base64').match(/.{1,76}/g) ?? []).map((line) => `${line}\n`).join('');
  }
}

/** `--poll [SECONDS]`: a whole number of seconds above 0. */
export function pollSeconds(text: string): number {
  if (!/^\s*\+?\d+\s*$/.test(text) || Number(text) <= 0) {
    throw new InvalidArgumentError('expected a whole number of seconds above 0');
  }
  return Number(text);
}

/**
 * The environment with `hook` set on each resource `paths` name, as heatclient's hooks_to_env
 * writes `resource_registry: resources: {name: {hooks: ...}}`: a resource of a nested stack is
 * named by its path, `parent/child` (segments may be fnmatch patterns: `group/*`). Hooks the
 * environment already sets on the same entry are kept (heatclient would replace them).
 */
export function withHooks(environment: Environment, paths: readonly string[], hook: Hook): Environment {
  if (paths.length === 0) return environment;
  const overlay = emptyRegistryData();
  for (const path of paths) {
    const names = path.split('/').filter((name) => name !== '');
    if (names.length === 0) throw new Error(`--${hook} expects a resource name, got "${path}"`);
    let level = overlay.resources;
    let before: ReadonlyMap<string, ResourceEntry | null> | undefined =
      environment.resourceRegistry.resources;
    let entry = emptyResourceEntry();
    let existing: ResourceEntry | null | undefined;
    for (const name of names) {
      entry = level.get(name) ?? emptyResourceEntry();
      level.set(name, entry);
      level = entry.nested;
      existing = before?.get(name);
      before = existing?.nested;
    }
    entry.hooks = hookList(existing?.hooks, entry.hooks, hook);
  }
  const registry = emptyRegistryData();
  mergeRegistryInto(registry, environment.resourceRegistry);
  mergeRegistryInto(registry, overlay);
  return { ...environment, resourceRegistry: registry };
}

function hookList(...sets: (Hook | Hook[] | null | undefined)[]): Hook[] {
  return [...new Set(sets.flatMap((set) => (set == null ? [] : Array.isArray(set) ? set : [set])))];
}
