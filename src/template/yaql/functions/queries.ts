import { fault } from '../budget.js';
import { compare, hashKey, lazy, truthy } from '../values.js';
import { type Call, define, type FunctionDef, type Lambda } from './types.js';

/** LINQ-style query functions over lists; each takes a lambda evaluated with `$` bound to the item. */

function where(c: Call): unknown[] {
  const predicate = c.lambda(1);
  return lazy(c.list(0).filter((item) => truthy(predicate(item))));
}

function select(c: Call): unknown[] {
  const selector = c.lambda(1);
  return lazy(c.list(0).map((item) => selector(item)));
}

/** Like select, but a list returned by the selector contributes its items. */
function selectMany(c: Call): unknown[] {
  const selector = c.lambda(1);
  const out: unknown[] = [];
  for (const item of c.list(0)) {
    const inner = selector(item);
    if (Array.isArray(inner)) {
      c.budget.spend(inner.length);
      out.push(...inner);
    } else {
      out.push(inner);
    }
  }
  return lazy(out);
}

function skip(c: Call): unknown[] {
  return lazy(c.list(0).slice(Math.max(0, c.int(1))));
}

function take(c: Call): unknown[] {
  return lazy(c.list(0).slice(0, Math.max(0, c.int(1))));
}

function takeWhile(c: Call): unknown[] {
  const items = c.list(0);
  const predicate = c.lambda(1);
  const end = items.findIndex((item) => !truthy(predicate(item)));
  return lazy(end < 0 ? [...items] : items.slice(0, end));
}

function skipWhile(c: Call): unknown[] {
  const items = c.list(0);
  const predicate = c.lambda(1);
  const start = items.findIndex((item) => !truthy(predicate(item)));
  return lazy(start < 0 ? [] : items.slice(start));
}

function distinct(c: Call): unknown[] {
  const keySelector = c.optLambda(1);
  const seen = new Set<string>();
  return lazy(
    c.list(0).filter((item) => {
      const key = hashKey(keySelector ? keySelector(item) : item, c.budget);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  );
}

/** any() without a predicate asks whether the list is non-empty (all() asks whether items are true). */
function any(c: Call): boolean {
  const predicate = c.optLambda(1);
  return c.list(0).some((item) => (predicate ? truthy(predicate(item)) : true));
}

function all(c: Call): boolean {
  const predicate = c.optLambda(1);
  return c.list(0).every((item) => truthy(predicate ? predicate(item) : item));
}

function indexWhere(c: Call, fromEnd: boolean): number {
  const items = c.list(0);
  const predicate = c.lambda(1);
  const test = (item: unknown) => truthy(predicate(item));
  return fromEnd ? items.findLastIndex(test) : items.findIndex(test);
}

/** Applies a two-argument lambda ($1 = accumulated, $2 = item) across the list. */
function aggregate(c: Call): unknown {
  const items = c.list(0);
  const selector = c.lambda(1);
  if (!c.has(2) && items.length === 0) return c.fail('empty list and no seed');
  let accumulator = c.has(2) ? c.value(2) : items[0];
  for (let i = c.has(2) ? 0 : 1; i < items.length; i++) accumulator = selector(accumulator, items[i]);
  return accumulator;
}

/**
 * orderBy() returns a plain sorted list, remembering how it was sorted so that thenBy() can sort the
 * original list again with one more key (and stay stable, as yaql's sort is).
 */
interface Ordering {
  source: readonly unknown[];
  keys: readonly { selector: Lambda; descending: boolean }[];
}
const ORDERINGS = new WeakMap<unknown[], Ordering>();

function sortBy(c: Call, ordering: Ordering): unknown[] {
  const { source, keys } = ordering;
  c.budget.spend(source.length * keys.length);
  const rows = source.map((item, index) => ({ item, index, keys: keys.map((k) => k.selector(item)) }));
  rows.sort((a, b) => {
    for (let level = 0; level < keys.length; level++) {
      const order = compare(a.keys[level], b.keys[level]);
      if (order !== 0) return keys[level]!.descending ? -order : order;
    }
    return a.index - b.index;
  });
  const sorted = rows.map((row) => row.item);
  ORDERINGS.set(sorted, ordering);
  return sorted;
}

function orderBy(descending: boolean) {
  return (c: Call) => sortBy(c, { source: c.list(0), keys: [{ selector: c.lambda(1), descending }] });
}

function thenBy(descending: boolean) {
  return (c: Call) => {
    const ordering = ORDERINGS.get(c.list(0));
    if (ordering === undefined) return c.fail('needs the result of orderBy() or another thenBy()');
    return sortBy(c, {
      source: ordering.source,
      keys: [...ordering.keys, { selector: c.lambda(1), descending }],
    });
  };
}

/** Pairs [key, values] in order of first appearance; an aggregator turns values into one value. */
function groupBy(c: Call): unknown[] {
  const keySelector = c.lambda(1);
  const valueSelector = c.optLambda(2);
  const aggregator = c.optLambda(3);
  const groups = new Map<string, [unknown, unknown[]]>();
  for (const item of c.list(0)) {
    const key = keySelector(item);
    const value = valueSelector ? valueSelector(item) : item;
    const hash = hashKey(key, c.budget);
    const group = groups.get(hash);
    if (group) group[1].push(value);
    else groups.set(hash, [key, [value]]);
  }
  return lazy([...groups.values()].map(([key, values]) => [key, aggregator ? aggregator(values) : values]));
}

function zip(c: Call): unknown[] {
  const lists = [c.list(0), ...c.rest.map((_, i) => restList(c, i))];
  const length = Math.min(...lists.map((l) => l.length));
  c.budget.spend(length * lists.length);
  return lazy(Array.from({ length }, (_, i) => lists.map((l) => l[i])));
}

export function restList(c: Call, i: number): unknown[] {
  const value = c.rest[i];
  if (!Array.isArray(value)) return fault(`${c.def.name}(): every argument must be a list`);
  c.budget.spend(value.length);
  return value;
}

export const QUERY_FUNCTIONS: readonly FunctionDef[] = [
  define('where', ['collection', 'predicate:lambda'], where),
  define('filter', ['collection', 'predicate:lambda'], where),
  define('select', ['collection', 'selector:lambda'], select),
  define('map', ['collection', 'selector:lambda'], select),
  define('selectMany', ['collection', 'selector:lambda'], selectMany),
  define('skip', ['collection', 'count'], skip),
  define('take', ['collection', 'count'], take),
  define('limit', ['collection', 'count'], take),
  define('takeWhile', ['collection', 'predicate:lambda'], takeWhile),
  define('skipWhile', ['collection', 'predicate:lambda'], skipWhile),
  define('distinct', ['collection', 'keySelector?:lambda'], distinct),
  define('any', ['collection', 'predicate?:lambda'], any),
  define('all', ['collection', 'predicate?:lambda'], all),
  define('indexWhere', ['collection', 'predicate:lambda'], (c) => indexWhere(c, false)),
  define('lastIndexWhere', ['collection', 'predicate:lambda'], (c) => indexWhere(c, true)),
  define('aggregate', ['collection', 'selector:lambda', 'seed?'], aggregate),
  define('reduce', ['collection', 'selector:lambda', 'seed?'], aggregate),
  define('orderBy', ['collection', 'selector:lambda'], orderBy(false)),
  define('orderByDescending', ['collection', 'selector:lambda'], orderBy(true)),
  define('thenBy', ['collection', 'selector:lambda'], thenBy(false)),
  define('thenByDescending', ['collection', 'selector:lambda'], thenBy(true)),
  define(
    'groupBy',
    ['collection', 'keySelector:lambda', 'valueSelector?:lambda', 'aggregator?:lambda'],
    groupBy,
  ),
  define('zip', ['collection', '...collections'], zip),
];
