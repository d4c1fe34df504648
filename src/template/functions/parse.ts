import type { Json } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import { FnCall, type FunctionDef, type Node, PathLink } from './types.js';

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
  return parseAt(raw, path, table);
}

function pathOf(where: PathLink | DocPath): DocPath {
  return where instanceof PathLink ? where.toPath() : where;
}

function parseAt(raw: Json, where: PathLink | DocPath, table: FunctionTable): Node {
  if (raw === null || typeof raw !== 'object') return raw;
  if (Array.isArray(raw)) {
    let out: Node[] | undefined;
    for (let i = 0; i < raw.length; i++) {
      const item = raw[i] as Json;
      // Scalars need no path: only containers and calls get a link (most nodes are scalars).
      const parsed =
        item === null || typeof item !== 'object' ? item : parseAt(item, new PathLink(where, i), table);
      // Literal data is returned as it is; only a list holding a call is copied.
      if (parsed !== item && out === undefined) out = raw.slice(0, i) as Node[];
      out?.push(parsed);
    }
    return out ?? (raw as Node[]);
  }
  const keys = Object.keys(raw);
  if (keys.length === 1) {
    const key = keys[0]!;
    const def = table.lookup(key);
    if (def) {
      const rawArgs = raw[key] as Json;
      const args = def.parseArgs
        ? def.parseArgs(rawArgs, new PathLink(where, key).toPath(), {
            value: (r, p) => parseAt(r as Json, p, table),
            condition: (r, p) => parseAt(r as Json, p, table.conditionScope ?? table),
          })
        : rawArgs === null || typeof rawArgs !== 'object'
          ? rawArgs
          : exactArgs(rawArgs, parseAt(rawArgs, new PathLink(where, key), table));
      const call = new FnCall(def, args, where);
      def.check?.(call);
      return call;
    }
    const why = table.unavailable(key);
    if (why !== undefined) throw new TemplateError('version', why, pathOf(where));
  }
  let out: { [key: string]: Node } | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = raw[key] as Json;
    const parsed =
      value === null || typeof value !== 'object' ? value : parseAt(value, new PathLink(where, key), table);
    if (parsed !== value && out === undefined) {
      out = {};
      for (let j = 0; j < i; j++) setNode(out, keys[j]!, raw[keys[j]!] as Node);
    }
    if (out) setNode(out, key, parsed);
  }
  return out ?? (raw as { [key: string]: Node });
}

/**
 * A call's arguments as kept: a literal list is copied to its exact size, since the parser's lists
 * grow by push and carry slack (a `get_attr: [r, a]` list weighs 184 bytes, its copy 64), and the
 * document's own copy is let go once the template is bound.
 */
function exactArgs(raw: Json, parsed: Node): Node {
  return parsed === raw && Array.isArray(raw) ? (raw.slice() as Node[]) : parsed;
}

function setNode(out: { [key: string]: Node }, key: string, value: Node): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value;
  }
}
