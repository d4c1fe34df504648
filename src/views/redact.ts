import type { Engine } from '../engine/engine.js';
import type { StackRecord } from '../store/contract.js';
import { TemplateError } from '../template/errors.js';
import { collectHidden, type Redact, redactor } from '../template/hidden-values.js';
import { isPlainObject, type Json, setOwn } from '../util/json.js';
import { stackHead } from './definition.js';

export type { Redact } from '../template/hidden-values.js';

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
    const definition = await stackHead(engine, current).catch((err: unknown) => {
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
