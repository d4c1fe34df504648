import { type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { NestedView } from '../nested-type.js';

/**
 * The attributes of a nested-stack type made of numbered members (ResourceGroup, ResourceChain),
 * cached compactly: lists in member order (refs, and one per member attribute) and the member
 * names. The maps (refs_map, attributes, resource.<name>[.<attr>]) are derived when read: caching
 * them too would make a 100,000-member group's row six times larger.
 */

/** Cached attribute: the members' names, in index order (the derived attributes are keyed by them). */
const MEMBER_NAMES = 'OS::member_names';

/** Member names by index ("2" before "10"); names that are not indexes after, by text. */
export function byIndex(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (Number.isInteger(x) && Number.isInteger(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Positions of the member names of one cached attribute set (derived reads may come by the thousand). */
const positions = new WeakMap<readonly Json[], Map<string, number>>();

function positionOf(names: readonly Json[], name: string): number | undefined {
  let index = positions.get(names);
  if (!index) positions.set(names, (index = new Map(names.map((n, i) => [String(n), i]))));
  return index.get(name);
}

export interface MemberAttributes {
  /** What to cache once the child is done; `own` adds the type's attributes that are not member lists. */
  cache(view: NestedView, own?: Record<string, Json>): Record<string, Json>;
  /** Reads an attribute (all of them when undefined) from what `cache` stored. */
  read(cached: Readonly<Record<string, Json>>, name: string | undefined): Json | undefined;
}

/** The cache and reader of a members type whose own cached attributes besides `refs` are `ownKeys`. */
export function memberAttributes(ownKeys: readonly string[]): MemberAttributes {
  const notLists: ReadonlySet<string> = new Set(['refs', 'OS::stack_id', MEMBER_NAMES, ...ownKeys]);

  function cache(view: NestedView, own: Record<string, Json> = {}): Record<string, Json> {
    const members = [...view.members].sort((a, b) => byIndex(a.name, b.name));
    const out: Record<string, Json> = {};
    const names = new Set<string>();
    for (const m of members) for (const name of Object.keys(m.attributes)) names.add(name);
    for (const name of names) {
      if (notLists.has(name)) continue;
      setOwn(
        out,
        name,
        members.map((m) => (Object.hasOwn(m.attributes, name) ? m.attributes[name]! : null)),
      );
    }
    out.refs = members.map((m) => m.refId);
    for (const [key, value] of Object.entries(own)) setOwn(out, key, value);
    out['OS::stack_id'] = view.childId;
    out[MEMBER_NAMES] = members.map((m) => m.name);
    return out;
  }

  function read(cached: Readonly<Record<string, Json>>, name: string | undefined): Json | undefined {
    const names = cached[MEMBER_NAMES];
    // Cached before the compact form: every attribute is there as it is.
    if (!Array.isArray(names)) return name === undefined ? (cached as Json) : undefined;
    const refs = Array.isArray(cached.refs) ? cached.refs : [];
    const lists = Object.keys(cached).filter((k) => !notLists.has(k) && Array.isArray(cached[k]));
    const zip = (values: readonly Json[]): JsonObject => {
      const map: JsonObject = {};
      names.forEach((n, i) => setOwn(map, String(n), values[i] ?? null));
      return map;
    };
    if (name === undefined) {
      const all: Record<string, Json> = {};
      for (const [key, value] of Object.entries(cached)) if (key !== MEMBER_NAMES) setOwn(all, key, value);
      for (const key of ['refs_map', 'attributes', ...names.map((n) => `resource.${String(n)}`)])
        setOwn(all, key, read(cached, key) ?? null);
      for (const n of names)
        for (const list of lists)
          setOwn(all, `resource.${String(n)}.${list}`, read(cached, `resource.${String(n)}.${list}`) ?? null);
      return all;
    }
    if (name === 'refs_map') return zip(refs);
    if (name === 'attributes') {
      const map: JsonObject = {};
      for (const list of lists) setOwn(map, list, zip(cached[list] as Json[]));
      return map;
    }
    if (!name.startsWith('resource.')) return undefined;
    const rest = name.slice('resource.'.length);
    const dot = rest.indexOf('.');
    const member = dot < 0 ? rest : rest.slice(0, dot);
    const i = positionOf(names, member);
    if (i === undefined) return undefined;
    if (dot < 0) return refs[i] ?? null;
    const list = cached[rest.slice(dot + 1)];
    return Array.isArray(list) && lists.includes(rest.slice(dot + 1)) ? (list[i] ?? null) : undefined;
  }

  return { cache, read };
}
