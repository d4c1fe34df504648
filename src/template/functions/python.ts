import { pyJsonDumps } from '../../util/json.js';
import { isMap } from './args.js';
import type { Value } from './types.js';

/*
 * Heat's functions are Python: where Python's conversions leak into results (str(), int(),
 * json.dumps(sort_keys=True), str.split()), these reproduce them. Used by strings.ts,
 * collections.ts, url.ts and cfn.ts.
 */

/** Python truthiness of a JSON value (`if value:`). */
export function pyTruthy(value: Value): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

/** Python's `str()` of a number: integers plainly, floats in repr form (`1e-05`, `1e+16`). */
export function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  // toExponential() without digits gives the shortest round-trip digits, as Python's repr does.
  const [mantissa = '', exponent = '0'] = n.toExponential().split('e');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 16)
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** Python's `str()` of a JSON value (`None`, `True`, `['a', 1]` ...). */
export function pyStr(value: Value): string {
  if (typeof value === 'string') return value;
  return pyRepr(value);
}

/** Python's `repr()` of a JSON value. */
export function pyRepr(value: Value): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (isMap(value)) {
    return `{${Object.keys(value)
      .map((key) => `${pyStringRepr(key)}: ${pyRepr(value[key] as Value)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's whitespace (str.isspace), for `int()` and `str.split(None)`. */
const PY_SPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_INT = new RegExp(`^[${PY_SPACE}]*([+-]?\\d+(?:_\\d+)*)[${PY_SPACE}]*$`);
const PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`);

/** Python's `int()` of a value used as an index; undefined where Python raises. */
export function pyInt(value: Value): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === 'string') {
    const match = PY_INT.exec(value);
    return match ? Number(match[1]!.replaceAll('_', '')) : undefined;
  }
  return undefined;
}

/** Orders strings by code point, as Python's `sorted()` does (JS sorts by UTF-16 unit). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * `json.dumps(value, sort_keys=True)` as Heat uses it to put lists and maps into strings. Keys are
 * sorted here rather than by rebuilding objects, because JS objects list integer-like keys first.
 */
export function pyJsonDumpsSorted(value: Value): string {
  if (Array.isArray(value)) return `[${value.map(pyJsonDumpsSorted).join(', ')}]`;
  if (isMap(value)) {
    return `{${Object.keys(value)
      .sort(compareCodePoints)
      .map((key) => `${pyJsonDumps(key)}: ${pyJsonDumpsSorted(value[key] as Value)}`)
      .join(', ')}}`;
  }
  return pyJsonDumps(value);
}

/** Python's `str.split()` (no separator): splits on runs of whitespace, dropping empty parts. */
export function pySplitWhitespace(text: string): string[] {
  return text.split(PY_SPACE_RUN).filter((part) => part !== '');
}
