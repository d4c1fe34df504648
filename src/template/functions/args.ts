import { isPlainObject, pyJsonDumps, typeName } from '../../util/json.js';
import { TemplateError } from '../errors.js';
import { FnCall, isUnknown, type Node, OMITTED, type ResolveContext, type Value } from './types.js';

/** Throws the error every misuse of a function produces: `<path>: <name>: <detail>`. */
export function fail(call: FnCall, detail: string): never {
  throw new TemplateError('function', `${call.name}: ${detail}`, call.path);
}

/** The call's arguments as a list of nodes, or an error saying how many were expected. */
export function argList(call: FnCall, min: number, max = min): Node[] {
  const args = call.args;
  if (!Array.isArray(args)) fail(call, `arguments must be a list, got ${typeName(args)}`);
  if (args.length < min || args.length > max) {
    const want =
      min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    fail(call, `expected ${want} arguments, got ${args.length}`);
  }
  return args;
}

/** The call's arguments as a map with only the allowed keys and all the required ones. */
export function argMap(
  call: FnCall,
  required: readonly string[],
  optional: readonly string[] = [],
): Record<string, Node> {
  const args = call.args;
  if (args === null || typeof args !== 'object' || Array.isArray(args) || !isNodeMap(args)) {
    fail(call, `arguments must be a map, got ${typeName(args)}`);
  }
  for (const key of required) {
    if (!Object.hasOwn(args, key)) fail(call, `missing required argument "${key}"`);
  }
  for (const key of Object.keys(args)) {
    if (!required.includes(key) && !optional.includes(key)) {
      fail(call, `unknown argument "${key}"; expected ${[...required, ...optional].join(', ')}`);
    }
  }
  return args;
}

function isNodeMap(node: object): node is Record<string, Node> {
  const proto = Object.getPrototypeOf(node);
  return proto === Object.prototype || proto === null;
}

/** Resolves a node that must be a string (numbers are accepted and converted, as Heat does). */
export function resolveString(
  call: FnCall,
  ctx: ResolveContext,
  node: Node,
  what: string,
): string | undefined {
  const value = ctx.resolve(node);
  if (isUnknown(value)) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return fail(call, `${what} must be a string, got ${typeName(value)}`);
}

/** Resolves a node that must be a list; undefined when unknown. */
export function resolveList(
  call: FnCall,
  ctx: ResolveContext,
  node: Node,
  what: string,
): Value[] | undefined {
  const value = ctx.resolve(node);
  if (isUnknown(value)) return undefined;
  if (Array.isArray(value)) return value;
  return fail(call, `${what} must be a list, got ${typeName(value)}`);
}

/** Resolves a node that must be a map; undefined when unknown. */
export function resolveMap(
  call: FnCall,
  ctx: ResolveContext,
  node: Node,
  what: string,
): { [key: string]: Value } | undefined {
  const value = ctx.resolve(node);
  if (isUnknown(value)) return undefined;
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return value as { [key: string]: Value };
  return fail(call, `${what} must be a map, got ${typeName(value)}`);
}

type ValueMap = { [key: string]: Value };

/** A resolved map (not a list, not null, not UNKNOWN). */
export function isMap(value: Value): value is ValueMap {
  return isPlainObject(value);
}

/**
 * Resolves one argument node the way Heat's top-level resolve does: an omitted `if` result
 * (2021-04-16 `if` without a false branch) stands for null when it is a whole argument.
 */
export function resolveArg(ctx: ResolveContext, node: Node): Value {
  const value = ctx.resolve(node);
  return value === OMITTED ? null : value;
}

/** What a node is, for messages: a literal's type name, or the function call it is. */
export function describeNode(node: Node): string {
  return node instanceof FnCall ? `a "${node.name}" call` : typeName(node);
}

/** A value quoted in an error message, shortened like Heat's `repr(s)[:200]`. */
export function showValue(value: Value): string {
  const text = pyJsonDumps(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** The call's literal argument list with `min`..`max` items; `usage` shows the expected form. */
export function literalList(call: FnCall, min: number, max: number, usage: string): Node[] {
  const args = call.args;
  if (!Array.isArray(args))
    fail(call, `arguments must be a list of the form ${usage}, got ${describeNode(args)}`);
  if (args.length < min || args.length > max) {
    const want =
      min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    fail(call, `expected ${want} arguments of the form ${usage}, got ${args.length}`);
  }
  return args;
}
