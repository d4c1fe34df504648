import { getOwn, isPlainObject, type Json, typeName } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import {
  emptyRegistryData,
  emptyResourceEntry,
  HOOK_TYPES,
  RESTRICTED_ACTIONS,
  type RegistryData,
  type ResourceEntry,
} from './types.js';
import { directoryBase, hasUrlScheme, isTemplateType, resolveTemplateUrl } from './urls.js';

/**
 * Where relative template paths are taken from: the environment file, or a `base_url`. Undefined
 * when templates are to stay as written (e.g. names in an API request's files map).
 */
type TemplateBase = string | undefined;

/** Reads `resource_registry`. Throws TemplateErrors with document paths; the caller adds positions. */
export function parseRegistry(value: Json, path: DocPath, base: TemplateBase): RegistryData {
  const registry = emptyRegistryData();
  if (!isPlainObject(value))
    throw new TemplateError('environment', `"resource_registry" must be a map, got ${typeName(value)}`, path);
  const baseUrl = getOwn(value, 'base_url');
  if (baseUrl !== undefined) registry.baseUrl = stringAt(baseUrl, [...path, 'base_url'], '"base_url"');
  const templateBase = withBaseUrl(base, registry.baseUrl);

  for (const [key, target] of Object.entries(value)) {
    const at = [...path, key];
    if (key === 'base_url') continue;
    if (key === 'resources') {
      if (!isPlainObject(target))
        throw new TemplateError('environment', `"resources" must be a map, got ${typeName(target)}`, at);
      parseEntries(target, at, templateBase, registry.resources);
    } else if (key === 'hooks' || key === 'restricted_actions') {
      throw new TemplateError(
        'environment',
        `"${key}" applies to resources: put it under "resources", in the entry for a resource name or pattern`,
        at,
      );
    } else {
      registry.mappings.set(key, parseTarget(target, at, templateBase));
    }
  }
  return registry;
}

function parseEntries(
  value: Record<string, Json>,
  path: DocPath,
  base: TemplateBase,
  into: Map<string, ResourceEntry | null>,
): void {
  for (const [name, body] of Object.entries(value)) {
    const at = [...path, name];
    if (body === null) into.set(name, null);
    else if (isPlainObject(body)) into.set(name, parseEntry(body, at, base));
    else
      throw new TemplateError(
        'environment',
        `the entry for resource "${name}" must be a map, got ${typeName(body)}`,
        at,
      );
  }
}

function parseEntry(body: Record<string, Json>, path: DocPath, inherited: TemplateBase): ResourceEntry {
  const entry = emptyResourceEntry();
  const baseUrl = getOwn(body, 'base_url');
  if (baseUrl !== undefined) entry.baseUrl = stringAt(baseUrl, [...path, 'base_url'], '"base_url"');
  const base = withBaseUrl(inherited, entry.baseUrl);

  for (const [key, value] of Object.entries(body)) {
    const at = [...path, key];
    if (key === 'base_url') continue;
    if (key === 'hooks') {
      entry.hooks = value === null ? null : parseNames(value, at, HOOK_TYPES, hookError);
    } else if (key === 'restricted_actions') {
      entry.restrictedActions =
        value === null ? null : parseNames(value, at, RESTRICTED_ACTIONS, restrictedError);
    } else if (isPlainObject(value)) {
      // A map is the entry for a resource of the nested stack (Heat's nested `resources` addressing).
      entry.nested.set(key, parseEntry(value, at, base));
    } else {
      entry.types.set(key, parseTarget(value, at, base));
    }
  }
  return entry;
}

/** A `base_url` replaces the inherited base; a relative one is itself taken from the inherited base. */
function withBaseUrl(inherited: TemplateBase, baseUrl: string | undefined): TemplateBase {
  if (inherited === undefined || baseUrl === undefined) return inherited;
  return directoryBase(resolveTemplateUrl(inherited, baseUrl));
}

function parseTarget(value: Json, path: DocPath, base: TemplateBase): string | null {
  if (value === null) return null;
  const target = stringAt(value, path, `the mapping for "${String(path[path.length - 1])}"`);
  if (base === undefined || !isTemplateType(target) || hasUrlScheme(target)) return target;
  // Like the Heat client, store the absolute URL, so merged environments from different
  // directories need no memory of where each entry came from.
  return resolveTemplateUrl(base, target);
}

function stringAt(value: Json, path: DocPath, what: string): string {
  if (typeof value !== 'string')
    throw new TemplateError('environment', `${what} must be a string, got ${typeName(value)}`, path);
  return value;
}

function parseNames<T extends string>(
  value: Json,
  path: DocPath,
  allowed: readonly T[],
  message: (value: string) => string,
): T | T[] {
  const check = (item: Json, at: DocPath): T => {
    if (typeof item !== 'string' || !(allowed as readonly string[]).includes(item)) {
      throw new TemplateError(
        'environment',
        message(typeof item === 'string' ? item : JSON.stringify(item)),
        at,
      );
    }
    return item as T;
  };
  if (Array.isArray(value)) return value.map((item, i) => check(item, [...path, i]));
  if (typeof value === 'string') return check(value, path);
  throw new TemplateError('environment', message(JSON.stringify(value)), path);
}

function hookError(value: string): string {
  return `invalid hook type "${value}" for resource breakpoint; acceptable hook types are: ${HOOK_TYPES.join(', ')}`;
}

function restrictedError(value: string): string {
  return `invalid restricted_action type "${value}" for resource; acceptable restricted_action types are: ${RESTRICTED_ACTIONS.join(', ')}`;
}
