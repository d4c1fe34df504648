import { setOwn } from '../../util/json.js';
import { TemplateError } from '../errors.js';
import { FnCall, type Node, OMITTED, type ResolveContext, type Value } from './types.js';

/**
 * Evaluates a parsed node: literals are returned as they are, calls are resolved, and items that
 * resolve to OMITTED (an `if` without a false branch) are dropped from their list or map.
 */
export function resolveNode(node: Node, ctx: ResolveContext): Value {
  if (node instanceof FnCall) return resolveCall(node, ctx);
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) {
    const out: Value[] = [];
    for (const item of node) {
      const value = ctx.resolve(item);
      if (value !== OMITTED) out.push(value);
    }
    return out;
  }
  const out: { [key: string]: Value } = {};
  for (const key of Object.keys(node)) {
    const value = ctx.resolve(node[key] as Node);
    if (value !== OMITTED) setOwn(out, key, value);
  }
  return out;
}

/**
 * Resolves one call. A result too large for the engine (a string over V8's limit) or a nesting too
 * deep for the stack becomes a limit error at the call, not a crash.
 */
function resolveCall(call: FnCall, ctx: ResolveContext): Value {
  try {
    return call.def.resolve(call, ctx);
  } catch (err) {
    if (err instanceof RangeError && !(err instanceof TemplateError)) {
      throw new TemplateError('limit', `${call.name}: ${limitReason(err)}`, call.path);
    }
    throw err;
  }
}

function limitReason(err: RangeError): string {
  if (/string length/i.test(err.message)) return 'the result is larger than the engine can hold';
  if (/call stack/i.test(err.message)) return 'functions are nested too deeply to evaluate';
  return `a size limit was exceeded (${err.message})`;
}

/** Calls `visit` on every function call in the node, outermost first. */
export function walkCalls(node: Node, visit: (call: FnCall) => boolean | undefined): void {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current instanceof FnCall) {
      // A visitor returning false handles the call's arguments itself.
      if (visit(current) !== false) stack.push(current.args);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push(current[i] as Node);
    } else if (current !== null && typeof current === 'object') {
      for (const value of Object.values(current)) stack.push(value);
    }
  }
}
