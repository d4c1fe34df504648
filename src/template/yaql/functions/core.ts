import type { Scope } from '../scope.js';
import { isInteger, truthy } from '../values.js';
import { type Call, define, type FunctionDef } from './types.js';

/** Conversions, type tests, branching and let(). */

const PY_INT = /^[+-]?\d+(?:_\d+)*$/;
const PY_FLOAT = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const PY_SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** Python's int(): null is 0, floats truncate, strings must be integer literals. */
function toInt(c: Call): number {
  const value = c.value(0);
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return c.fail(`cannot convert ${value} to an integer`);
    return Math.trunc(value) + 0;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (!PY_INT.test(text)) return c.fail(`invalid integer ${JSON.stringify(value)}`);
    return Number(text.replaceAll('_', ''));
  }
  return c.wrongType(0, 'a number, string, boolean or null', value);
}

/** Python's float(): also accepts exponents, "inf" and "nan". */
function toFloat(c: Call): number {
  const value = c.value(0);
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim();
    const special = PY_SPECIAL_FLOAT.exec(text);
    if (special) {
      if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
      return special[1] === '-' ? -Infinity : Infinity;
    }
    if (!PY_FLOAT.test(text)) return c.fail(`invalid number ${JSON.stringify(value)}`);
    return Number(text.replaceAll('_', ''));
  }
  return c.wrongType(0, 'a number, string, boolean or null', value);
}

/** coalesce(a, b, ...): the first argument that is not null, evaluating no further. */
function coalesce(c: Call): unknown {
  for (const arg of c.rest) {
    const value = (arg as () => unknown)();
    if (value !== null) return value;
  }
  return null;
}

/** switch(condition => value, ...): the value of the first true condition, else null. */
function switchFn(c: Call): unknown {
  if (c.rest.length > 0) return c.fail('takes only "condition => value" pairs');
  for (const mapping of c.mappings) if (truthy(mapping.key())) return mapping.value();
  return null;
}

/** let(a, b, name => value) or with(a, b): a scope for the right of `->`, binding $1, $2... and $name. */
function letFn(c: Call): Scope {
  const vars = new Map<string, unknown>();
  for (const [i, value] of c.rest.entries()) vars.set(String(i + 1), value);
  for (const [name, value] of c.bindings) vars.set(name, value);
  return c.scope.child(vars);
}

function abs(c: Call): number {
  return Math.abs(c.number(0));
}

export const CORE_FUNCTIONS: readonly FunctionDef[] = [
  define('int', ['value'], toInt),
  define('float', ['value'], toFloat),
  define('bool', ['value'], (c) => truthy(c.value(0))),
  define('isInteger', ['value'], (c) => isInteger(c.value(0))),
  define('isNumber', ['value'], (c) => typeof c.value(0) === 'number'),
  define('isBoolean', ['value'], (c) => typeof c.value(0) === 'boolean'),
  define('abs', ['number'], abs),
  define('coalesce', ['...args:lambda'], coalesce),
  define('switch', ['...cases'], switchFn, 'mappings'),
  define('let', ['...args:lazy'], letFn, 'bindings'),
  define('with', ['...args:lazy'], letFn),
];
