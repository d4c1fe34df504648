import { Sequence } from '../sequence.js';
import { hashKey, lazy, truthy } from '../values.js';
import { type Call, define, type FunctionDef } from './types.js';

/**
 * yaql's generators (range, sequence, cycle, repeat, generate, generateMany, accumulate) and the
 * functions that cut a collection into parts. Endless ones return a lazy Sequence (sequence.ts),
 * whose every item costs a budget step.
 */

/**
 * The result of a streaming function: lazy when its input (argument `i`) was, else a list (marked
 * lazy, as yaql returns an iterator). `items` must pull from the input only as it is iterated.
 */
export function streamed(c: Call, i: number, items: () => Iterable<unknown>): unknown {
  if (c.isSequence(i)) return Sequence.of(items, c.budget);
  const out: unknown[] = [];
  for (const item of items()) {
    c.budget.spend();
    out.push(item);
  }
  return lazy(out);
}

/** range(stop) or range(start, stop, step => 1), lazily, as Python's range. */
function range(c: Call): Sequence {
  const [start, stop] = c.has(1) ? [c.int(0), c.int(1)] : [0, c.int(0)];
  const step = c.intOr(2, 1);
  if (step === 0) return c.fail('step must not be zero');
  return Sequence.of(function* () {
    for (let n = start; step > 0 ? n < stop : n > stop; n += step) yield n;
  }, c.budget);
}

/** sequence(start => 0, step => 1): start, start + step, ... without end. */
function sequence(c: Call): Sequence {
  const start = c.intOr(0, 0);
  const step = c.intOr(1, 1);
  return Sequence.of(function* () {
    for (let n = start; ; n += step) yield n;
  }, c.budget);
}

function cycle(c: Call): Sequence {
  const source = c.iterable(0);
  return Sequence.of(function* () {
    const seen: unknown[] = [];
    for (const item of source) {
      seen.push(item);
      yield item;
    }
    if (seen.length === 0) return;
    for (;;) yield* seen;
  }, c.budget);
}

/** repeat(value, times => -1): a negative count repeats without end. */
function repeat(c: Call): unknown {
  const value = c.value(0);
  const times = c.intOr(1, -1);
  if (times >= 0) {
    c.budget.spend(times);
    return lazy(new Array<unknown>(times).fill(value));
  }
  return Sequence.of(function* () {
    for (;;) yield value;
  }, c.budget);
}

/** A set of seen values for `decycle => true`, keyed as distinct() keys them. */
function seenSet(c: Call, decycle: boolean): ((value: unknown) => boolean) | null {
  if (!decycle) return null;
  const seen = new Set<string>();
  return (value) => {
    const key = hashKey(value, c.budget);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  };
}

/** generate(initial, predicate, producer, selector => null, decycle => false). */
function generate(c: Call): Sequence {
  const predicate = c.lambda(1);
  const producer = c.lambda(2);
  const selector = c.optLambda(3);
  const decycle = truthy(c.value(4));
  const initial = c.value(0);
  return Sequence.of(function* () {
    const seen = seenSet(c, decycle);
    let value = initial;
    while (truthy(predicate(value))) {
      if (seen?.(value)) break;
      yield selector ? selector(value) : value;
      value = producer(value);
    }
  }, c.budget);
}

/**
 * generateMany(initial, producer, selector => null, decycle => false, depthFirst => false): a
 * traversal from `initial`, the producer giving each value's children.
 */
function generateMany(c: Call): Sequence {
  const producer = c.lambda(1);
  const selector = c.optLambda(2);
  const decycle = truthy(c.value(3));
  const depthFirst = truthy(c.value(4));
  const initial = c.value(0);
  return Sequence.of(function* () {
    const seen = seenSet(c, decycle);
    const queue: unknown[] = [initial];
    while (queue.length > 0) {
      const item = queue.shift();
      if (seen?.(item)) continue;
      yield selector ? selector(item) : item;
      const produced = producer(item);
      if (!Array.isArray(produced)) return c.fail('the producer must return a list');
      c.budget.spend(produced.length);
      if (depthFirst) queue.unshift(...produced);
      else queue.push(...produced);
    }
  }, c.budget);
}

/** accumulate(collection, selector, seed?): aggregate() that yields every intermediate value. */
function accumulate(c: Call): unknown {
  const selector = c.lambda(1);
  const hasSeed = c.has(2);
  const seed = c.value(2);
  const source = c.iterable(0);
  if (!hasSeed && !c.isSequence(0) && (source as unknown[]).length === 0) {
    return c.fail('empty collection and no seed');
  }
  return streamed(c, 0, function* () {
    const it = source[Symbol.iterator]();
    let total: unknown = seed;
    if (!hasSeed) {
      const first = it.next();
      if (first.done) return;
      total = first.value;
    }
    yield total;
    for (let next = it.next(); !next.done; next = it.next()) {
      total = selector(total, next.value);
      yield total;
    }
  });
}

/** slice(collection, length): parts of `length` items (the last may be shorter). */
function slice(c: Call): unknown {
  const length = c.int(1);
  if (length < 1) return c.fail('length must be at least 1');
  const source = c.iterable(0);
  return streamed(c, 0, function* () {
    let part: unknown[] = [];
    for (const item of source) {
      part.push(item);
      if (part.length === length) {
        yield part;
        part = [];
      }
    }
    if (part.length > 0) yield part;
  });
}

/** sliceWhere(collection, predicate): runs of items with the same predicate value. */
function sliceWhere(c: Call): unknown[] {
  const predicate = c.lambda(1);
  const out: unknown[][] = [];
  let previous: string | undefined;
  for (const item of c.list(0)) {
    const key = hashKey(predicate(item), c.budget);
    if (previous === undefined || key !== previous) out.push([]);
    out[out.length - 1]!.push(item);
    previous = key;
  }
  return lazy(out);
}

/** splitWhere(collection, predicate): parts between the items the predicate is true for. */
function splitWhere(c: Call): unknown[] {
  const predicate = c.lambda(1);
  const items = c.list(0);
  const out: unknown[][] = [];
  let start = 0;
  for (const [i, item] of items.entries()) {
    if (truthy(predicate(item))) {
      out.push(items.slice(start, i));
      start = i + 1;
    }
  }
  if (start < items.length) out.push(items.slice(start));
  return lazy(out);
}

/** splitAt(collection, index): [items before index, the rest], with Python's slice indexes. */
function splitAt(c: Call): unknown[] {
  const items = c.list(0);
  const index = c.int(1);
  const at = index < 0 ? Math.max(0, items.length + index) : Math.min(index, items.length);
  return [items.slice(0, at), items.slice(at)];
}

/** zipLongest(collections..., default => null): pads the shorter collections with the default. */
function zipLongest(c: Call): unknown[] {
  const lists = [
    c.list(0),
    ...c.rest.map((value) => (Array.isArray(value) ? value : c.fail('every argument must be a list'))),
  ];
  const fill = c.bindings.get('default') ?? null;
  for (const name of c.bindings.keys()) if (name !== 'default') c.fail(`has no parameter named "${name}"`);
  const length = Math.max(...lists.map((l) => l.length));
  c.budget.spend(length * lists.length);
  return lazy(Array.from({ length }, (_, i) => lists.map((l) => (i < l.length ? l[i] : fill))));
}

/** isIterable(x): lists, sets and sequences are; strings and dicts are not (as in yaql). */
function isIterable(c: Call): boolean {
  return c.isSequence(0) || Array.isArray(c.value(0));
}

export const GENERATOR_FUNCTIONS: readonly FunctionDef[] = [
  define('range', ['start', 'stop?', 'step?'], range),
  define('sequence', ['start?', 'step?'], sequence),
  define('cycle', ['collection:lazy'], cycle),
  define('repeat', ['value', 'times?'], repeat),
  define(
    'generate',
    ['initial', 'predicate:lambda', 'producer:lambda', 'selector?:lambda', 'decycle?'],
    generate,
  ),
  define(
    'generateMany',
    ['initial', 'producer:lambda', 'selector?:lambda', 'decycle?', 'depthFirst?'],
    generateMany,
  ),
  define('accumulate', ['collection:lazy', 'selector:lambda', 'seed?'], accumulate),
  define('slice', ['collection:lazy', 'length'], slice),
  define('sliceWhere', ['collection', 'predicate:lambda'], sliceWhere),
  define('splitWhere', ['collection', 'predicate:lambda'], splitWhere),
  define('splitAt', ['collection', 'index'], splitAt),
  define('zipLongest', ['collection', '...collections'], zipLongest, 'bindings'),
  // A Sequence can be iterated again already; memorize() only has to read a list whole.
  define('memorize', ['collection:lazy'], (c) => c.value(0)),
  define('isIterable', ['value:lazy'], isIterable),
];
