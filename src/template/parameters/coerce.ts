import { isPlainObject, type Json, pyJsonDumps } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import { parseJsonText, TooDeepError } from '../depth.js';
import type { ParameterSchema } from './types.js';
import { MASK } from './validate-output.js';

/**
 * Python's `str()` of a value, which Heat applies when it turns a parameter value into a string.
 * Booleans therefore become `True`/`False`; maps and lists are JSON-encoded rather than Python-repr'd.
 */
export function pyStr(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (value === null) return 'None';
  return pyJsonDumps(value);
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number from its text as Python's `int()` then `float()` would read it (surrounding whitespace
 * allowed). Infinity and NaN, which Python accepts, are refused: JSON cannot carry them.
 */
export function parseNumber(text: string): number | undefined {
  const t = text.trim();
  if (!INTEGER.test(t) && !DECIMAL.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const TRUE_STRINGS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'f', 'false', 'off', 'n', 'no'];
const ACCEPTED_BOOLEANS = [...TRUE_STRINGS, ...FALSE_STRINGS]
  .sort()
  .map((s) => `'${s}'`)
  .join(', ');

/** oslo `strutils.bool_from_string(value, strict=True)`: undefined when the text is not recognised. */
export function parseBoolean(value: Json): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const t = pyStr(value).trim().toLowerCase();
  if (TRUE_STRINGS.includes(t)) return true;
  if (FALSE_STRINGS.includes(t)) return false;
  return undefined;
}

function invalid(schema: ParameterSchema, raw: Json, why: string, path: DocPath): TemplateError {
  const shown = schema.hidden ? MASK : typeof raw === 'string' ? raw : pyJsonDumps(raw);
  return new TemplateError(
    'parameter',
    `Value "${shown}" is invalid for parameter "${schema.name}": ${why}`,
    path,
  );
}

/**
 * Converts a supplied value (from the API, an environment file or `--parameter K=V`, so a string or
 * any JSON value) or a default into the parameter's type, as Heat's Parameter classes do.
 * Throws TemplateError('parameter') at `path` when the value cannot be converted.
 */
export function coerceParameterValue(
  schema: ParameterSchema,
  raw: Json,
  path: DocPath,
  /** How deep a `json` value given as text may nest (the document depth limit). */
  maxDepth?: number,
): Json {
  if (raw === null) {
    throw new TemplateError('parameter', `No value given for parameter "${schema.name}"`, path);
  }
  switch (schema.type) {
    case 'string':
      return pyStr(raw);
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseNumber(raw) : undefined;
      if (n === undefined || !Number.isFinite(n)) throw invalid(schema, raw, 'must be a number', path);
      return n;
    }
    case 'boolean': {
      const b = parseBoolean(raw);
      if (b === undefined) {
        throw invalid(schema, raw, `must be a boolean; acceptable values are: ${ACCEPTED_BOOLEANS}`, path);
      }
      return b;
    }
    case 'comma_delimited_list':
      if (Array.isArray(raw)) return raw.map(pyStr);
      if (typeof raw !== 'string') {
        throw invalid(schema, raw, 'must be a list or a comma-delimited list string', path);
      }
      // Unlike Heat, items are trimmed, so `a, b` means ['a', 'b'] as users expect.
      return raw.trim() === '' ? [] : raw.split(',').map((item) => item.trim());
    case 'json':
      return coerceJson(schema, raw, path, maxDepth);
  }
}

function coerceJson(schema: ParameterSchema, raw: Json, path: DocPath, maxDepth?: number): Json {
  // Heat's JsonParam parses only non-empty text: '' stays '' (a common "not set" default).
  if (raw === '') return '';
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = parseJsonText(raw, maxDepth);
    } catch (err) {
      if (err instanceof TooDeepError) throw invalid(schema, raw, `must be JSON ${err.message}`, path);
      // The parser's message quotes the text: not for a hidden value.
      const why = schema.hidden ? 'must be valid JSON' : `must be valid JSON: ${(err as Error).message}`;
      throw invalid(schema, raw, why, path);
    }
  }
  if (!Array.isArray(value) && !isPlainObject(value)) {
    throw invalid(schema, raw, 'must be a JSON map or list', path);
  }
  return value as Json;
}
