import type { Json } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import { FnCall, type FunctionDef, type Node } from './types.js';

/** The functions usable at one place of one template version (values, or the conditions section). */
export interface FunctionTable {
  lookup(name: string): FunctionDef | undefined;
  /** Why `name` cannot be used here, when it is a function some version knows; undefined otherwise. */
  unavailable(name: string): string | undefined;
}

/**
 * Turns raw template data into a node tree: a map with exactly one key that names a function
 * becomes a call, as Heat's template parser does. Arguments are parsed recursively, then the
 * function checks their static shape.
 */
export function parseNode(raw: Json, path: DocPath, table: FunctionTable): Node {
  if (raw === null || typeof raw !== 'object') return raw;
  if (Array.isArray(raw)) return raw.map((item, i) => parseNode(item, [...path, i], table));
  const keys = Object.keys(raw);
  if (keys.length === 1) {
    const key = keys[0]!;
    const def = table.lookup(key);
    if (def) {
      const call = new FnCall(def, parseNode(raw[key] as Json, [...path, key], table), path);
      def.check?.(call);
      return call;
    }
    const why = table.unavailable(key);
    if (why !== undefined) throw new TemplateError('version', why, path);
  }
  const out: { [key: string]: Node } = {};
  for (const key of keys) {
    const value = parseNode(raw[key] as Json, [...path, key], table);
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = value;
    }
  }
  return out;
}
