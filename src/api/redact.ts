import type { Engine } from '../engine/engine.js';
import type { StackRecord } from '../store/contract.js';
import { TemplateError } from '../template/errors.js';
import { isUnknown } from '../template/functions/types.js';
import { MASK, pyStr } from '../template/parameters/index.js';
import type { StackDefinition } from '../template/stack-definition.js';
import { isPlainObject, type Json, setOwn } from '../util/json.js';
import { stackDefinition } from './stack-access.js';

/** Masks hidden parameters' values in a text. */
export type Redact = (text: string) => string;

/**
 * Shorter values are left alone: masking every occurrence of a two-letter value would mangle the
 * text and, by where the masks fall, show the value anyway.
 */
const MIN_SECRET_LENGTH = 4;

/**
 * What masks hidden parameters' values in the free text shown for a stack's resources and events.
 * Reasons are worded by plugins and property checks, which quote the values they refuse (`Value
 * "..." is not an integer`), and a stack's reason repeats its resource's: a value computed from a
 * hidden parameter can end up there. The values are those of the stack, of the stacks above it
 * (which pass values down as properties) and of the template resources its definition nests.
 */
export async function redactorFor(engine: Engine, stack: StackRecord): Promise<Redact> {
  const secrets = new Set<string>();
  for (let current: StackRecord | undefined = stack; current;) {
    const definition = await stackDefinition(engine, current).catch((err: unknown) => {
      // A stored template that no longer binds (stricter limits since) has no values to mask.
      if (err instanceof TemplateError) return undefined;
      throw err;
    });
    if (definition) collectHidden(definition, secrets);
    const parentId: string | null = current.parentId;
    current = parentId ? await engine.deps.store.tx((tx) => tx.stacks.get(parentId)) : undefined;
  }
  return redactor(secrets);
}

/** A redactor for these values, longest first (a value containing another is masked whole). */
export function redactor(values: Iterable<string>): Redact {
  const secrets = [...values]
    .filter((v) => v.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(MASK), text);
}

function collectHidden(definition: StackDefinition, into: Set<string>): void {
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

/** A JSON value with every string in it redacted. */
export function redactJson(value: Json, redact: Redact): Json {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact));
  if (isPlainObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, redactJson(v as Json, redact));
    return out;
  }
  return value;
}
