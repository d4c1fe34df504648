import type { Json } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import { FnCall, type FunctionDef, type Node } from './types.js';

/** The functions usable at one place of one template version (values, or the conditions section). */
export interface FunctionTable {
  lookup(name: string): FunctionDef | undefined;
  /** The table for arguments that are conditions (the first argument of `if`). */
  readonly conditionScope?: FunctionTable;
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
      const argPath = [...path, key];
      const args = def.parseArgs
        ? def.parseArgs(raw[key], argPath, {
            value: (r, p) => parseNode(r as Json, p, table),
            condition: (r, p) => parseNode(r as Json, p, table.conditionScope ?? table),
          })
        : parseNode(raw[key] as Json, argPath, table);
      const call = new FnCall(def, args, path);
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
