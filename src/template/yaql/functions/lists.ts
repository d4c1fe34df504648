import { fault } from '../budget.js';
import { MAX_VALUE_DEPTH } from '../errors.js';
import { applyBinary } from '../operators.js';
import {
  compare,
  dictEntries,
  dictSize,
  equal,
  hashKey,
  isDict,
  isInteger,
  isLazy,
  lazy,
  typeName,
} from '../values.js';
import { restList } from './queries.js';
import { type Call, define, type FunctionDef } from './types.js';

/** Functions on lists (sets are lists without duplicates here), plus len() and concat() for all types. */

function len(c: Call): number {
  const value = c.value(0);
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isDict(value)) return dictSize(value);
  return c.wrongType(0, 'a string, list or dict', value);
}

function sum(c: Call): unknown {
  const items = c.list(0);
  if (!c.has(1) && items.length === 0) return c.fail('empty list and no initial value');
  let total = c.has(1) ? c.value(1) : items[0];
  for (let i = c.has(1) ? 0 : 1; i < items.length; i++) total = applyBinary('+', total, items[i], c.budget);
  return total;
}

/** max(list, initial?) over a list, or max(a, b) of two values; min likewise. */
function extreme(sign: 1 | -1) {
  const better = (a: unknown, b: unknown) => (compare(b, a) * sign > 0 ? b : a);
  return (c: Call): unknown => {
    const first = c.value(0);
    if (!Array.isArray(first)) {
      if (!c.has(1)) return c.fail('needs a list, or two values to compare');
      return better(first, c.value(1));
    }
    const items = c.list(0);
    if (!c.has(1) && items.length === 0) return c.fail('empty list and no initial value');
    return c.has(1) ? items.reduce(better, c.value(1)) : items.slice(1).reduce(better, items[0]);
  };
}

function firstOrLast(fromEnd: boolean) {
  return (c: Call): unknown => {
    const items = c.list(0);
    if (items.length > 0) return fromEnd ? items[items.length - 1] : items[0];
    return c.has(1) ? c.value(1) : c.fail('the list is empty and no default is given');
  };
}

function single(c: Call): unknown {
  const items = c.list(0);
  if (items.length !== 1) return c.fail(`the list has ${items.length} items, not exactly one`);
  return items[0];
}

function flatten(c: Call): unknown[] {
  const out: unknown[] = [];
  const walk = (items: readonly unknown[], depth: number): void => {
    if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    c.budget.spend(items.length);
    for (const item of items) {
      if (Array.isArray(item)) walk(item, depth + 1);
      else out.push(item);
    }
  };
  walk(c.list(0), 0);
  return lazy(out);
}

/** list(a, b, ...) lists its arguments, splicing in lazy query results as yaql does with iterators. */
function list(c: Call): unknown[] {
  const out: unknown[] = [];
  const add = (value: unknown, depth: number): void => {
    if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    c.budget.spend();
    if (isLazy(value)) for (const item of value) add(item, depth + 1);
    else out.push(value);
  };
  for (const arg of c.rest) add(arg, 0);
  return out;
}

/** concat(strings...) joins strings; concat(lists...) chains lists. */
function concat(c: Call): unknown {
  const args = c.rest;
  if (args.length === 0) return c.fail('needs at least one argument');
  if (args.every((a) => typeof a === 'string')) {
    const text = args.join('');
    c.budget.spendChars(text.length);
    return text;
  }
  if (args.every((a) => Array.isArray(a))) return lazy(args.flatMap((_, i) => restList(c, i)));
  return c.fail(`needs all strings or all lists, not ${args.map(typeName).join(', ')}`);
}

/** delete(list, position, count => 1) drops items; delete(dict, keys...) drops keys. */
function deleteItems(c: Call): unknown {
  const target = c.value(0);
  if (isDict(target)) return withoutKeys(c, c.rest);
  const items = c.list(0);
  const position = c.rest[0];
  const count = c.rest[1] ?? 1;
  if (!isInteger(position) || !isInteger(count)) return c.fail('needs an integer position and count');
  return lazy(items.filter((_, i) => i < position || (count >= 0 && i >= position + count)));
}

export function withoutKeys(c: Call, keys: readonly unknown[]): Map<unknown, unknown> {
  const entries = dictEntries(c.dict(0));
  c.budget.spend(entries.length + keys.length);
  const drop = new Set(keys.map((key) => hashKey(key, c.budget)));
  return new Map(entries.filter(([key]) => !drop.has(hashKey(key, c.budget))));
}

export const LIST_FUNCTIONS: readonly FunctionDef[] = [
  define('len', ['value'], len),
  define('count', ['collection'], (c) => c.list(0).length),
  define('sum', ['collection', 'initial?'], sum),
  define('max', ['collection', 'initial?'], extreme(1)),
  define('min', ['collection', 'initial?'], extreme(-1)),
  define('last', ['collection', 'default?'], firstOrLast(true)),
  define('single', ['collection'], single),
  define('flatten', ['collection'], flatten),
  define('toList', ['collection'], (c) => [...c.list(0)]),
  define('list', ['...args'], list),
  define('contains', ['collection', 'value'], (c) =>
    c.list(0).some((item) => equal(item, c.value(1), c.budget)),
  ),
  define('append', ['collection', '...values'], (c) => lazy([...c.list(0), ...c.rest])),
  define('reverse', ['collection'], (c) => [...c.list(0)].reverse()),
  define('concat', ['...args'], concat),
  define('delete', ['collection', '...args'], deleteItems),
  define('defaultIfEmpty', ['collection', 'default'], (c) => (c.list(0).length > 0 ? c.list(0) : c.list(1))),
  define('isList', ['value'], (c) => Array.isArray(c.value(0))),
];
