import { getOwn, type Json } from '../../util/json.js';
import { type DocPath, isTemplateError, TemplateError } from '../errors.js';
import { UNKNOWN, type Unknown } from '../functions/types.js';
import { coerceParameterValue } from './coerce.js';
import { checkConstraints } from './constraints.js';
import { PSEUDO_PARAMETERS } from './schema.js';
import type { ParameterSchema } from './types.js';

export interface ResolveOptions {
  /**
   * Strict (creating or updating a stack): every parameter needs a value and every supplied name
   * must be declared. Non-strict (validating a template): missing values are UNKNOWN and unknown
   * names are ignored. Supplied values are checked either way.
   */
  strict: boolean;
  /** Values of OS::stack_name, OS::stack_id, OS::project_id, OS::region; absent ones are UNKNOWN. */
  pseudo: Readonly<Record<string, Json>>;
  /** The pseudo parameters of the template's format (HOT's `OS::` ones unless said). */
  pseudoNames?: readonly string[];
  /**
   * The environment's `parameter_defaults`: they replace the template's defaults; names the
   * template does not declare are ignored, as Heat does.
   */
  parameterDefaults?: Readonly<Record<string, Json>>;
  /** How deep a `json` value given as text may nest (the document depth limit). */
  maxDepth?: number;
  /**
   * For a nested stack's parameters where Heat does not check them (its stack checks them when it
   * is created): a default (the template's or parameter_defaults') that does not fit its type or
   * constraints is UNKNOWN rather than an error, and so (`'values'`) is a supplied value.
   */
  lenient?: 'defaults' | 'values';
}

/**
 * Every parameter's value: the supplied one, else the default, else (non-strict) UNKNOWN; each is
 * converted to its type and checked against its constraints. Includes the pseudo parameters.
 * A null supplied value counts as not supplied (Heat treats None so).
 */
export function resolveParameterValues(
  schemas: ReadonlyMap<string, ParameterSchema>,
  supplied: Readonly<Record<string, Json>>,
  options: ResolveOptions,
): Map<string, Json | Unknown> {
  if (options.strict) {
    for (const name of Object.keys(supplied)) {
      if (!schemas.has(name)) {
        throw new TemplateError('parameter', `The Parameter (${name}) was not defined in template.`, [
          'parameters',
          name,
        ]);
      }
    }
  }
  const values = new Map<string, Json | Unknown>();
  for (const [name, schema] of schemas) {
    values.set(name, resolveOne(schema, supplied, options));
  }
  for (const name of options.pseudoNames ?? PSEUDO_PARAMETERS) {
    const value = getOwn(options.pseudo, name);
    values.set(name, value === undefined ? UNKNOWN : value);
  }
  return values;
}

function resolveOne(
  schema: ParameterSchema,
  supplied: Readonly<Record<string, Json>>,
  options: ResolveOptions,
): Json | Unknown {
  const path: DocPath = ['parameters', schema.name];
  const given = getOwn(supplied, schema.name);
  const check = (raw: Json, at: DocPath, isDefault = true): Json | Unknown => {
    let value: Json;
    try {
      value = checked(schema, raw, at, options.maxDepth);
    } catch (err) {
      const lenient = options.lenient === 'values' || (options.lenient === 'defaults' && isDefault);
      if (lenient && isTemplateError(err)) return UNKNOWN;
      throw err;
    }
    // A json parameter left at '' has no value yet (Heat keeps '' unparsed): unknown until created.
    return !options.strict && schema.type === 'json' && value === '' ? UNKNOWN : value;
  };
  if (given !== undefined && given !== null) return check(given, path, false);
  const envDefault = options.parameterDefaults ? getOwn(options.parameterDefaults, schema.name) : undefined;
  if (envDefault !== undefined && envDefault !== null) return check(envDefault, path);
  if (schema.hasDefault && schema.default !== undefined) return check(schema.default, [...path, 'default']);
  if (options.strict) {
    throw new TemplateError('parameter', `The Parameter (${schema.name}) was not provided.`, path);
  }
  return UNKNOWN;
}

function checked(schema: ParameterSchema, raw: Json, path: DocPath, maxDepth: number | undefined): Json {
  const value = coerceParameterValue(schema, raw, path, maxDepth);
  checkConstraints(schema, value, path);
  return value;
}
