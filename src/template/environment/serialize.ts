import { type Json, type JsonObject, setOwn } from '../../util/json.js';
import { cloneJson } from './merge-parameters.js';
import type { Environment, RegistryData, ResourceEntry } from './types.js';

export interface EnvironmentJsonOptions {
  /** Heat's environment API includes it; validate's `Environment` does not. Default true. */
  encryptedParamNames?: boolean;
}

/** The environment as Heat's API prints it (GET .../environment, and validate's "Environment"). */
export function environmentToJSON(env: Environment, options: EnvironmentJsonOptions = {}): JsonObject {
  const out: JsonObject = {
    resource_registry: registryToJSON(env.resourceRegistry),
    parameters: cloneJson(env.parameters),
    parameter_defaults: cloneJson(env.parameterDefaults),
    event_sinks: env.eventSinks.map(cloneJson),
  };
  if (options.encryptedParamNames !== false) out.encrypted_param_names = [...env.encryptedParamNames];
  return out;
}

/** `{"resources": {...}, "<type>": "<target>", ...}`, as Heat's ResourceRegistry.as_dict. */
export function registryToJSON(registry: RegistryData): JsonObject {
  const out: JsonObject = { resources: entriesToJSON(registry.resources) };
  for (const [key, target] of registry.mappings) if (target !== null) setOwn(out, key, target);
  if (registry.baseUrl !== undefined) setOwn(out, 'base_url', registry.baseUrl);
  return out;
}

function entriesToJSON(entries: ReadonlyMap<string, ResourceEntry | null>): JsonObject {
  const out: JsonObject = {};
  for (const [name, entry] of entries) if (entry !== null) setOwn(out, name, entryToJSON(entry));
  return out;
}

function entryToJSON(entry: ResourceEntry): JsonObject {
  const out: JsonObject = {};
  for (const [type, target] of entry.types) if (target !== null) setOwn(out, type, target);
  for (const [name, nested] of entry.nested) if (nested !== null) setOwn(out, name, entryToJSON(nested));
  if (entry.hooks != null) out.hooks = names(entry.hooks);
  if (entry.restrictedActions != null) out.restricted_actions = names(entry.restrictedActions);
  if (entry.baseUrl !== undefined) out.base_url = entry.baseUrl;
  return out;
}

function names(value: string | string[]): Json {
  return Array.isArray(value) ? [...value] : value;
}
