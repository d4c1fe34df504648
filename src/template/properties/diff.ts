import { getOwn } from '../../util/json.js';
import type { Value } from '../functions/types.js';
import type { PropertiesSchema } from './schema.js';
import { sameValue } from './walk.js';

type Props = Readonly<Record<string, Value>>;

/** How a resource's properties change between two definitions, and what that means for the update. */
export interface PropertyDiff {
  /** Every declared property whose value differs (absent and null count as the same). */
  changed: string[];
  /** Changed properties that cannot be updated in place: the resource must be replaced. */
  requiresReplacement: string[];
  /** Changed immutable properties: Heat refuses the update altogether. */
  immutable: string[];
}

/**
 * Compares old and new properties, both as validateProperties returned them (converted, defaults
 * applied), property by property in schema order, as Heat's update_template_diff_properties does.
 * A value containing UNKNOWN counts as changed.
 */
export function diffProperties(schema: PropertiesSchema, oldProps: Props, newProps: Props): PropertyDiff {
  const diff: PropertyDiff = { changed: [], requiresReplacement: [], immutable: [] };
  for (const [name, prop] of Object.entries(schema)) {
    if (sameValue(getOwn(oldProps, name) ?? null, getOwn(newProps, name) ?? null)) continue;
    diff.changed.push(name);
    if (prop.immutable) diff.immutable.push(name);
    if (!prop.updateAllowed) diff.requiresReplacement.push(name);
  }
  return diff;
}

/** The names of the declared properties whose values differ. */
export function changedProperties(schema: PropertiesSchema, oldProps: Props, newProps: Props): string[] {
  return diffProperties(schema, oldProps, newProps).changed;
}

/**
 * The changed properties that are not updateAllowed: when there are any, the engine replaces the
 * resource (Heat's UpdateReplace) instead of updating it in place.
 */
export function updateRequiresReplacement(
  schema: PropertiesSchema,
  oldProps: Props,
  newProps: Props,
): string[] {
  return diffProperties(schema, oldProps, newProps).requiresReplacement;
}
