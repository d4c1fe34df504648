import { truthy } from '../values.js';
import { type Call, define, type FunctionDef } from './types.js';

/** yaql's list editing functions beyond delete() and replace(), and the two-collection join(). */

/** Python's list.insert position: negative counts from the end, then clamped to the list. */
function insertPosition(length: number, position: number): number {
  if (position < 0) return Math.max(0, length + position);
  return Math.min(position, length);
}

function insert(c: Call): unknown[] {
  const items = [...c.list(0)];
  items.splice(insertPosition(items.length, c.int(1)), 0, c.value(2));
  return items;
}

function insertMany(c: Call): unknown[] {
  const items = [...c.list(0)];
  const values = c.list(2);
  items.splice(insertPosition(items.length, c.int(1)), 0, ...values);
  return items;
}

/** replaceMany(list, position, values, count => 1): `count` items (negative: all the rest) become `values`. */
function replaceMany(c: Call): unknown[] {
  const items = c.list(0);
  const position = c.int(1);
  const values = c.list(2);
  const count = c.intOr(3, 1);
  const end = count < 0 ? items.length : position + count;
  const out: unknown[] = [];
  for (const [i, item] of items.entries()) {
    if (i === position) out.push(...values);
    if (i < position || i >= end) out.push(item);
  }
  return out;
}

/**
 * join(collection1, collection2, predicate, selector): the selector's value for every pair
 * ($1 from the first, $2 from the second) the predicate is true for.
 */
export function joinCollections(c: Call): unknown[] {
  const left = c.list(0);
  const right = c.list(1);
  const predicate = c.lambda(2);
  const selector = c.optLambda(3);
  if (!selector) return c.fail('joining two collections needs a predicate and a selector');
  const out: unknown[] = [];
  for (const a of left) {
    c.budget.spend(right.length);
    for (const b of right) if (truthy(predicate(a, b))) out.push(selector(a, b));
  }
  return out;
}

export const COLLECTION_FUNCTIONS: readonly FunctionDef[] = [
  define('insert', ['collection', 'position', 'value'], insert),
  define('insertMany', ['collection', 'position', 'values'], insertMany),
  define('replaceMany', ['collection', 'position', 'values', 'count?'], replaceMany),
];
