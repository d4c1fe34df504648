import { type Json, pyJsonDumps } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import { parseBoolean, parseNumber, pyStr } from './coerce.js';
import { customConstraintError } from './custom-constraints.js';
import { matchesWhole } from './pattern.js';
import type { Constraint, ParameterSchema, ParameterType } from './types.js';
import { MASK } from './validate-output.js';

export interface CheckOptions {
  /**
   * Skip custom constraints. Heat does so when it checks a template's defaults, since those
   * constraints may need a cloud; the default is still checked fully when it becomes the value.
   */
  skipCustom?: boolean;
}

/**
 * Checks a value, already converted by coerceParameterValue, against every constraint of the
 * parameter. The first failure throws TemplateError('parameter') at `path`, worded by the
 * constraint's own description when it has one.
 */
export function checkConstraints(
  schema: ParameterSchema,
  value: Json,
  path: DocPath,
  options: CheckOptions = {},
): void {
  for (const c of schema.constraints) {
    if (options.skipCustom && c.kind === 'custom_constraint') continue;
    // A hidden parameter's value is never quoted: error messages reach responses and logs.
    const failure = constraintFailure(c, schema.type, value, schema.hidden ? MASK : undefined);
    if (failure !== undefined) throw new TemplateError('parameter', c.description ?? failure, path);
  }
}

/** Python prints a missing bound as None. */
function bound(n: number | undefined): string {
  return n === undefined ? 'None' : String(n);
}

/**
 * The generated message when `value` fails `c`, or undefined when it passes. With `shown`, the
 * message quotes that instead of the value (a hidden parameter's mask).
 */
export function constraintFailure(
  c: Constraint,
  type: ParameterType,
  value: Json,
  shown?: string,
): string | undefined {
  switch (c.kind) {
    case 'range': {
      const n = Number(value);
      if ((c.min === undefined || n >= c.min) && (c.max === undefined || n <= c.max)) return undefined;
      return `${shown ?? pyStr(value)} is out of range (min: ${bound(c.min)}, max: ${bound(c.max)})`;
    }
    case 'length': {
      const len = lengthOf(value);
      if ((c.min === undefined || len >= c.min) && (c.max === undefined || len <= c.max)) return undefined;
      return `length (${len}) is out of range (min: ${bound(c.min)}, max: ${bound(c.max)})`;
    }
    case 'modulo': {
      if (pyMod(Number(value), c.step!) === c.offset) return undefined;
      return `${shown ?? pyStr(value)} is not a multiple of ${c.step} with an offset of ${c.offset}`;
    }
    case 'allowed_values': {
      const allowed = c.values ?? [];
      if (isAllowed(value, allowed, type)) return undefined;
      return `${shown ?? pyJsonDumps(value)} is not an allowed value [${allowed.map(pyJsonDumps).join(', ')}]`;
    }
    case 'allowed_pattern': {
      const text = pyStr(value);
      if (matchesWhole(c.pattern!, text)) return undefined;
      return `"${shown ?? text}" does not match pattern "${c.pattern}"`;
    }
    case 'custom_constraint': {
      const error = customConstraintError(c.name!, value);
      // A validator's reason may quote the value: a masked one gives none.
      return error === undefined || shown === undefined ? error : `Error validating value '${shown}'`;
    }
  }
}

/** Characters (code points, as Python counts), list items, or map keys. */
function lengthOf(value: Json): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return pyStr(value).length;
}

/** Python's `%`: the result takes the divisor's sign. */
function pyMod(value: number, step: number): number {
  const r = value % step;
  return r !== 0 && r < 0 !== step < 0 ? r + step : r;
}

/**
 * Heat compares a list's items with the allowed values as written; a scalar is compared after
 * converting both it and each allowed value to the parameter's type (so `allowed_values: [1]`
 * admits "1" for a string, and `[true]` admits "yes" for a boolean).
 */
function isAllowed(value: Json, allowed: Json[], type: ParameterType): boolean {
  if (Array.isArray(value)) return value.every((item) => allowed.some((a) => a === item));
  const asType = (v: Json): Json | undefined => {
    if (type === 'number')
      return typeof v === 'number' ? v : typeof v === 'string' ? parseNumber(v) : undefined;
    if (type === 'boolean') return parseBoolean(v);
    return pyStr(v);
  };
  const want = asType(value);
  return want !== undefined && allowed.some((a) => asType(a) === want);
}
