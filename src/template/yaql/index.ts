import type { Node } from './ast.js';
import { Budget, Fault } from './budget.js';
import { DEFAULT_YAQL_LIMITS, YaqlError, type YaqlLimits } from './errors.js';
import { evaluateNode } from './evaluate.js';
import { toOutput } from './output.js';
import { parse } from './parser.js';
import { materialize } from './sequence.js';

export { DEFAULT_YAQL_LIMITS, YaqlError, type YaqlLimits } from './errors.js';

/** Parsed expressions by depth limit and text: templates evaluate the same expression many times. */
const CACHE = new Map<string, Node>();
const CACHE_SIZE = 1000;

function parseCached(expression: string, limits: YaqlLimits): Node {
  const key = `${limits.maxDepth}:${expression}`;
  const cached = CACHE.get(key);
  if (cached !== undefined) {
    // Move to the end so the least recently used entry is the one evicted.
    CACHE.delete(key);
    CACHE.set(key, cached);
    return cached;
  }
  const node = parse(expression, limits.maxDepth);
  if (CACHE.size >= CACHE_SIZE) CACHE.delete(CACHE.keys().next().value!);
  CACHE.set(key, node);
  return node;
}

/**
 * Evaluates a yaql expression with `$` bound to `context` (Heat passes `{data: ...}`, so templates
 * write `$.data...`). `context` and the result are JSON-shaped. Every failure, including exceeded
 * limits, is a YaqlError.
 */
export function evaluateYaql(
  expression: string,
  context: unknown,
  limits: Partial<YaqlLimits> = {},
): unknown {
  const bounds: YaqlLimits = { ...DEFAULT_YAQL_LIMITS, ...limits };
  if (typeof expression !== 'string') throw new YaqlError('the expression must be a string');
  if (expression.length > bounds.maxExpressionLength) {
    throw new YaqlError(`the expression is longer than ${bounds.maxExpressionLength} characters`);
  }
  try {
    const node = parseCached(expression, bounds);
    const result = evaluateNode(node, context === undefined ? null : context, new Budget(bounds.maxSteps));
    return toOutput(materialize(result), bounds.maxSteps);
  } catch (error) {
    if (error instanceof YaqlError) throw error;
    // Backstops: a helper fault that escaped the evaluator, or the JavaScript stack running out.
    if (error instanceof Fault) throw new YaqlError(error.message);
    if (error instanceof RangeError)
      throw new YaqlError(`the expression is too complex to evaluate (${error.message})`);
    throw error;
  }
}
