import { isPlainObject, type Json } from '../../util/json.js';
import type { DocPath } from '../errors.js';
import { UNKNOWN, type Value } from '../functions/types.js';
import type { PropertiesSchema, PropertySchema } from './schema.js';
import { validateProperties } from './validate.js';
import { hasUnknown } from './walk.js';

/**
 * A known value a custom constraint applies to, and where it was written: what a check that needs a
 * cloud (is this flavor there?) is given after the template has been bound, outside the
 * synchronous validation.
 */
export interface ConstraintUse {
  /** The custom constraint's name (`nova.flavor`). */
  constraint: string;
  value: Json;
  path: DocPath;
  /** The constraint's own description, which replaces the generated message (Heat's rule). */
  description?: string;
  /** The check's reason is the whole message (a type's own check, in Heat's words). */
  whole?: boolean;
}

/** Whether any property (at any depth) of `schema` carries a custom constraint. */
export function hasCustomConstraints(schema: PropertiesSchema): boolean {
  const pending: PropertySchema[] = Object.values(schema);
  for (let p = pending.pop(); p !== undefined; p = pending.pop()) {
    if (p.constraints?.some((c) => c.kind === 'custom_constraint')) return true;
    if (p.type === 'map' && p.schema) pending.push(...Object.values(p.schema));
    if (p.type === 'list' && p.items) pending.push(p.items);
  }
  return false;
}

/**
 * The custom-constraint uses in a resource's resolved properties whose values are known, with
 * their paths (`[...path, 'networks', 0, 'network']`). The properties are converted as validation
 * converts them (defaults applied); parts not known yet are skipped, as validation skips them.
 */
export function customConstraintUses(
  schema: PropertiesSchema,
  properties: Value,
  path: DocPath,
  wanted: (constraint: string) => boolean,
): ConstraintUse[] {
  const converted = validateProperties(schema, properties, path);
  if (converted === UNKNOWN) return [];
  const out: ConstraintUse[] = [];
  const stack: { schema: PropertiesSchema; value: Record<string, Value>; path: DocPath }[] = [
    { schema, value: converted as Record<string, Value>, path },
  ];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    for (const [name, prop] of Object.entries(top.schema)) {
      const value = top.value[name];
      if (value === undefined || value === null) continue;
      visit(prop, value, [...top.path, name]);
    }
  }
  return out;

  function visit(prop: PropertySchema, value: Value, at: DocPath): void {
    for (const c of prop.constraints ?? []) {
      if (c.kind !== 'custom_constraint' || !wanted(c.name!) || hasUnknown(value)) continue;
      out.push({
        constraint: c.name!,
        value: value as Json,
        path: at,
        ...(c.description !== undefined ? { description: c.description } : {}),
      });
    }
    if (prop.type === 'map' && prop.schema && isPlainObject(value)) {
      stack.push({ schema: prop.schema, value: value as Record<string, Value>, path: at });
    } else if (prop.type === 'list' && prop.items && Array.isArray(value)) {
      value.forEach((item, i) => {
        if (item !== null && item !== undefined) visit(prop.items!, item, [...at, i]);
      });
    }
  }
}
