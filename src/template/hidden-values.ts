import { isUnknown } from './functions/types.js';
import { MASK, pyStr } from './parameters/index.js';
import type { StackDefinition } from './stack-definition.js';
import { isPlainObject, type Json } from '../util/json.js';

/** Masks hidden parameters' values in a text. */
export type Redact = (text: string) => string;

/**
 * Shorter values are left alone: masking every occurrence of a two-letter value would mangle the
 * text and, by where the masks fall, show the value anyway.
 */
const MIN_SECRET_LENGTH = 4;

/** A redactor for these values, longest first (a value containing another is masked whole). */
export function redactor(values: Iterable<string>): Redact {
  const secrets = [...values]
    .filter((v) => v.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(MASK), text);
}

/** Adds the values of `definition`'s hidden parameters (its nested templates' too), in every text form, to `into`. */
export function collectHidden(definition: StackDefinition, into: Set<string>): void {
  for (const [name, schema] of definition.template.parameters) {
    const value = definition.parameters.get(name);
    if (!schema.hidden || value === undefined || isUnknown(value)) continue;
    for (const form of textForms(value)) into.add(form);
  }
  for (const resource of definition.resources.values()) {
    const impl = resource.implementation;
    if (impl.kind === 'template') collectHidden(impl.stack, into);
  }
}

/** How a value can appear in a message: its text, or for others Python's str() (what Heat quotes), JSON and strings. */
function textForms(value: Json): string[] {
  if (typeof value === 'string') return [value];
  const forms = [pyStr(value), JSON.stringify(value)];
  const visit = (v: Json) => {
    if (typeof v === 'string') forms.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (isPlainObject(v)) Object.values(v).forEach((x) => visit(x as Json));
  };
  visit(value);
  return forms;
}

/** `attributes` with the type's secret attributes (ResourceTypeInfo.secretAttributes) masked. */
export function maskSecretAttributes<T extends Readonly<Record<string, Json>>>(
  secret: readonly string[] | undefined,
  attributes: T,
): T {
  if (!secret?.some((name) => Object.hasOwn(attributes, name))) return attributes;
  const out: Record<string, Json> = { ...attributes };
  for (const name of secret) if (Object.hasOwn(out, name) && out[name] !== null) out[name] = MASK;
  return out as T;
}
