import { getOwn, isPlainObject, type Json, type JsonObject, typeName } from '../../util/json.js';
import { type DocPath, isTemplateError, TemplateError } from '../errors.js';
import {
  parseNumber,
  parseParameterSchema,
  type ParameterSchema,
  type ParameterVersion,
  type SchemaOptions,
} from '../parameters/index.js';
import { CFN_PARAMETER_KEYS, CFN_PSEUDO_PARAMETERS } from './versions.js';

// A CloudFormation-format parameter (heat/engine/parameters.py Schema.from_dict) is read into the
// HOT parameter model: `Type: String` is `type: string`, `MinValue`/`MaxValue` a range constraint,
// and so on; the HOT parser then checks the rest (the default against type and constraints).

const TYPES: Readonly<Record<string, string>> = {
  String: 'string',
  Number: 'number',
  CommaDelimitedList: 'comma_delimited_list',
  Json: 'json',
  Boolean: 'boolean',
};

/** The HOT keys the translated definition uses. */
const AS_HOT: ParameterVersion = {
  date: '2013-05-23',
  parameterKeys: ['type', 'description', 'default', 'hidden', 'label', 'constraints'],
  constraintKeys: ['description', 'length', 'range', 'allowed_values', 'allowed_pattern'],
};

function schemaError(detail: string, path: DocPath): TemplateError {
  return new TemplateError('schema', detail, path);
}

/** The `Parameters` section of a CloudFormation-format template. */
export function parseCfnParameters(
  section: Json | undefined,
  options: SchemaOptions,
): Map<string, ParameterSchema> {
  const schemas = new Map<string, ParameterSchema>();
  if (section === undefined || section === null) return schemas;
  if (!isPlainObject(section)) {
    throw schemaError(`The Parameters section must be a map, not a ${typeName(section)}`, ['Parameters']);
  }
  for (const [name, definition] of Object.entries(section)) {
    schemas.set(name, parseCfnParameter(name, definition, options));
  }
  return schemas;
}

function parseCfnParameter(name: string, definition: Json, options: SchemaOptions): ParameterSchema {
  const path = ['Parameters', name];
  if ((CFN_PSEUDO_PARAMETERS as readonly string[]).includes(name)) {
    throw schemaError(`"${name}" is a pseudo parameter supplied by the engine and cannot be declared`, path);
  }
  if (!isPlainObject(definition)) {
    throw schemaError(`Invalid parameter (${name}), expected a mapping`, path);
  }
  for (const key of Object.keys(definition)) {
    if (!(CFN_PARAMETER_KEYS as readonly string[]).includes(key)) {
      throw schemaError(`Invalid key '${key}' for parameter (${name})`, [...path, key]);
    }
  }
  const type = getOwn(definition, 'Type');
  if (type === undefined) throw schemaError(`Missing parameter type for parameter: ${name}`, path);
  const hotType = typeof type === 'string' ? getOwn(TYPES, type) : undefined;
  if (hotType === undefined) {
    throw schemaError(`Invalid type (${typeof type === 'string' ? type : JSON.stringify(type)})`, [
      ...path,
      'Type',
    ]);
  }
  const { constraints, keys } = constraintsOf(definition, path);
  const hot: JsonObject = { type: hotType, constraints };
  for (const [from, to] of [
    ['Description', 'description'],
    ['Label', 'label'],
    ['Default', 'default'],
  ] as const) {
    const value = getOwn(definition, from);
    if (value !== undefined) hot[to] = value;
  }
  const noEcho = getOwn(definition, 'NoEcho');
  // Heat: str(NoEcho).lower() == 'true', whatever NoEcho is.
  if (noEcho !== undefined) hot.hidden = String(noEcho).toLowerCase() === 'true';
  try {
    return parseParameterSchema(name, hot, AS_HOT, options);
  } catch (err) {
    if (!isTemplateError(err)) throw err;
    const at = documentPath(err.path, path, keys);
    const misplaced = /^The (\w+) constraint is not valid for a parameter of type/.exec(err.detail);
    if (!misplaced) {
      err.path = at;
      throw err;
    }
    // Heat's words for a constraint the type cannot take, in the document's names.
    const kind = getOwn(CONSTRAINT_NAMES, misplaced[1]!) ?? misplaced[1];
    throw new TemplateError(err.kind, `${kind} constraint invalid for ${type as string}`, at);
  }
}

/** Heat's names of the constraints (the classes of heat/engine/constraints.py). */
const CONSTRAINT_NAMES: Readonly<Record<string, string>> = {
  range: 'Range',
  length: 'Length',
  allowed_values: 'AllowedValues',
  allowed_pattern: 'AllowedPattern',
};

/** The constraints, and for each the document key it came from (by bound where two share one). */
function constraintsOf(
  definition: Record<string, Json>,
  path: DocPath,
): { constraints: Json[]; keys: string[][] } {
  const description = getOwn(definition, 'ConstraintDescription');
  const described = (c: JsonObject): JsonObject =>
    description === undefined || description === null ? c : { ...c, description };
  const constraints: Json[] = [];
  const keys: string[][] = [];
  const bounds = (minKey: string, maxKey: string, kind: string) => {
    if (!Object.hasOwn(definition, minKey) && !Object.hasOwn(definition, maxKey)) return;
    const body: JsonObject = {};
    for (const [key, bound] of [
      [minKey, 'min'],
      [maxKey, 'max'],
    ] as const) {
      const raw = getOwn(definition, key);
      if (raw === undefined || raw === null) continue;
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseNumber(raw) : undefined;
      if (n === undefined || !Number.isFinite(n))
        throw schemaError(`${key} must be a number`, [...path, key]);
      body[bound] = n;
    }
    constraints.push(described({ [kind]: body }));
    keys.push([minKey, maxKey]);
  };
  bounds('MinValue', 'MaxValue', 'range');
  bounds('MinLength', 'MaxLength', 'length');
  for (const [key, kind] of [
    ['AllowedValues', 'allowed_values'],
    ['AllowedPattern', 'allowed_pattern'],
  ] as const) {
    if (!Object.hasOwn(definition, key)) continue;
    constraints.push(described({ [kind]: definition[key]! }));
    keys.push([key, key]);
  }
  return { constraints, keys };
}

/** A path of the translated definition, in the document's terms. */
function documentPath(at: DocPath, path: DocPath, keys: string[][]): DocPath {
  const [, , key, index, , bound] = at;
  if (key === 'constraints' && typeof index === 'number' && keys[index]) {
    return [...path, keys[index]![bound === 'max' ? 1 : 0]!];
  }
  const names: Record<string, string> = {
    type: 'Type',
    default: 'Default',
    hidden: 'NoEcho',
    description: 'Description',
    label: 'Label',
  };
  const name = typeof key === 'string' ? getOwn(names, key) : undefined;
  return name ? [...path, name] : [...path];
}
