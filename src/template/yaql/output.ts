import { Budget } from './budget.js';
import { CHARS_PER_STEP, MAX_VALUE_DEPTH, YaqlError } from './errors.js';
import { DateTime, TimeSpan } from './time.js';
import { dictEntries, isDict, keyToString, setOwn, typeName } from './values.js';

/**
 * Converts an evaluation result to plain JSON-shaped data: Maps become objects with string keys.
 * The result's size is bounded too: values that share structure (`[$a, $a, ...]` nested) could
 * otherwise describe an exponentially large tree with little work.
 */
export function toOutput(value: unknown, maxSteps: number): unknown {
  let values = 0;
  let chars = 0;
  const keyBudget = new Budget(Number.POSITIVE_INFINITY);
  const convert = (v: unknown, depth: number): unknown => {
    if (++values > maxSteps) throw new YaqlError(`the result is too large (more than ${maxSteps} values)`);
    if (v === null || v === undefined) return null;
    if (typeof v === 'boolean' || typeof v === 'number') return v;
    // As Heat's API writes them: a datetime in ISO 8601, a timedelta as Python's str().
    if (v instanceof DateTime) v = v.isoFormat();
    else if (v instanceof TimeSpan) v = String(v);
    if (typeof v === 'string') {
      chars += v.length;
      if (chars > maxSteps * CHARS_PER_STEP) {
        throw new YaqlError(`the result is too large (more than ${maxSteps * CHARS_PER_STEP} characters)`);
      }
      return v;
    }
    if (depth > MAX_VALUE_DEPTH)
      throw new YaqlError(`the result is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    if (Array.isArray(v)) return v.map((item) => convert(item, depth + 1));
    if (isDict(v)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of dictEntries(v))
        setOwn(out, keyToString(key, keyBudget), convert(item, depth + 1));
      return out;
    }
    throw new YaqlError(`the result cannot hold a ${typeName(v)} (let(...) must be followed by "->")`);
  };
  return convert(value, 0);
}
