import type { JsonObject } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import type { SourceDocument } from '../source.js';
import { fnmatch, isWildcardPattern } from './fnmatch.js';
import { registryToJSON } from './serialize.js';
import type {
  Environment,
  Hook,
  MappingTarget,
  RegistryData,
  ResourceEntry,
  RestrictedAction,
} from './types.js';
import { emptyRegistryData } from './types.js';
import { hasUrlScheme, isTemplateType, resolveTemplateUrl } from './urls.js';

export type RegistryResolution = { kind: 'plugin'; type: string } | { kind: 'template'; url: string };

/** A per-resource entry found for a resource, with the registry path it came from (for errors). */
interface Located {
  entry: ResourceEntry;
  path: string[];
}

/** The `resources:` entries that apply at one nesting level: exact names, and patterns in order. */
interface Level {
  exact: Map<string, Located>;
  patterns: [string, Located][];
}

/** One mapping step: the type (or template) a type is mapped to, and where that mapping is. */
interface Step {
  target: string;
  path: DocPath;
  registry: ResourceRegistry;
}

const EMPTY_LEVEL: Level = { exact: new Map(), patterns: [] };

/**
 * Finds what implements a resource type, from an environment's `resource_registry`, as Heat's
 * ResourceRegistry does: a mapping for the resource itself (by name or fnmatch pattern, and by its
 * path through nested stacks) before global mappings, exact keys and `Prefix*` wildcards ordered as
 * Heat sorts them, aliases followed until a plugin type or a template, and this environment before
 * the base (global) registry. Plugin types are not checked here: that is the caller's catalogue.
 */
export class ResourceRegistry {
  private readonly data: RegistryData;
  private readonly file: string | undefined;
  private readonly source: SourceDocument | undefined;
  private readonly base: ResourceRegistry | undefined;
  private globKeys: string[] | undefined;
  private readonly globalResolutions = new Map<string, RegistryResolution>();
  private readonly levels = new Map<string, Level>();

  constructor(env?: Environment, base?: ResourceRegistry) {
    this.data = env?.resourceRegistry ?? emptyRegistryData();
    this.file = env?.file;
    this.source = env?.source;
    this.base = base;
  }

  /** Whether a template's `type:` names a template file itself (the template loader resolves those). */
  isTemplateType(type: string): boolean {
    return isTemplateType(type);
  }

  /**
   * What implements `type` for the resource `resourceName`, which lives in the nested stack reached
   * through the resources named by `nestedPath` (empty for the top stack). A type with no mapping
   * is a plugin type as it is; a template type with no mapping is returned as written.
   */
  resolveType(type: string, resourceName: string, nestedPath: readonly string[] = []): RegistryResolution {
    const own = this.entriesWithTypes(resourceName, nestedPath);
    const inBase = this.base?.entriesWithTypes(resourceName, nestedPath) ?? [];
    if (own.length === 0 && inBase.length === 0) {
      // The common case: no per-resource mapping, so the answer depends on the type alone.
      let cached = this.globalResolutions.get(type);
      if (cached === undefined) {
        cached = Object.freeze(this.follow(type, (t) => this.globalStep(t)));
        this.globalResolutions.set(type, cached);
      }
      return cached;
    }
    return this.follow(type, (t) => this.resourceStep(t, own) ?? this.globalStep(t, inBase));
  }

  /** The hooks set on a resource by every `resources:` entry that matches it (Heat: matches_hook). */
  hooksFor(resourceName: string, nestedPath: readonly string[] = []): Set<Hook> {
    const hooks = new Set<Hook>();
    for (const { entry } of this.matching(resourceName, nestedPath)) addNames(hooks, entry.hooks);
    return hooks;
  }

  /** The actions forbidden on a resource by every matching `resources:` entry. */
  restrictedActionsFor(resourceName: string, nestedPath: readonly string[] = []): Set<RestrictedAction> {
    const actions = new Set<RestrictedAction>();
    for (const { entry } of this.matching(resourceName, nestedPath))
      addNames(actions, entry.restrictedActions);
    return actions;
  }

  /** This environment's registry as Heat's environment and validate APIs print it. */
  toJSON(): JsonObject {
    return registryToJSON(this.data);
  }

  private follow(type: string, step: (type: string) => Step | undefined): RegistryResolution {
    const chain = [type];
    let current = type;
    for (;;) {
      const next = step(current);
      if (next === undefined) {
        return isTemplateType(current)
          ? { kind: 'template', url: current }
          : { kind: 'plugin', type: current };
      }
      if (isTemplateType(next.target))
        return { kind: 'template', url: next.registry.templateUrl(next.target) };
      if (chain.includes(next.target)) {
        const err = new TemplateError(
          'environment',
          `resource type mappings form a loop: ${[...chain, next.target].join(' -> ')}`,
          next.path,
        );
        throw next.registry.source ? next.registry.source.annotate(err) : err;
      }
      chain.push(next.target);
      current = next.target;
    }
  }

  private resourceStep(type: string, entries: readonly Located[]): Step | undefined {
    for (const { entry, path } of entries) {
      const key = bestKey(entry.types, type);
      if (key !== undefined)
        return this.stepTo(entry.types, key, type, ['resource_registry', 'resources', ...path, key]);
    }
    return undefined;
  }

  /** Global mappings of this registry, then the base registry (its per-resource entries first). */
  private globalStep(type: string, baseEntries: readonly Located[] = []): Step | undefined {
    this.globKeys ??= [...this.data.mappings.keys()].filter((k) => k.endsWith('*'));
    const key = bestKey(this.data.mappings, type, this.globKeys);
    if (key !== undefined) return this.stepTo(this.data.mappings, key, type, ['resource_registry', key]);
    if (!this.base) return undefined;
    return this.base.resourceStep(type, baseEntries) ?? this.base.globalStep(type);
  }

  private stepTo(
    mappings: ReadonlyMap<string, MappingTarget>,
    key: string,
    type: string,
    path: DocPath,
  ): Step {
    const value = mappings.get(key)!;
    // `OS::Networking::*: OS::Neutron::*` carries the matched rest of the name over.
    const target =
      key.endsWith('*') && value.endsWith('*') ? value.slice(0, -1) + type.slice(key.length - 1) : value;
    return { target, path, registry: this };
  }

  private templateUrl(target: string): string {
    return this.file === undefined || hasUrlScheme(target) ? target : resolveTemplateUrl(this.file, target);
  }

  /** Matching entries that map types: the exact name first, then patterns, later ones first. */
  private entriesWithTypes(resourceName: string, nestedPath: readonly string[]): Located[] {
    return this.matching(resourceName, nestedPath).filter((l) => l.entry.types.size > 0);
  }

  /** Every entry matching the resource at this nesting level, in precedence order. */
  private matching(resourceName: string, nestedPath: readonly string[]): Located[] {
    const level = this.levelAt(nestedPath);
    if (level.exact.size === 0 && level.patterns.length === 0) return [];
    const out: Located[] = [];
    const exact = level.exact.get(resourceName);
    if (exact) out.push(exact);
    for (let i = level.patterns.length - 1; i >= 0; i--) {
      const [pattern, located] = level.patterns[i]!;
      if (fnmatch(resourceName, pattern)) out.push(located);
    }
    return out;
  }

  /**
   * The entries that apply inside the nested stack reached through `nestedPath`. As Heat builds a
   * nested stack's environment, each step keeps the sub-entries of every entry matching that
   * resource's name, patterns in document order and the exact name last, so later ones win.
   */
  private levelAt(nestedPath: readonly string[]): Level {
    const cacheKey = JSON.stringify(nestedPath);
    let level = this.levels.get(cacheKey);
    if (level !== undefined) return level;
    if (nestedPath.length === 0) {
      level = toLevel([...this.data.resources].map(([name, entry]) => [name, entry, [name]]));
    } else {
      const parent = this.levelAt(nestedPath.slice(0, -1));
      const name = nestedPath[nestedPath.length - 1]!;
      const children = new Map<string, [ResourceEntry | null, string[]]>();
      const take = ({ entry, path }: Located) => {
        for (const [child, sub] of entry.nested) children.set(child, [sub, [...path, child]]);
      };
      for (const [pattern, located] of parent.patterns) if (fnmatch(name, pattern)) take(located);
      const exact = parent.exact.get(name);
      if (exact) take(exact);
      level = toLevel([...children].map(([child, [entry, path]]) => [child, entry, path]));
    }
    this.levels.set(cacheKey, level);
    return level;
  }
}

function toLevel(entries: [string, ResourceEntry | null, string[]][]): Level {
  if (entries.length === 0) return EMPTY_LEVEL;
  const level: Level = { exact: new Map(), patterns: [] };
  for (const [name, entry, path] of entries) {
    if (entry === null) continue;
    if (isWildcardPattern(name)) level.patterns.push([name, { entry, path }]);
    else level.exact.set(name, { entry, path });
  }
  return level;
}

/**
 * The mapping key that applies to `type`, as Heat orders candidates: among the exact key and the
 * matching `Prefix*` keys, the smallest key wins. A wildcard never matches the type it maps to, so
 * `OS::*: OS::Heat::None` does not map OS::Heat::None onto itself.
 */
function bestKey(
  mappings: ReadonlyMap<string, MappingTarget>,
  type: string,
  globKeys: readonly string[] = [...mappings.keys()].filter((k) => k.endsWith('*')),
): string | undefined {
  let best: string | undefined = typeof mappings.get(type) === 'string' ? type : undefined;
  for (const key of globKeys) {
    const value = mappings.get(key);
    if (typeof value !== 'string' || value === type || !type.startsWith(key.slice(0, -1))) continue;
    if (best === undefined || key < best) best = key;
  }
  return best;
}

function addNames<T extends string>(into: Set<T>, names: T | T[] | null | undefined): void {
  if (typeof names === 'string') into.add(names);
  else if (Array.isArray(names)) for (const name of names) into.add(name);
}
