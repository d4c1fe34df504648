import { setOwn } from '../../util/json.js';
import { FnCall, type Node, OMITTED, type ResolveContext, type Value } from './types.js';

/**
 * Evaluates a parsed node: literals are returned as they are, calls are resolved, and items that
 * resolve to OMITTED (an `if` without a false branch) are dropped from their list or map.
 */
export function resolveNode(node: Node, ctx: ResolveContext): Value {
  if (node instanceof FnCall) return node.def.resolve(node, ctx);
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
