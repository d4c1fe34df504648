import { getOwn, isPlainObject, type Json, setOwn } from '../../util/json.js';
import { type DocPath, formatPath, TemplateError } from '../errors.js';
import { Omitted, UNKNOWN, type Unknown, type Value } from '../functions/types.js';
import { constraintFailure } from '../parameters/constraints.js';
import type { ParameterType } from '../parameters/types.js';
import {
  propertyError,
  shown,
  toBooleanProperty,
  toIntegerProperty,
  toNumberProperty,
  toStringProperty,
} from './convert.js';
import type { ListPropertySchema, PropertiesSchema, PropertySchema, PropertyType } from './schema.js';
import { firstUnknown, hasUnknown } from './walk.js';
import { closest } from '../../util/suggest.js';

export interface ValidateOptions {
  /**
   * Every value must be known: an UNKNOWN anywhere is an error. Without it (template validation,
   * before resources exist) unknown parts are accepted unchecked and returned as they are.
   */
  strict?: boolean;
}

/** Internal: checking a schema's defaults skips custom constraints, which may need a cloud. */
export interface Walk {
  strict: boolean;
  skipCustom: boolean;
}

type ValueMap = { [key: string]: Value };

/**
 * Checks a resource's resolved properties against its type's schema, as Heat's Properties
 * validation does, and returns them converted to their declared types with defaults applied.
 * Absent (or null) properties without a default are left out. Errors are TemplateError('property')
 * at the precise path, e.g. [...path, 'networks', 0, 'port'].
 */
export function validateProperties(
  schema: PropertiesSchema,
  value: Value,
  path: DocPath,
  options: ValidateOptions & { strict: true },
): ValueMap;
export function validateProperties(
  schema: PropertiesSchema,
  value: Value,
  path: DocPath,
  options?: ValidateOptions,
): ValueMap | Unknown;
export function validateProperties(
  schema: PropertiesSchema,
  value: Value,
  path: DocPath,
  options: ValidateOptions = {},
): ValueMap | Unknown {
  const walk: Walk = { strict: options.strict ?? false, skipCustom: false };
  // A resource without a properties section has none.
  const given = value === null || value instanceof Omitted ? {} : value;
  return validateMap(schema, given, path, walk);
}

/**
 * Heat's template validate (`Properties.validate(with_value=False)`): the names given must be
 * properties of the type; values are not looked at.
 */
export function checkPropertyNames(schema: PropertiesSchema, value: Value, path: DocPath): void {
  if (value === null || value === UNKNOWN || value instanceof Omitted) return;
  if (!isPlainObject(value)) throw propertyError(`Value ${shown(value)} is not a map`, path);
  for (const key of Object.keys(value as ValueMap)) {
    if (!Object.hasOwn(schema, key)) {
      throw unknownProperty(key, suggestion(key, Object.keys(schema)), [...path, key]);
    }
  }
  refuseUnimplemented(schema, value as ValueMap, path);
}

/** Heat's check of `implemented=False` properties: refused when given, whatever their value. */
function refuseUnimplemented(schema: PropertiesSchema, given: ValueMap, path: DocPath): void {
  for (const key of Object.keys(given)) {
    if (schema[key]?.implemented === false && !(getOwn(given, key) instanceof Omitted)) {
      throw propertyError(`Property ${key} not implemented yet`, path);
    }
  }
}

/** Converts and checks one value (never null or absent) against its property schema. */
export function validateValue(prop: PropertySchema, value: Value, path: DocPath, walk: Walk): Value {
  if (value === UNKNOWN) return unknownValue(path, walk);
  let out: Value;
  switch (prop.type) {
    case 'string':
      out = toStringProperty(value, path);
      break;
    case 'integer':
      out = toIntegerProperty(value, path);
      break;
    case 'number':
      out = toNumberProperty(value, path);
      break;
    case 'boolean':
      out = toBooleanProperty(value, path);
      break;
    case 'map':
      if (prop.schema) out = validateMap(prop.schema, value, path, walk);
      else if (isPlainObject(value)) out = untyped(value, path, walk);
      else throw propertyError(`Value ${shown(value)} is not a map`, path);
      break;
    case 'list':
      out = validateList(prop, value, path, walk);
      break;
    case 'any':
      out = untyped(value, path, walk);
      break;
  }
  checkConstraints(prop, out, path, walk);
  return out;
}

function validateMap(schema: PropertiesSchema, value: Value, path: DocPath, walk: Walk): ValueMap | Unknown {
  if (value === UNKNOWN) return unknownValue(path, walk);
  if (!isPlainObject(value)) throw propertyError(`Value ${shown(value)} is not a map`, path);
  const given = value as ValueMap;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(schema, key)) {
      throw unknownProperty(key, suggestion(key, Object.keys(schema)), [...path, key]);
    }
  }
  refuseUnimplemented(schema, given, path);
  const out: ValueMap = {};
  const isGiven = (name: string) => {
    const raw = getOwn(given, name);
    return raw !== undefined && raw !== null && !(raw instanceof Omitted);
  };
  for (const [name, prop] of Object.entries(schema)) {
    if (prop.replaces !== undefined && isGiven(name) && isGiven(prop.replaces)) {
      throw propertyError(
        `Cannot define the following properties at the same time: ${prop.replaces}, ${name}.`,
        path,
      );
    }
  }
  for (const [name, prop] of Object.entries(schema)) {
    const raw = getOwn(given, name);
    const entryPath = [...path, name];
    if (raw === undefined || raw === null || raw instanceof Omitted) {
      const filled = fillAbsent(prop, entryPath, walk);
      if (filled !== undefined) setOwn(out, name, filled);
      // Point at the map when the key is missing: there is no value to point at.
      else if (prop.required && !givenAs(schema, name, isGiven))
        throw notAssigned(name, raw === undefined ? path : entryPath);
    } else {
      setOwn(out, name, validateValue(prop, raw, entryPath, walk));
    }
  }
  return out;
}

function validateList(prop: ListPropertySchema, value: Value, path: DocPath, walk: Walk): Value[] {
  if (!Array.isArray(value)) throw propertyError(`Value ${shown(value)} is not a list`, path);
  const items = prop.items;
  if (items === undefined) return untyped(value, path, walk) as Value[];
  return value.map((item, i) => {
    const itemPath = [...path, i];
    if (item !== null && !(item instanceof Omitted)) return validateValue(items, item, itemPath, walk);
    const filled = fillAbsent(items, itemPath, walk);
    if (filled !== undefined) return filled;
    if (items.required) throw propertyError('A list member is required but null', itemPath);
    return null;
  });
}

/** The default, converted and checked like a given value, or undefined without one. */
function fillAbsent(prop: PropertySchema, path: DocPath, walk: Walk): Value | undefined {
  if (prop.default === undefined || prop.default === null) return undefined;
  // A copy, so that whatever is done with the result cannot change the schema.
  return validateValue(prop, structuredClone(prop.default) as Json, path, walk);
}

/** Whether a hidden older name of property `name` (its `replaces`) was given instead. */
function givenAs(schema: PropertiesSchema, name: string, isGiven: (name: string) => boolean): boolean {
  return Object.entries(schema).some(([other, prop]) => prop.replaces === name && isGiven(other));
}

function notAssigned(name: string, path: DocPath) {
  return propertyError(`Property ${name} not assigned (it is required)`, path);
}

function unknownValue(path: DocPath, walk: Walk): Unknown {
  if (walk.strict) throw propertyError('Value is not known yet', path);
  return UNKNOWN;
}

/** Content without a schema (`any`, or a map or list with no sub-schema) is taken as it is. */
function untyped(value: Value, path: DocPath, walk: Walk): Value {
  if (walk.strict) {
    const at = firstUnknown(value, path);
    if (at !== undefined) throw propertyError('Value is not known yet', at);
  }
  return value;
}

/** The parameter type whose constraint checks match Heat's for this property type. */
const CHECK_AS: Readonly<Record<PropertyType, ParameterType>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  list: 'comma_delimited_list',
  map: 'json',
  any: 'json',
};

function checkConstraints(prop: PropertySchema, value: Value, path: DocPath, walk: Walk): void {
  const constraints = prop.constraints;
  if (constraints === undefined || constraints.length === 0) return;
  // Whether an unknown value passes cannot be known; it is checked once it is known.
  if (hasUnknown(value)) return;
  for (const c of constraints) {
    if (walk.skipCustom && c.kind === 'custom_constraint') continue;
    const failure = constraintFailure(c, CHECK_AS[prop.type], value as Json);
    if (failure !== undefined) throw propertyError(c.description ?? failure, path);
  }
}

/** Heat's text, `Property error: : <the map's path>: : Unknown Property <key>`, then the place and a hint. */
function unknownProperty(key: string, hint: string, path: DocPath): TemplateError {
  return new TemplateError('property', `Unknown Property ${key}${hint ? ` (${hint})` : ''}`, path, {
    heat: (at) => `Property error: : ${formatPath(at.slice(0, -1))}: : Unknown Property ${key}`,
    hint: hint || undefined,
  });
}

/** `did you mean "image"?` when a declared name is one or two typos away from `name`. */
function suggestion(name: string, names: readonly string[]): string {
  if (name.length > 64) return '';
  const best = closest(name, names, Math.min(2, Math.floor(name.length / 3)));
  return best === undefined ? '' : `did you mean "${best}"?`;
}
