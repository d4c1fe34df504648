import type { Json } from '../util/json.js';
import { UNKNOWN, type Unknown } from './functions/types.js';
import type { ConstraintUse } from './properties/constraint-uses.js';
import type { SourceDocument } from './source.js';
import type { Template } from './template.js';

/**
 * Custom constraints that need a cloud cannot be checked while a template is bound (binding is
 * synchronous): binding hands the known values under them to a DeferredConstraints, and the
 * engine checks them afterwards.
 */
export interface DeferredConstraints {
  wanted(constraint: string): boolean;
  /** `source` is the document `use.path` is in (errors name its file, line and column). */
  add(use: ConstraintUse & { hidden?: boolean }, source: SourceDocument): void;
}

/** Known parameter values under wanted custom constraints (a list's items one by one, as Heat checks them). */
export function deferParameterConstraints(
  template: Template,
  values: ReadonlyMap<string, Json | Unknown>,
  deferred: DeferredConstraints,
): void {
  for (const [name, schema] of template.parameters) {
    const value = values.get(name);
    if (value === undefined || value === null || value === UNKNOWN) continue;
    for (const c of schema.constraints) {
      if (c.kind !== 'custom_constraint' || !deferred.wanted(c.name!)) continue;
      const items: Json[] = Array.isArray(value) ? value : [value as Json];
      for (const item of items) {
        deferred.add(
          {
            constraint: c.name!,
            value: item,
            path: ['parameters', name],
            hidden: schema.hidden,
            ...(c.description !== undefined ? { description: c.description } : {}),
          },
          template.source,
        );
      }
    }
  }
}
