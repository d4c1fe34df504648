import { isPlainObject } from '../../util/json.js';
import type { DocPath } from '../errors.js';
import { UNKNOWN, type Value } from '../functions/types.js';

type ValueMap = { [key: string]: Value };

function isMap(value: Value): value is ValueMap {
  return isPlainObject(value);
}

/*
 * Values are user input, so nothing here recurses on their depth: a deeply nested map must not
 * exhaust the call stack. These walks keep their own stack instead.
 */

/** A value met on a walk; it remembers its key and parent, so a path is built only when needed. */
interface Entry {
  value: Value;
  key: string | number;
  parent: Entry | undefined;
}

/** The path of the first UNKNOWN inside `value` (depth-first), or undefined when all is known. */
export function firstUnknown(value: Value, path: DocPath): DocPath | undefined {
  const stack: Entry[] = [{ value, key: '', parent: undefined }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const v = top.value;
    if (v === UNKNOWN) return [...path, ...keysOf(top)];
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i]!, key: i, parent: top });
    } else if (isMap(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: v[keys[i]!]!, key: keys[i]!, parent: top });
    }
  }
  return undefined;
}

/** The keys from the root (excluded) down to `entry`. */
function keysOf(entry: Entry): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let e: Entry | undefined = entry; e?.parent !== undefined; e = e.parent) keys.push(e.key);
  return keys.reverse();
}

/** Whether anything inside `value` is UNKNOWN. */
export function hasUnknown(value: Value): boolean {
  const stack: Value[] = [value];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (v === UNKNOWN) return true;
    // A loop, not push(...v): spreading a huge list would exceed the argument limit.
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (isMap(v)) for (const item of Object.values(v)) stack.push(item);
  }
  return false;
}

/**
 * Structural equality of two values, key order ignored. Anything UNKNOWN compares unequal, even
 * to another UNKNOWN: a value not known yet may turn out different.
 */
export function sameValue(a: Value, b: Value): boolean {
  const stack: [Value, Value][] = [[a, b]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [x, y] = top;
    if (x === UNKNOWN || y === UNKNOWN) return false;
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i]!, y[i]!]);
    } else if (isMap(x) && isMap(y)) {
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const k of keys) {
        if (!Object.hasOwn(y, k)) return false;
        stack.push([x[k]!, y[k]!]);
      }
    } else {
      return false;
    }
  }
  return true;
}
