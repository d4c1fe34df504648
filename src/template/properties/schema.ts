import type { Json } from '../../util/json.js';
import type { Constraint } from '../parameters/types.js';

export type { Constraint } from '../parameters/types.js';

/** The data types a resource property may have (Heat's property Schema types, lower-cased). */
export type PropertyType = 'string' | 'integer' | 'number' | 'boolean' | 'map' | 'list' | 'any';

export const PROPERTY_TYPES: readonly PropertyType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'map',
  'list',
  'any',
];

/** Heat's support statuses; HIDDEN properties, attributes and types are left out of `resource_types show`. */
export type SupportStatusName = 'SUPPORTED' | 'DEPRECATED' | 'UNSUPPORTED' | 'HIDDEN' | 'UNKNOWN';

export interface SupportStatus {
  /** SUPPORTED when absent. */
  status?: SupportStatusName;
  /** The release the status applies from, e.g. `5.0.0`. */
  version?: string;
  message?: string;
  previousStatus?: SupportStatus;
}

/** What every property schema may say, whatever its type. */
interface BasePropertySchema {
  description?: string;
  /** The property must be given (an UNKNOWN value counts as given). */
  required?: boolean;
  /** Used when the property is absent or null; checked against the schema when the type is declared. */
  default?: Json;
  /** Constraints as parameters use them; build them with `C` (e.g. `C.range({ min: 1 })`). */
  constraints?: Constraint[];
  /** A change can be applied to the existing resource; otherwise a change replaces the resource. */
  updateAllowed?: boolean;
  /** A change is refused outright (neither update in place nor replacement). Excludes updateAllowed. */
  immutable?: boolean;
  supportStatus?: SupportStatus;
  /**
   * This (hidden, older) name stands for the sibling property named here, as Heat's REPLACE
   * translation rule: a value given under it satisfies that property's `required`, and giving
   * both is refused. The plugin reads whichever is set.
   */
  replaces?: string;
  /**
   * false: declared but not implemented (Heat's `implemented=False`): a template giving it is
   * refused with "Property <name> not implemented yet", even at template validate.
   */
  implemented?: false;
}

export interface ScalarPropertySchema extends BasePropertySchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'any';
}

export interface MapPropertySchema extends BasePropertySchema {
  type: 'map';
  /** The map's known keys; without it the map may hold anything. */
  schema?: PropertiesSchema;
}

export interface ListPropertySchema extends BasePropertySchema {
  type: 'list';
  /** The schema every member must satisfy; without it the members may be anything. */
  items?: PropertySchema;
}

/** One property: `schema` describes a map's entries and `items` a list's members. */
export type PropertySchema = ScalarPropertySchema | MapPropertySchema | ListPropertySchema;

/** A resource type's properties (or a map property's entries), by name. */
export type PropertiesSchema = Readonly<Record<string, PropertySchema>>;

export type AttributeType = 'string' | 'integer' | 'number' | 'boolean' | 'map' | 'list';

export interface AttributeSchema {
  description?: string;
  type?: AttributeType;
  supportStatus?: SupportStatus;
}

export type AttributesSchema = Readonly<Record<string, AttributeSchema>>;

/** Heat gives every resource a `show` attribute: the resource's full representation from its API. */
export const BASE_ATTRIBUTES: AttributesSchema = {
  show: { description: 'Detailed information about resource.', type: 'map' },
};
