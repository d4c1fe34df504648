import { isSecretName } from '../context/drift-compare.js';
import { Omitted, UNKNOWN, type Value } from '../../template/functions/types.js';
import { MASK } from '../../template/parameters/index.js';
import { sameValue } from '../../template/properties/walk.js';
import type { Redact } from '../../template/hidden-values.js';
import { isPlainObject, type Json, setOwn } from '../../util/json.js';
import { knownValue } from './preview.js';

/**
 * The property-level diff `stack plan` shows: one entry per changed leaf, named by a compact path
 * (`a.b[2]`), secrets masked. Only what differs is listed; absent and null are the same (as the
 * engine's diffProperties compares).
 */
export interface PropertyChange {
  path: string;
  /** Before the update (null when absent or for a resource the update creates). */
  old: Json;
  /** After it (null when absent or not known yet). */
  new: Json;
  /** The new value depends on what only the update produces. */
  known_after_apply?: true;
}

/** Leaf changes between `oldProps` and `newProps` (UNKNOWN anywhere in them: known after apply). */
export function propertyChanges(oldProps: Value, newProps: Value, redact: Redact): PropertyChange[] {
  const out: PropertyChange[] = [];
  walk(absentToNull(oldProps), absentToNull(newProps), [], out, redact);
  return out;
}

function absentToNull(value: Value | undefined): Value {
  return value === undefined || value instanceof Omitted ? null : value;
}

function walk(oldV: Value, newV: Value, path: string[], out: PropertyChange[], redact: Redact): void {
  if (newV !== UNKNOWN && sameValue(oldV, newV)) return;
  if (newV !== UNKNOWN && isPlainObject(oldV) && isPlainObject(newV)) {
    const o = oldV as Record<string, Value>;
    const n = newV as Record<string, Value>;
    const keys = [...new Set([...Object.keys(o), ...Object.keys(n)])].sort();
    for (const k of keys) walk(absentToNull(own(o, k)), absentToNull(own(n, k)), [...path, k], out, redact);
    return;
  }
  if (newV !== UNKNOWN && Array.isArray(oldV) && Array.isArray(newV) && oldV.length === newV.length) {
    oldV.forEach((item, i) => walk(item, absentToNull(newV[i]), [...path, `[${i}]`], out, redact));
    return;
  }
  const secret = path.some((segment) => isSecretName(segment));
  const shown = (v: Value): Json => (secret && v !== null ? MASK : masked(knownValue(v), redact));
  const change: PropertyChange = {
    path: path.length === 0 ? 'properties' : pathText(path),
    old: shown(oldV),
    new: newV === UNKNOWN ? null : shown(newV),
  };
  if (newV === UNKNOWN) change.known_after_apply = true;
  out.push(change);
}

function own(o: Record<string, Value>, k: string): Value | undefined {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** `a.b[2]`: map keys joined by dots, list indexes in brackets. */
function pathText(path: readonly string[]): string {
  return path.reduce(
    (text, segment) => (segment.startsWith('[') || text === '' ? text + segment : `${text}.${segment}`),
    '',
  );
}

/** Hidden parameters' values masked wherever they appear, secret-named map keys masked whole. */
function masked(value: Json, redact: Redact): Json {
  if (typeof value === 'string') return redact(value);
  if (typeof value === 'number' || typeof value === 'boolean') {
    return redact(String(value)) === String(value) ? value : MASK;
  }
  if (Array.isArray(value)) return value.map((v) => masked(v, redact));
  if (isPlainObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value))
      setOwn(out, k, isSecretName(k) && v !== null ? MASK : masked(v as Json, redact));
    return out;
  }
  return value;
}
