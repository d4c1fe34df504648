import { argMap, fail, resolveString } from './args.js';
import { type DocPath, TemplateError } from '../errors.js';
import { evaluateYaql, YaqlError } from '../yaql/index.js';
import { containsUnknown, type FunctionDef, type Node, UNKNOWN, type Value } from './types.js';

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

/** Evaluates a yaql expression for a template function, reporting a bad one as a positioned TemplateError. */
export function evaluateYaqlAt(expression: string, data: Value, path: DocPath): Value {
  try {
    return evaluateYaql(expression, data) as Value;
  } catch (err) {
    if (err instanceof YaqlError) throw new TemplateError('function', `yaql: ${err.message}`, path);
    throw err;
  }
}
