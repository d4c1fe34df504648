import { type Budget, fault } from './budget.js';
import { MAX_VALUE_DEPTH } from './errors.js';
import { Regex } from './regex/index.js';
import { compareTimes, DateTime, TimeSpan } from './time.js';

/**
 * Values during evaluation are JSON-shaped, except that dicts built by an expression are Maps: they
 * keep insertion order for every key (a plain object would move "1" before "b") and may have any
 * scalar as a key. Dicts that come from the input stay plain objects and are only read, through
 * Object.hasOwn, so that "__proto__" or "constructor" are ordinary missing keys.
 */
export type Dict = Map<unknown, unknown> | Record<string, unknown>;

export function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

export function isDict(value: unknown): value is Dict {
  if (value instanceof Map) return true;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A number that yaql would treat as an int (JSON cannot tell 2 from 2.0, so integral means int). */
export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

export function dictEntries(dict: Dict): [unknown, unknown][] {
  if (dict instanceof Map) return [...dict];
  return Object.keys(dict).map((key) => [key, dict[key] ?? null]);
}

export function dictSize(dict: Dict): number {
  return dict instanceof Map ? dict.size : Object.keys(dict).length;
}

/** The value under `key`, or undefined when there is none. */
export function dictGet(dict: Dict, key: unknown): unknown {
  if (dict instanceof Map) return dict.get(key);
  if (typeof key !== 'string' || !Object.hasOwn(dict, key)) return undefined;
  return dict[key] ?? null;
}

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'list';
  if (isDict(value)) return 'dict';
  if (value instanceof Regex) return 'regex';
  if (value instanceof DateTime) return 'datetime';
  if (value instanceof TimeSpan) return 'timespan';
  return 'context';
}

/** Python truthiness, which yaql uses for conditions: null, false, 0, "", [] and {} are false. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return dictSize(value) > 0;
  if (value instanceof TimeSpan) return value.micros !== 0n;
  return true;
}

function checkDepth(depth: number): void {
  if (depth > MAX_VALUE_DEPTH) fault(`data is nested more than ${MAX_VALUE_DEPTH} levels deep`);
}

/** Python `==`: booleans equal the numbers 0 and 1, lists compare by items, dicts ignore key order. */
export function equal(a: unknown, b: unknown, budget: Budget, depth = 0): boolean {
  budget.spend();
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === 'number' || ta === 'boolean') && (tb === 'number' || tb === 'boolean')) {
    return Number(a) === Number(b);
  }
  checkDepth(depth);
  if (isSetList(a) && isSetList(b)) {
    if (a.length !== b.length) return false;
    const keys = new Set(b.map((item) => hashKey(item, budget, depth + 1)));
    return a.every((item) => keys.has(hashKey(item, budget, depth + 1)));
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => equal(item, b[i], budget, depth + 1));
  }
  const timeOrder = compareTimes(a, b);
  if (timeOrder !== undefined) return timeOrder === 0;
  if (a instanceof Regex && b instanceof Regex) {
    return a.pattern === b.pattern && JSON.stringify(a.flags) === JSON.stringify(b.flags);
  }
  if (isDict(a) && isDict(b)) {
    if (dictSize(a) !== dictSize(b)) return false;
    return dictEntries(a).every(([key, value]) => {
      const other = dictGet(b, key);
      return other !== undefined && equal(value, other, budget, depth + 1);
    });
  }
  return false;
}

/**
 * A string that is the same for values `equal` calls equal, to group and deduplicate in linear time.
 * Dict entries are sorted so key order does not matter.
 */
export function hashKey(value: unknown, budget: Budget, depth = 0): string {
  budget.spend();
  if (value === null || value === undefined) return 'z';
  if (typeof value === 'boolean' || typeof value === 'number') return `n${Number(value)}`;
  if (typeof value === 'string') return `s${JSON.stringify(value)}`;
  if (value instanceof DateTime) return `d${value.instant}`;
  if (value instanceof TimeSpan) return `t${value.micros}`;
  checkDepth(depth);
  if (Array.isArray(value)) return `[${value.map((v) => hashKey(v, budget, depth + 1)).join(',')}]`;
  if (isDict(value)) {
    const parts = dictEntries(value).map(
      ([k, v]) => `${hashKey(k, budget)}:${hashKey(v, budget, depth + 1)}`,
    );
    return `{${parts.sort().join(',')}}`;
  }
  return fault(`a ${typeName(value)} cannot be compared`);
}

/** The items without duplicates (as `equal` sees them), in first-seen order. */
export function uniqueValues(items: readonly unknown[], budget: Budget): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = hashKey(item, budget);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * yaql's ordering: numbers with numbers, strings with strings (by code point), and null before
 * everything else. Anything else (lists, dicts, booleans, mixed types) is an error, as in yaql.
 */
export function compare(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  const timeOrder = compareTimes(a, b);
  if (timeOrder !== undefined) return timeOrder;
  return fault(`cannot compare ${typeName(a)} with ${typeName(b)}`);
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : 1;
}

/** Python's str() of a number: integers in full, floats in repr form ("1e-05", "inf"). */
export function numberToString(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n === 0 ? 0 : n) : BigInt(n).toString();
  if (Math.abs(n) >= 1e-4) return String(n);
  const [mantissa, exponent] = n.toExponential().split('e') as [string, string];
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${exponent.replace(/^[-+]/, '').padStart(2, '0')}`;
}

/** yaql's str(): null, true and false in yaql spelling; lists and dicts as JSON text. */
export function toStr(value: unknown, budget: Budget): string {
  if (typeof value === 'string') return value;
  const text = toJsonText(value, budget, 0);
  budget.spendChars(text.length);
  return text;
}

/** JSON text with Python's json.dumps spacing: `[1, 2]`, `{"a": 1}`. */
function toJsonText(value: unknown, budget: Budget, depth: number): string {
  budget.spend();
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return numberToString(value);
  if (typeof value === 'string') return depth === 0 ? value : JSON.stringify(value);
  if (value instanceof DateTime || value instanceof TimeSpan) {
    return depth === 0 ? String(value) : JSON.stringify(String(value));
  }
  checkDepth(depth);
  if (Array.isArray(value)) return `[${value.map((v) => toJsonText(v, budget, depth + 1)).join(', ')}]`;
  if (isDict(value)) {
    const parts = dictEntries(value).map(
      ([k, v]) => `${JSON.stringify(keyToString(k, budget))}: ${toJsonText(v, budget, depth + 1)}`,
    );
    return `{${parts.join(', ')}}`;
  }
  return fault(`a ${typeName(value)} cannot be converted to a string`);
}

/** How a dict key appears in output, where keys must be strings (as Python's json.dumps writes them). */
export function keyToString(key: unknown, budget: Budget): string {
  if (typeof key === 'string') return key;
  if (key === null || typeof key === 'number' || typeof key === 'boolean') return toStr(key, budget);
  return fault(`a ${typeName(key)} cannot be a dict key`);
}

/** Sets an own property, even "__proto__" (which plain assignment would treat as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Lists that yaql would return as lazy iterators (select, where, ...). Only `list()` cares: like
 * yaql, it splices such results into the list it builds instead of nesting them.
 */
const LAZY_RESULTS = new WeakSet<unknown[]>();

export function lazy<T>(list: T[]): T[] {
  LAZY_RESULTS.add(list);
  return list;
}

export function isLazy(value: unknown): value is unknown[] {
  return Array.isArray(value) && LAZY_RESULTS.has(value);
}

/**
 * Lists that are yaql sets (made by set(), toSet(), union()...). They are lists in output, as Heat
 * would show them, but compare as sets (`set(1, 2) = set(2, 1)`), and isSet() knows them.
 */
const SET_RESULTS = new WeakSet<unknown[]>();

export function asSet<T>(list: T[]): T[] {
  SET_RESULTS.add(list);
  return list;
}

export function isSetList(value: unknown): value is unknown[] {
  return Array.isArray(value) && SET_RESULTS.has(value);
}
