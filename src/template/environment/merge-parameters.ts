import { getOwn, isPlainObject, type Json, setOwn, typeName } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import type { Environment, MergeStrategy } from './types.js';
import { parseJsonText, TooDeepError } from '../depth.js';

/** A template parameter's type, when the caller knows it; it decides how `merge` combines values. */
export type ParameterKind = 'string' | 'number' | 'json' | 'comma_delimited_list' | 'boolean';

export interface MergeOptions {
  /**
   * The type of a parameter of the template (or its nested templates), as Heat's merge uses the
   * parameter schemata. Without it, the kind is inferred from the values: lists concatenate, maps
   * merge, strings join with a comma (comma_delimited_list), numbers add.
   */
  parameterKind?: (name: string) => ParameterKind | undefined;
}

type Section = 'parameters' | 'parameter_defaults';

/**
 * The merge strategy of each parameter is fixed by the first file that gives it a value; a later
 * file that names a different strategy for it is an error (Heat: ConflictingMergeStrategyForParam).
 */
export class StrategyBook {
  readonly established = new Map<string, MergeStrategy>();

  fix(env: Environment, section: Section, values: Record<string, Json>): void {
    const inFile = env.parameterMergeStrategies;
    for (const [key, value] of Object.entries(values)) {
      if (value === null) continue;
      const strategy =
        getOwn(inFile, key) ?? this.established.get(key) ?? getOwn(inFile, 'default') ?? 'overwrite';
      const earlier = this.established.get(key);
      if (earlier === undefined) {
        this.established.set(key, strategy);
      } else if (earlier !== strategy) {
        const path = getOwn(inFile, key) !== undefined ? ['parameter_merge_strategies', key] : [section, key];
        throw located(
          env,
          `conflicting merge strategy "${strategy}" for parameter "${key}" in file "${env.source?.file ?? env.file ?? '<environment>'}"; an earlier file gave it "${earlier}"`,
          path,
        );
      }
    }
  }
}

/** Merges one file's `parameters` or `parameter_defaults` onto the result so far (Heat: merge_parameters). */
export function mergeParameterSection(
  old: Record<string, Json>,
  incoming: Record<string, Json>,
  env: Environment,
  section: Section,
  book: StrategyBook,
  options: MergeOptions,
): Record<string, Json> {
  book.fix(env, section, incoming);
  // Heat takes the first non-empty section as it is, nulls included.
  if (Object.keys(old).length === 0) return cloneJson(incoming) as Record<string, Json>;
  for (const [key, value] of Object.entries(incoming)) {
    if (value === null) continue;
    const strategy = book.established.get(key) ?? 'overwrite';
    if (strategy === 'overwrite') {
      setOwn(old, key, cloneJson(value));
      continue;
    }
    const kind = options.parameterKind?.(key) ?? inferKind(value);
    let merged: Json | undefined;
    try {
      merged = mergeValue(getOwn(old, key), value, kind, strategy === 'deep_merge');
    } catch (err) {
      if (!(err instanceof TooDeepError)) throw err;
      throw located(env, `the value of parameter "${key}" is JSON ${err.message}`, [section, key]);
    }
    if (merged === undefined) {
      throw located(
        env,
        `invalid merge strategy "${strategy}" for parameter "${key}" (${describe(getOwn(old, key), value)})`,
        [section, key],
      );
    }
    setOwn(old, key, merged);
  }
  return old;
}

function inferKind(value: Json): ParameterKind {
  if (Array.isArray(value) || typeof value === 'string') return 'comma_delimited_list';
  if (isPlainObject(value)) return 'json';
  if (typeof value === 'number') return 'number';
  return 'boolean';
}

/** The combined value, or undefined when the values cannot merge. */
function mergeValue(
  old: Json | undefined,
  value: Json,
  kind: ParameterKind,
  deep: boolean,
): Json | undefined {
  switch (kind) {
    case 'json': {
      const incoming = typeof value === 'string' ? parseJsonValue(value) : value;
      if (!isPlainObject(incoming)) return undefined;
      const current = typeof old === 'string' ? parseJsonValue(old) : old;
      if (current === undefined || current === null) return cloneJson(incoming);
      return isPlainObject(current) ? mergeMap(current, incoming, deep) : undefined;
    }
    case 'comma_delimited_list':
      return mergeList(old, value);
    case 'string':
      // Heat joins string parameters with nothing in between.
      if (typeof value !== 'string') return undefined;
      if (old === undefined || old === null) return value;
      return typeof old === 'string' ? old + value : undefined;
    case 'number':
      if (typeof value !== 'number') return undefined;
      if (old === undefined || old === null) return value;
      return typeof old === 'number' ? old + value : undefined;
    case 'boolean':
      return undefined;
  }
}

/** Heat's merge_list: lists concatenate, comma-delimited strings join with a comma. */
function mergeList(old: Json | undefined, value: Json): Json | undefined {
  if (old === undefined || old === null || old === '' || (Array.isArray(old) && old.length === 0))
    return cloneJson(value);
  if (Array.isArray(value))
    return Array.isArray(old) ? [...(cloneJson(old) as Json[]), ...(cloneJson(value) as Json[])] : undefined;
  if (typeof value === 'string') return typeof old === 'string' ? `${old},${value}` : undefined;
  return undefined;
}

/**
 * Heat's merge_map. Shallow (`merge`): the incoming keys replace. Deep (`deep_merge`): maps merge
 * recursively, lists concatenate and strings are appended. Null values never replace anything.
 */
export function mergeMap(
  old: Record<string, Json>,
  incoming: Record<string, Json>,
  deep: boolean,
): Record<string, Json> {
  const out = cloneJson(old) as Record<string, Json>;
  for (const [key, value] of Object.entries(incoming)) {
    if (value === null) continue;
    const current = getOwn(out, key);
    let merged: Json = cloneJson(value);
    if (deep && current !== undefined && current !== null) {
      if (isPlainObject(value) && isPlainObject(current)) merged = mergeMap(current, value, true);
      else if (Array.isArray(value) && Array.isArray(current))
        merged = [...current, ...(cloneJson(value) as Json[])];
      else if (typeof value === 'string' && typeof current === 'string') merged = current + value;
    }
    setOwn(out, key, merged);
  }
  return out;
}

/** A json parameter's text, or undefined when it is not JSON; one too deep throws TooDeepError. */
function parseJsonValue(text: string): Json | undefined {
  try {
    return parseJsonText(text);
  } catch (err) {
    if (err instanceof TooDeepError) throw err;
    return undefined;
  }
}

function describe(old: Json | undefined, value: Json): string {
  return old === undefined
    ? `a ${typeName(value)} cannot merge`
    : `a ${typeName(old)} and a ${typeName(value)} cannot merge`;
}

/** A copy that shares nothing with user input and keeps keys such as `__proto__` as data. */
export function cloneJson(value: Json): Json {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, cloneJson(item));
    return out;
  }
  return value;
}

export function located(env: Environment, message: string, path: DocPath): TemplateError {
  const err = new TemplateError('environment', message, path);
  if (env.source) return env.source.annotate(err);
  return env.file === undefined ? err : err.locate(env.file, undefined);
}
