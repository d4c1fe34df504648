import { argMap, fail, resolveString } from './args.js';
import { containsUnknown, type FunctionDef, type Node, UNKNOWN } from './types.js';

/** `yaql: {expression: ..., data: ...}`: evaluates a yaql expression with `$.data` bound to data. */
export const yaql: FunctionDef = {
  name: 'yaql',
  description: 'A function for executing a yaql expression.',
  check(call) {
    const args = argMap(call, ['expression'], ['data']);
    const expression = args.expression;
    if (expression !== null && typeof expression !== 'string' && typeof expression !== 'object') {
      fail(call, 'the "expression" argument must be a string');
    }
  },
  resolve(call, ctx) {
    const args = call.args as Record<string, Node>;
    const expression = resolveString(call, ctx, args.expression ?? null, 'the "expression" argument');
    if (expression === undefined) return UNKNOWN;
    const data = args.data === undefined ? {} : ctx.resolve(args.data);
    if (containsUnknown(data)) return UNKNOWN;
    return ctx.yaql(expression, { data }, call.path);
  },
};
