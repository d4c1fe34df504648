import { fault } from '../budget.js';
import { YaqlError } from '../errors.js';
import { compare, equal, hashKey, lazy, truthy } from '../values.js';
import { streamed } from './generators.js';
import { type Call, define, type FunctionDef, type Lambda } from './types.js';

/** LINQ-style query functions over lists; each takes a lambda evaluated with `$` bound to the item. */

function where(c: Call): unknown {
  const predicate = c.lambda(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    for (const item of source) if (truthy(predicate(item))) yield item;
  });
}

function select(c: Call): unknown {
  const selector = c.lambda(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    for (const item of source) yield selector(item);
  });
}

/** Like select, but a list returned by the selector contributes its items. */
function selectMany(c: Call): unknown {
  const selector = c.lambda(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    for (const item of source) {
      const inner = selector(item);
      if (Array.isArray(inner)) yield* inner;
      else yield inner;
    }
  });
}

function skip(c: Call): unknown {
  const count = c.int(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    let i = 0;
    for (const item of source) if (i++ >= count) yield item;
  });
}

function take(c: Call): unknown {
  const count = c.int(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    if (count <= 0) return;
    let i = 0;
    for (const item of source) {
      yield item;
      if (++i >= count) return;
    }
  });
}

function takeWhile(c: Call): unknown {
  const predicate = c.lambda(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    for (const item of source) {
      if (!truthy(predicate(item))) return;
      yield item;
    }
  });
}

function skipWhile(c: Call): unknown {
  const predicate = c.lambda(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    let skipping = true;
    for (const item of source) {
      if (skipping && truthy(predicate(item))) continue;
      skipping = false;
      yield item;
    }
  });
}

function distinct(c: Call): unknown {
  const keySelector = c.optLambda(1);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    const seen = new Set<string>();
    for (const item of source) {
      const key = hashKey(keySelector ? keySelector(item) : item, c.budget);
      if (seen.has(key)) continue;
      seen.add(key);
      yield item;
    }
  });
}

function enumerate(c: Call): unknown {
  const start = c.intOr(1, 0);
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    let i = start;
    for (const item of source) yield [i++, item];
  });
}

/** any() without a predicate asks whether the list is non-empty (all() asks whether items are true). */
function any(c: Call): boolean {
  const predicate = c.optLambda(1);
  for (const item of c.iterable(0)) if (predicate ? truthy(predicate(item)) : true) return true;
  return false;
}

function all(c: Call): boolean {
  const predicate = c.optLambda(1);
  for (const item of c.iterable(0)) if (!truthy(predicate ? predicate(item) : item)) return false;
  return true;
}

function indexWhere(c: Call): number {
  const predicate = c.lambda(1);
  let i = 0;
  for (const item of c.iterable(0)) {
    if (truthy(predicate(item))) return i;
    i++;
  }
  return -1;
}

function lastIndexWhere(c: Call): number {
  const predicate = c.lambda(1);
  return c.list(0).findLastIndex((item) => truthy(predicate(item)));
}

/** first(collection, default?): stops reading at the first item, so it works on endless sequences. */
function first(c: Call): unknown {
  for (const item of c.iterable(0)) return item;
  return c.has(1) ? c.value(1) : c.fail('the list is empty and no default is given');
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
  const aggregate = aggregator ? groupAggregator(c, aggregator) : (pair: [unknown, unknown[]]) => pair;
  return lazy([...groups.values()].map(aggregate));
}

/**
 * yaql's aggregator gets a group's values; yaql before 1.1.1 gave it the pair [key, values] and
 * expected a pair back. Heat's yaql context falls back to that when the aggregator fails on the
 * values (and its first results did not look like old-style pairs), so old templates still work.
 */
function groupAggregator(c: Call, aggregator: Lambda) {
  let failure: unknown = null;
  let allowFallback = true;
  return ([key, values]: [unknown, unknown[]]): unknown => {
    if (failure === null) {
      try {
        const result = aggregator(values);
        const looksOld =
          values.length === 2 &&
          Array.isArray(result) &&
          result.length === 2 &&
          equal(result[0], values[0], c.budget);
        if (!looksOld) allowFallback = false;
        return [key, result];
      } catch (error) {
        if (!(error instanceof YaqlError)) throw error;
        failure = error;
      }
    }
    if (allowFallback) {
      try {
        const result = aggregator([key, values]);
        if (Array.isArray(result) && result.length === 2) return result;
      } catch {
        // Not the old style either: report the first failure, which speaks of the current style.
      }
    }
    throw failure;
  };
}

/** zip(collection, lists...): tuples up to the shortest; the first collection may be endless. */
function zip(c: Call): unknown {
  const others = c.rest.map((_, i) => restList(c, i));
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    let i = 0;
    for (const item of source) {
      if (others.some((other) => i >= other.length)) return;
      yield [item, ...others.map((other) => other[i])];
      i++;
    }
  });
}

export function restList(c: Call, i: number): unknown[] {
  const value = c.rest[i];
  if (!Array.isArray(value)) return fault(`${c.def.name}(): every argument must be a list`);
  c.budget.spend(value.length);
  return value;
}

export const QUERY_FUNCTIONS: readonly FunctionDef[] = [
  define('where', ['collection:lazy', 'predicate:lambda'], where),
  define('filter', ['collection:lazy', 'predicate:lambda'], where),
  define('select', ['collection:lazy', 'selector:lambda'], select),
  define('map', ['collection:lazy', 'selector:lambda'], select),
  define('selectMany', ['collection:lazy', 'selector:lambda'], selectMany),
  define('skip', ['collection:lazy', 'count'], skip),
  define('take', ['collection:lazy', 'count'], take),
  define('limit', ['collection:lazy', 'count'], take),
  define('takeWhile', ['collection:lazy', 'predicate:lambda'], takeWhile),
  define('skipWhile', ['collection:lazy', 'predicate:lambda'], skipWhile),
  define('distinct', ['collection:lazy', 'keySelector?:lambda'], distinct),
  define('enumerate', ['collection:lazy', 'start?'], enumerate),
  define('first', ['collection:lazy', 'default?'], first),
  define('any', ['collection:lazy', 'predicate?:lambda'], any),
  define('all', ['collection:lazy', 'predicate?:lambda'], all),
  define('indexWhere', ['collection:lazy', 'predicate:lambda'], indexWhere),
  define('lastIndexWhere', ['collection', 'predicate:lambda'], lastIndexWhere),
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
  define('zip', ['collection:lazy', '...collections'], zip),
];
