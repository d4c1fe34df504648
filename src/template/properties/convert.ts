import { pyJsonDumps } from '../../util/json.js';
import type { DocPath } from '../errors.js';
import { TemplateError } from '../errors.js';
import { Omitted, type Value } from '../functions/types.js';
import { parseNumber, pyStr } from '../parameters/coerce.js';

/** Values are user input and may be large: messages show at most this many characters of one. */
const SHOWN_MAX = 80;

/** A value as error messages quote it: strings in double quotes, the rest as JSON. */
export function shown(value: Value): string {
  const text = value instanceof Omitted ? 'null' : pyJsonDumps(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX - 3)}...` : text;
}

export function propertyError(detail: string, path: DocPath): TemplateError {
  return new TemplateError('property', detail, path);
}

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;

/**
 * Heat's conversions to a string property: strings as they are, and numbers and booleans by
 * Python's `str()` (so `true` becomes "True", as in Heat). Heat refuses non-integral numbers
 * here; they are accepted, since refusing them helps no one.
 */
export function toStringProperty(value: Value, path: DocPath): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return pyStr(value);
  throw propertyError(`Value ${shown(value)} is not a string`, path);
}

/**
 * Integral numbers, and strings holding one (Python's `int()`). Unlike Heat, which truncates
 * 1.5 to 1 and reads `true` as 1, those are refused: they are always a mistake.
 */
export function toIntegerProperty(value: Value, path: DocPath): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) return Number(value.trim());
  throw propertyError(`Value ${shown(value)} is not an integer`, path);
}

/** Numbers, and strings holding one (Python's `int()`, then `float()`). */
export function toNumberProperty(value: Value, path: DocPath): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const n = typeof value === 'string' ? parseNumber(value) : undefined;
  if (n !== undefined) return n;
  throw propertyError(`Value ${shown(value)} is not a number`, path);
}

/**
 * Booleans, and the strings "true" and "false" in any case. Heat deliberately refuses numbers and
 * the other spellings parameters accept (yes, on, 1...), and so does this.
 */
export function toBooleanProperty(value: Value, path: DocPath): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
  }
  throw propertyError(`Value ${shown(value)} is not a valid boolean (expected true or false)`, path);
}
