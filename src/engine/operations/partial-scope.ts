import type { DefinedResource, Implementation } from '../../template/stack-definition-types.js';
import { type ResourceStubs, stubDefinition } from '../../template/stubs.js';
import type { ResourceTypeInfo } from '../../template/types.js';
import type { Sliceable } from '../../util/loop-slice.js';
import type { EngineDeps } from '../core/deps.js';
import type { TemplateDigests } from '../core/digests.js';
import { withDependents } from './update-diff.js';
import { nodeAtEveryUpdate } from '../nodes/unchanged.js';

/*
 * What a partial bind (partial-bind.ts) binds: changed or new resources, those always visited,
 * unsettled ones, and every dependent of these or of a removed name, through the stored requires
 * (a resource whose snippet did not change, in the same context, requires what it required).
 */

export interface PartialScope {
  affected: Set<string>;
  removed: string[];
  stubs: ResourceStubs;
  /** Each stored name's place in the stored table. */
  index: ReadonlyMap<string, number>;
}

/** Types whose binding reads other resources' snippets: a partial bind cannot vouch for them. */
export function acrossResources(info: ResourceTypeInfo): boolean {
  return (info.implicitDependencies?.length ?? 0) > 0 || info.crossCheck !== undefined;
}

/**
 * The new template's names against the stored table's: all of them, with which `changed`
 * (`prevIndex`: its place in the stored table, undefined for a new one); or only what an edit
 * of the text changed, removed and added (template/yaml-window.ts), the others kept.
 */
export type NamesEdit =
  | { names: readonly string[]; changed: (name: string, prevIndex: number | undefined) => boolean }
  | { changed: ReadonlySet<string>; removed: ReadonlySet<string>; added: ReadonlySet<string> };

/**
 * The scope of a partial bind of the template whose resources section's names `edit` tells.
 * Undefined when the stored types cannot stand in, or a name disabled by its condition is back
 * (it may be enabled now: what named it in depends_on requires it again).
 */
export function* partialScopeSteps(
  deps: EngineDeps,
  prev: TemplateDigests,
  edit: NamesEdit,
  unsettled: readonly string[],
): Sliceable<PartialScope | undefined> {
  const { names: before, types, requires } = prev.table;
  const index = new Map<string, number>();
  for (let i = 0; i < before.length; i++) index.set(before[i]!, i);
  const seeds: string[] = [];
  let present: ReadonlySet<string>;
  let removed: string[];
  // Whether a stored name is still there (the edit's removed names are few: no lookup in all).
  let kept: (name: string) => boolean;
  if ('names' in edit) {
    present = new Set(edit.names);
    let step = 0;
    for (const name of edit.names) {
      if (++step % 1024 === 0) yield;
      if (edit.changed(name, index.get(name))) seeds.push(name);
    }
    removed = before.filter((name) => !present.has(name));
    kept = (name) => present.has(name);
  } else {
    present = new EditedNames(before, index, prev.disabled, edit.removed, edit.added);
    seeds.push(...edit.changed);
    removed = [...edit.removed].filter((name) => index.has(name));
    kept = (name) => !edit.removed.has(name);
  }
  for (const name of prev.disabled) if (present.has(name)) return undefined;
  // Per distinct type: what stands in for its stubs, and whether its node runs at every update.
  const kinds = new Map<
    string,
    { type: string; info: ResourceTypeInfo | undefined; always: boolean; implementation?: Implementation }
  >();
  for (let i = 0; i < before.length; i++) {
    const typed = types[i]!;
    let kind = kinds.get(typed);
    if (!kind) {
      const info = typed.startsWith('p:') ? deps.plugins.typeCatalog.get(typed.slice(2)) : undefined;
      if (info && acrossResources(info)) return undefined;
      kind = { type: typed.slice(2), info, always: alwaysVisited(deps, typed, info) };
      kinds.set(typed, kind);
    }
    if (kind.always) seeds.push(before[i]!);
  }
  for (const name of unsettled) if (index.has(name)) seeds.push(name);
  const neededBy = reverseEdges(before, requires, index);
  yield;
  const affected = withDependents(neededBy, [...seeds, ...removed]);
  for (const name of removed) affected.delete(name);
  const stubs = new Map<string, DefinedResource>();
  for (let i = 0; i < before.length; i++) {
    if (i % 4096 === 0) yield;
    const name = before[i]!;
    if (affected.has(name) || !kept(name)) continue;
    const kind = kinds.get(types[i]!)!;
    // A stub is a plugin's (the others are always visited, so bound): one implementation per type.
    kind.implementation ??= { kind: 'plugin', type: kind.type, info: kind.info! };
    const definition = stubDefinition(name, kind.type);
    stubs.set(name, { definition, implementation: kind.implementation, requires: requires[i]! });
  }
  return { affected, removed, stubs: { all: present, resources: stubs }, index };
}

/**
 * What requires each stored resource, by name, in requiring order: the edges reversed into flat
 * arrays (a list per resource is 100,000 allocations; only the names visited are listed).
 */
function reverseEdges(
  names: readonly string[],
  requires: readonly (readonly string[])[],
  index: ReadonlyMap<string, number>,
): (name: string) => string[] {
  const n = names.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += requires[i]!.length;
  const from = new Int32Array(total);
  const to = new Int32Array(total);
  // start[j]..start[j + 1]: where what requires j is listed in `by`.
  const start = new Int32Array(n + 1);
  let edges = 0;
  for (let i = 0; i < n; i++) {
    for (const required of requires[i]!) {
      const j = index.get(required);
      if (j === undefined) continue;
      from[edges] = i;
      to[edges] = j;
      start[j + 1]!++;
      edges++;
    }
  }
  for (let j = 0; j < n; j++) start[j + 1]! += start[j]!;
  const fill = start.slice(0, n);
  const by = new Int32Array(edges);
  for (let e = 0; e < edges; e++) by[fill[to[e]!]!++] = from[e]!;
  return (name) => {
    const j = index.get(name);
    if (j === undefined) return [];
    const out: string[] = [];
    for (let e = start[j]!; e < start[j + 1]!; e++) out.push(names[by[e]!]!);
    return out;
  };
}

/** Types whose node runs at every update (update-diff.ts), and stored kinds that are not a plugin's. */
function alwaysVisited(deps: EngineDeps, typed: string, info: ResourceTypeInfo | undefined): boolean {
  if (!typed.startsWith('p:') || !info) return true;
  return nodeAtEveryUpdate(deps.plugins.plugin(typed.slice(2)));
}

/** The stored names (enabled, then disabled) less those removed, and those added: a set never built. */
class EditedNames implements ReadonlySet<string> {
  private readonly disabled: ReadonlySet<string>;
  constructor(
    private readonly names: readonly string[],
    private readonly index: ReadonlyMap<string, number>,
    disabled: readonly string[],
    private readonly removed: ReadonlySet<string>,
    private readonly added: ReadonlySet<string>,
  ) {
    this.disabled = new Set(disabled);
  }
  has(name: string): boolean {
    if (this.added.has(name)) return true;
    return (this.index.has(name) || this.disabled.has(name)) && !this.removed.has(name);
  }
  get size(): number {
    return this.index.size + this.disabled.size - this.removed.size + this.added.size;
  }
  *[Symbol.iterator](): SetIterator<string> {
    for (const name of this.names) if (!this.removed.has(name)) yield name;
    for (const name of this.disabled) if (!this.removed.has(name)) yield name;
    yield* this.added;
  }
  keys(): SetIterator<string> {
    return this[Symbol.iterator]();
  }
  values(): SetIterator<string> {
    return this[Symbol.iterator]();
  }
  *entries(): SetIterator<[string, string]> {
    for (const name of this) yield [name, name];
  }
  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void): void {
    for (const name of this) fn(name, name, this);
  }
}
