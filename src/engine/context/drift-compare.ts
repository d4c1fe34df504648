import type { PropertyDrift } from '../../store/contract.js';
import type { Value } from '../../template/functions/types.js';
import { MASK } from '../../template/parameters/index.js';
import type { PropertiesSchema } from '../../template/properties/index.js';
import { validateValue } from '../../template/properties/validate.js';
import { sameValue } from '../../template/properties/walk.js';
import { getOwn, isPlainObject, type Json, setOwn } from '../../util/json.js';

/**
 * Names of properties (and of map keys inside them) whose values are secrets: a property schema
 * has no "hidden" flag, so the name is the signal (Nova's admin_pass, a user's password, ...).
 */
const SECRET_NAME = /(^|_)(pass|password|passphrase|secret|token|private_key|credentials?)($|_)/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The properties whose live value differs from the one the resource was last converged to. Only
 * what the live state reports is compared (a type maps back a subset), and only properties the
 * template gave a value (or the schema a default): one left unset is the cloud's to choose (a
 * generated name). The live value is converted by the schema first, as the stored one was, so
 * `"1"` and `1` for an integer are the same. Secret values are masked.
 */
export function propertyDrift(
  schema: PropertiesSchema,
  stored: Readonly<Record<string, Value>>,
  live: Readonly<Record<string, Value>>,
): PropertyDrift[] {
  return liveDifferences(schema, stored, live).map(({ name, expected, actual }) => {
    const secret = isSecretName(name);
    return {
      name,
      expected: secret ? MASK : masked(expected as Json),
      actual: secret ? MASK : masked(actual as Json),
    };
  });
}

/** A property whose live value differs, both values as they are (secrets included: never store these). */
export interface LiveDifference {
  name: string;
  expected: Value;
  actual: Value;
}

/** The comparison `propertyDrift` makes, unmasked: what a converge update works from. */
export function liveDifferences(
  schema: PropertiesSchema,
  stored: Readonly<Record<string, Value>>,
  live: Readonly<Record<string, Value>>,
): LiveDifference[] {
  const out: LiveDifference[] = [];
  for (const name of Object.keys(live).sort()) {
    const expected = getOwn(stored, name) ?? null;
    if (expected === null) continue;
    const prop = getOwn(schema, name);
    const raw = getOwn(live, name) ?? null;
    let actual = raw;
    if (prop && raw !== null) {
      try {
        actual = validateValue(prop, raw, [name], { strict: false, skipCustom: true });
      } catch {
        // Not a valid value of the property: it differs as it is.
      }
    }
    if (sameValue(expected, actual)) continue;
    out.push({ name, expected, actual });
  }
  return out;
}

/** `value` with the values of secret-named map keys masked, at any depth. */
function masked(value: Json): Json {
  if (Array.isArray(value)) return value.map(masked);
  if (!isPlainObject(value)) return value;
  const out: Record<string, Json> = {};
  for (const [key, member] of Object.entries(value)) {
    setOwn(out, key, isSecretName(key) && member !== null ? MASK : masked(member as Json));
  }
  return out;
}
