import type { Json } from '../../util/json.js';
import type { SourceDocument } from '../source.js';

/** Breakpoints a user can set on resources (Heat: environment.HOOK_TYPES). */
export const HOOK_TYPES = [
  'pre-create',
  'pre-update',
  'pre-delete',
  'post-create',
  'post-update',
  'post-delete',
] as const;
export type Hook = (typeof HOOK_TYPES)[number];

/** Actions an environment can forbid on a resource during stack update (Heat: RESTRICTED_ACTIONS). */
export const RESTRICTED_ACTIONS = ['update', 'replace'] as const;
export type RestrictedAction = (typeof RESTRICTED_ACTIONS)[number];

/** How a parameter given by several environment files combines (Heat: environment_util). */
export const MERGE_STRATEGIES = ['overwrite', 'merge', 'deep_merge'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export const ENVIRONMENT_SECTIONS = [
  'parameters',
  'parameter_defaults',
  'resource_registry',
  'event_sinks',
  'parameter_merge_strategies',
  'encrypted_param_names',
] as const;

/**
 * What a registry key maps to: a resource type (an alias) or a template URL. `null` is Heat's way
 * of removing an earlier mapping with the same key (or, for a key ending in `*`, every mapping the
 * prefix matches) when environments are merged; merged environments hold no nulls.
 */
export type MappingTarget = string | null;

/** One entry of `resource_registry.resources`, for resources whose name matches its key. */
export interface ResourceEntry {
  /** Type mappings that apply to the matching resources only. */
  types: Map<string, MappingTarget>;
  /** As written (one hook or a list); null removes hooks set by an earlier environment. */
  hooks: Hook | Hook[] | null | undefined;
  restrictedActions: RestrictedAction | RestrictedAction[] | null | undefined;
  /** Entries for resources inside the nested stack that the matching resource creates. */
  nested: Map<string, ResourceEntry | null>;
  /** heatclient's per-resource `base_url` for relative template paths. */
  baseUrl: string | undefined;
}

export interface RegistryData {
  /** Global mappings, in document order: exact types and `Prefix*` wildcards. */
  mappings: Map<string, MappingTarget>;
  /** Per-resource entries keyed by resource name or fnmatch pattern, in document order. */
  resources: Map<string, ResourceEntry | null>;
  /** heatclient's `base_url`: relative template paths are taken from here instead of the file's directory. */
  baseUrl: string | undefined;
}

export interface Environment {
  /**
   * The file or URL the environment was read from; relative template paths that were not resolved
   * at parse time are taken from its directory. Undefined for merged or hand-built environments.
   */
  file?: string;
  /** The parsed document, so that errors found later (merge conflicts, mapping loops) get positions. */
  source?: SourceDocument;
  parameters: Record<string, Json>;
  parameterDefaults: Record<string, Json>;
  resourceRegistry: RegistryData;
  eventSinks: Json[];
  /**
   * Per parameter name (or `default`). After a merge, the strategy each parameter ended up with, as
   * Heat records it across files.
   */
  parameterMergeStrategies: Record<string, MergeStrategy>;
  encryptedParamNames: string[];
}

export function emptyRegistryData(): RegistryData {
  return { mappings: new Map(), resources: new Map(), baseUrl: undefined };
}

export function emptyResourceEntry(): ResourceEntry {
  return {
    types: new Map(),
    hooks: undefined,
    restrictedActions: undefined,
    nested: new Map(),
    baseUrl: undefined,
  };
}

export function emptyEnvironment(): Environment {
  return {
    parameters: {},
    parameterDefaults: {},
    resourceRegistry: emptyRegistryData(),
    eventSinks: [],
    parameterMergeStrategies: {},
    encryptedParamNames: [],
  };
}
