import { type Json, setOwn } from '../../util/json.js';
import { cloneJson, type MergeOptions, mergeParameterSection, StrategyBook } from './merge-parameters.js';
import {
  type Environment,
  emptyEnvironment,
  emptyResourceEntry,
  type MappingTarget,
  type MergeStrategy,
  type RegistryData,
  type ResourceEntry,
} from './types.js';

/**
 * Merges the environments of several `-e` files, in order, as Heat does (environment_util
 * .merge_environments): later files override `parameters` and `parameter_defaults` per key unless
 * `parameter_merge_strategies` says otherwise; registry mappings merge per key (later wins, null
 * removes); per-resource entries merge per resource, recursively, as the Heat client merges the
 * files it sends; event sinks and encrypted parameter names accumulate. Inputs are not modified.
 */
export function mergeEnvironments(envs: readonly Environment[], options: MergeOptions = {}): Environment {
  const result = emptyEnvironment();
  const only = envs.length === 1 ? envs[0] : undefined;
  if (only?.file !== undefined) result.file = only.file;
  if (only?.source !== undefined) result.source = only.source;

  const book = new StrategyBook();
  for (const env of envs) {
    if (Object.keys(env.parameters).length > 0) {
      result.parameters = mergeParameterSection(
        result.parameters,
        env.parameters,
        env,
        'parameters',
        book,
        options,
      );
    }
    if (Object.keys(env.parameterDefaults).length > 0) {
      result.parameterDefaults = mergeParameterSection(
        result.parameterDefaults,
        env.parameterDefaults,
        env,
        'parameter_defaults',
        book,
        options,
      );
    }
    mergeRegistryInto(result.resourceRegistry, env.resourceRegistry);
    result.eventSinks.push(...(env.eventSinks.map(cloneJson) as Json[]));
    for (const name of env.encryptedParamNames) {
      if (!result.encryptedParamNames.includes(name)) result.encryptedParamNames.push(name);
    }
  }
  const strategies: Record<string, MergeStrategy> = {};
  for (const [name, strategy] of book.established) setOwn(strategies, name, strategy);
  result.parameterMergeStrategies = strategies;
  return result;
}

/** Applies a later registry on top of `into` (which must hold no nulls, and is modified). */
export function mergeRegistryInto(into: RegistryData, later: RegistryData): void {
  if (later.baseUrl !== undefined) into.baseUrl = later.baseUrl;
  applyMappings(into.mappings, later.mappings);
  applyEntries(into.resources, later.resources);
}

function applyMappings(into: Map<string, MappingTarget>, later: ReadonlyMap<string, MappingTarget>): void {
  for (const [key, target] of later) {
    if (target !== null) {
      into.set(key, target);
    } else if (key.endsWith('*')) {
      // Heat: a wildcard key set to null removes every mapping its prefix matches.
      const prefix = key.slice(0, -1);
      for (const existing of [...into.keys()]) if (existing.startsWith(prefix)) into.delete(existing);
    } else {
      into.delete(key);
    }
  }
}

function applyEntries(
  into: Map<string, ResourceEntry | null>,
  later: ReadonlyMap<string, ResourceEntry | null>,
): void {
  for (const [name, entry] of later) {
    if (entry === null) {
      into.delete(name);
      continue;
    }
    const merged = into.get(name) ?? emptyResourceEntry();
    mergeEntryInto(merged, entry);
    into.set(name, merged);
  }
}

function mergeEntryInto(into: ResourceEntry, later: ResourceEntry): void {
  if (later.baseUrl !== undefined) into.baseUrl = later.baseUrl;
  if (later.hooks !== undefined) into.hooks = later.hooks === null ? undefined : copyNames(later.hooks);
  if (later.restrictedActions !== undefined) {
    into.restrictedActions =
      later.restrictedActions === null ? undefined : copyNames(later.restrictedActions);
  }
  for (const [key, target] of later.types) {
    // In a resource entry a null key may have named a type mapping or a nested resource.
    if (target === null && !key.endsWith('*')) into.nested.delete(key);
  }
  applyMappings(into.types, later.types);
  applyEntries(into.nested, later.nested);
}

function copyNames<T extends string>(names: T | T[]): T | T[] {
  return Array.isArray(names) ? [...names] : names;
}
