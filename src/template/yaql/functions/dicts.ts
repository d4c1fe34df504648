import { fault } from '../budget.js';
import { MAX_VALUE_DEPTH } from '../errors.js';
import { type Dict, dictEntries, dictGet, equal, isDict, typeName, uniqueValues } from '../values.js';
import { withoutKeys } from './lists.js';
import { type Call, define, type FunctionDef, type Lambda } from './types.js';

/** Functions on dicts. Dicts built here are Maps (see values.ts). */

function checkKey(c: Call, key: unknown): unknown {
  if (key !== null && typeof key === 'object') {
    return c.fail(`a dict key must be a string, number, boolean or null, not ${typeName(key)}`);
  }
  return key;
}

/** dict(a => 1, ...), dict(list of [key, value] pairs), or dict() for an empty dict. */
function dict(c: Call): Map<unknown, unknown> {
  const out = new Map<unknown, unknown>();
  if (c.mappings.length > 0) {
    if (c.rest.length > 0) return c.fail('takes either "key => value" pairs or one list of pairs, not both');
    for (const mapping of c.mappings) out.set(checkKey(c, mapping.key()), mapping.value());
    return out;
  }
  if (c.rest.length === 0) return out;
  if (c.rest.length > 1 || !Array.isArray(c.rest[0])) {
    return c.fail('takes "key => value" pairs or one list of [key, value] pairs');
  }
  c.budget.spend(c.rest[0].length);
  for (const pair of c.rest[0]) {
    if (!Array.isArray(pair) || pair.length < 2) {
      return c.fail(`every item must be a [key, value] pair, not ${typeName(pair)}`);
    }
    out.set(checkKey(c, pair[0]), pair[1]);
  }
  return out;
}

function toDict(c: Call): Map<unknown, unknown> {
  const keySelector = c.lambda(1);
  const valueSelector = c.optLambda(2);
  const out = new Map<unknown, unknown>();
  for (const item of c.list(0))
    out.set(checkKey(c, keySelector(item)), valueSelector ? valueSelector(item) : item);
  return out;
}

function entries(c: Call): [unknown, unknown][] {
  const all = dictEntries(c.dict(0));
  c.budget.spend(all.length);
  return all;
}

function get(c: Call): unknown {
  const value = dictGet(c.dict(0), c.value(1));
  return value === undefined ? c.value(2) : value;
}

/** set(dict, key, value), set(dict, otherDict) or set(dict, key => value, ...): a copy with new entries. */
export function setInDict(c: Call): Map<unknown, unknown> {
  const out = new Map(entries(c));
  if (c.mappings.length > 0 && c.rest.length === 0) {
    for (const mapping of c.mappings) out.set(checkKey(c, mapping.key()), mapping.value());
  } else if (c.rest.length === 2 && c.mappings.length === 0) {
    out.set(checkKey(c, c.rest[0]), c.rest[1]);
  } else if (c.rest.length === 1 && isDict(c.rest[0]) && c.mappings.length === 0) {
    for (const [key, value] of dictEntries(c.rest[0])) out.set(key, value);
  } else {
    return c.fail('takes a key and a value, a dict, or "key => value" pairs');
  }
  c.budget.spend(out.size);
  return out;
}

/**
 * Deep merge as yaql's mergeWith: nested dicts merge, lists go through listMerger (default: items of
 * both without duplicates), other values through itemMerger (default: the second). maxLevels 0
 * means unlimited; 1 merges only the top level.
 */
function mergeWith(c: Call): Map<unknown, unknown> {
  const budget = c.budget;
  const listMerger: Lambda =
    c.optLambda(2) ?? ((a, b) => uniqueValues([...(a as unknown[]), ...(b as unknown[])], c.budget));
  const itemMerger: Lambda = c.optLambda(3) ?? ((_a, b) => b);
  const maxLevels = c.intOr(4, 0);
  const merge = (left: Dict, right: Dict, levels: number, depth: number): Map<unknown, unknown> => {
    if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    const out = new Map<unknown, unknown>();
    for (const [key, value1] of dictEntries(left)) {
      budget.spend();
      const value2 = dictGet(right, key);
      if (value2 === undefined) {
        out.set(key, value1);
      } else if (levels !== 1 && isDict(value2)) {
        if (!isDict(value1)) fault(`mergeWith(): cannot merge ${typeName(value1)} with dict`);
        out.set(key, merge(value1, value2, levels === 0 ? 0 : levels - 1, depth + 1));
      } else if (levels !== 1 && Array.isArray(value2)) {
        if (!Array.isArray(value1)) fault(`mergeWith(): cannot merge ${typeName(value1)} with list`);
        out.set(key, listMerger(value1, value2));
      } else {
        out.set(key, itemMerger(value1, value2));
      }
    }
    for (const [key, value] of dictEntries(right)) {
      budget.spend();
      if (!out.has(key)) out.set(key, value);
    }
    return out;
  };
  return merge(c.dict(0), c.dict(1), maxLevels, 0);
}

export const DICT_FUNCTIONS: readonly FunctionDef[] = [
  define('dict', ['...items'], dict, 'mappings'),
  define('toDict', ['collection', 'keySelector:lambda', 'valueSelector?:lambda'], toDict),
  define('keys', ['dict'], (c) => entries(c).map(([key]) => key)),
  define('values', ['dict'], (c) => entries(c).map(([, value]) => value)),
  define('items', ['dict'], (c) => entries(c).map(([key, value]) => [key, value])),
  define('get', ['dict', 'key', 'default?'], get),
  define('containsKey', ['dict', 'key'], (c) => dictGet(c.dict(0), c.value(1)) !== undefined),
  define('containsValue', ['dict', 'value'], (c) =>
    entries(c).some(([, v]) => equal(v, c.value(1), c.budget)),
  ),
  define(
    'mergeWith',
    ['dict', 'another', 'listMerger?:lambda', 'itemMerger?:lambda', 'maxLevels?'],
    mergeWith,
  ),
  define('deleteAll', ['dict', 'keys'], (c) => withoutKeys(c, c.list(1))),
  define('isDict', ['value'], (c) => isDict(c.value(0))),
];
