import { getOwn, isPlainObject, type Json, pyJsonDumps, typeName } from '../../util/json.js';
import { type DocPath, isTemplateError, TemplateError } from '../errors.js';
import { checkName } from '../names.js';
import { coerceParameterValue } from './coerce.js';
import { MASK } from './validate-output.js';
import { keyNotInVersion, parseConstraints } from './constraint-schema.js';
import { checkConstraints } from './constraints.js';
import { PARAMETER_TYPES, type ParameterSchema, type ParameterType, type ParameterVersion } from './types.js';

/** Parameters every stack has, supplied by the engine; a template may not declare them. */
export const PSEUDO_PARAMETERS = ['OS::stack_name', 'OS::stack_id', 'OS::project_id', 'OS::region'] as const;

function schemaError(detail: string, path: DocPath): TemplateError {
  return new TemplateError('schema', detail, path);
}

/**
 * Parses and checks a template's `parameters` section (the raw map), including each default
 * against its type and constraints. Throws TemplateError('schema') for a malformed section, and
 * TemplateError('parameter') at [..., 'default'] for a default that does not fit.
 */
export function parseParameterSchemas(
  section: Json | undefined,
  version: ParameterVersion,
  options: SchemaOptions = {},
): Map<string, ParameterSchema> {
  const schemas = new Map<string, ParameterSchema>();
  if (section === undefined || section === null) return schemas;
  if (!isPlainObject(section)) {
    throw schemaError(`The parameters section must be a map, not a ${typeName(section)}`, ['parameters']);
  }
  for (const [name, definition] of Object.entries(section)) {
    schemas.set(name, parseParameterSchema(name, definition, version, options));
  }
  return schemas;
}

export interface SchemaOptions {
  /**
   * Check each default against its type and constraints (true unless said otherwise). A nested
   * template's defaults are not checked through its parent, as in Heat: its stack checks them.
   */
  checkDefaults?: boolean;
}

export function parseParameterSchema(
  name: string,
  definition: Json,
  version: ParameterVersion,
  options: SchemaOptions = {},
): ParameterSchema {
  const path = ['parameters', name];
  checkName('parameter', name, path);
  if ((PSEUDO_PARAMETERS as readonly string[]).includes(name)) {
    throw schemaError(`"${name}" is a pseudo parameter supplied by the engine and cannot be declared`, path);
  }
  if (!isPlainObject(definition)) {
    throw schemaError(`Invalid parameter (${name}): expected a map, not a ${typeName(definition)}`, path);
  }
  for (const key of Object.keys(definition)) {
    if (!version.parameterKeys.includes(key)) {
      throw schemaError(keyNotInVersion(key, `parameter (${name})`, version, version.parameterKeys), [
        ...path,
        key,
      ]);
    }
  }
  const type = parseType(name, getOwn(definition, 'type'), path);
  const schema: ParameterSchema = {
    name,
    type,
    hasDefault: false,
    hidden: flag(definition, 'hidden', path),
    immutable: flag(definition, 'immutable', path),
    constraints: parseConstraints(getOwn(definition, 'constraints'), type, version, path),
  };
  for (const key of ['description', 'label'] as const) {
    const text = getOwn(definition, key);
    if (text === undefined || text === null) continue;
    if (typeof text !== 'string')
      throw schemaError(`${key} must be a string, not a ${typeName(text)}`, [...path, key]);
    schema[key] = text;
  }
  const tags = getOwn(definition, 'tags');
  if (tags !== undefined && tags !== null) schema.tags = parseTags(name, tags, [...path, 'tags']);
  // Heat's `schema` key is accepted but has no effect on template parameters.
  const dflt = getOwn(definition, 'default');
  if (dflt !== undefined && dflt !== null) {
    schema.default = dflt;
    schema.hasDefault = true;
    if (options.checkDefaults ?? true) checkDefault(schema, dflt, [...path, 'default']);
  }
  return schema;
}

function parseType(name: string, type: Json | undefined, path: DocPath): ParameterType {
  if (type === undefined) throw schemaError(`Missing parameter type for parameter: ${name}`, path);
  if (typeof type !== 'string' || !(PARAMETER_TYPES as readonly string[]).includes(type)) {
    const shown = typeof type === 'string' ? type : pyJsonDumps(type);
    throw schemaError(`Invalid type (${shown}): expected one of ${PARAMETER_TYPES.join(', ')}`, [
      ...path,
      'type',
    ]);
  }
  return type as ParameterType;
}

function flag(definition: Record<string, Json>, key: string, path: DocPath): boolean {
  const value = getOwn(definition, key);
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') {
    throw schemaError(`${key} must be a boolean (true or false), not a ${typeName(value)}`, [...path, key]);
  }
  return value;
}

function parseTags(name: string, tags: Json, path: DocPath): string[] {
  if (!Array.isArray(tags)) throw schemaError(`Tags property should be a list for parameter: ${name}`, path);
  return tags.map((tag, i) => {
    if (typeof tag !== 'string')
      throw schemaError(`A tag must be a string, not a ${typeName(tag)}`, [...path, i]);
    return tag;
  });
}

/** A default must convert to the type and satisfy the constraints, except custom ones (see CheckOptions). */
function checkDefault(schema: ParameterSchema, dflt: Json, path: DocPath): void {
  try {
    const value = coerceParameterValue(schema, dflt, path);
    checkConstraints(schema, value, path, { skipCustom: true });
  } catch (err) {
    if (!isTemplateError(err)) throw err;
    const shown = schema.hidden ? MASK : typeof dflt === 'string' ? dflt : pyJsonDumps(dflt);
    throw new TemplateError('parameter', `Invalid default ${shown} (${err.detail})`, path);
  }
}
