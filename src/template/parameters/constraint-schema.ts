import { getOwn, isPlainObject, type Json, typeName } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import { parseNumber } from './coerce.js';
import { isKnownCustomConstraint } from './custom-constraints.js';
import { compilePythonPattern } from './pattern.js';
import {
  type Constraint,
  type ConstraintKind,
  KEY_INTRODUCED_IN,
  type ParameterType,
  type ParameterVersion,
} from './types.js';

/** The parameter types each constraint may be applied to (Heat's `valid_types`). */
const VALID_TYPES: Readonly<Record<ConstraintKind, readonly ParameterType[]>> = {
  length: ['string', 'comma_delimited_list', 'json'],
  range: ['number'],
  modulo: ['number'],
  allowed_values: ['string', 'number', 'boolean', 'comma_delimited_list'],
  allowed_pattern: ['string'],
  custom_constraint: ['string', 'number', 'boolean', 'comma_delimited_list'],
};

const KINDS = Object.keys(VALID_TYPES) as ConstraintKind[];

function schemaError(detail: string, path: DocPath): TemplateError {
  return new TemplateError('schema', detail, path);
}

/** `"k" is not allowed in heat_template_version D (...)`, naming the version that introduced it. */
export function keyNotInVersion(
  key: string,
  what: string,
  version: ParameterVersion,
  allowed: readonly string[],
) {
  const since = getOwn(KEY_INTRODUCED_IN, key);
  const hint =
    since !== undefined && since > version.date
      ? `it is available from heat_template_version ${since}`
      : `valid keys are: ${allowed.join(', ')}`;
  return `Invalid key "${key}" for ${what} in heat_template_version ${version.date}: ${hint}`;
}

/** Parses a parameter's `constraints` list (path is the parameter's, e.g. ['parameters', 'flavor']). */
export function parseConstraints(
  section: Json | undefined,
  type: ParameterType,
  version: ParameterVersion,
  paramPath: DocPath,
): Constraint[] {
  if (section === undefined || section === null) return [];
  const listPath = [...paramPath, 'constraints'];
  if (!Array.isArray(section)) {
    throw schemaError(`Invalid parameter constraints: expected a list, not a ${typeName(section)}`, listPath);
  }
  return section.map((item, i) => parseConstraint(item, type, version, [...listPath, i]));
}

function parseConstraint(
  item: Json,
  type: ParameterType,
  version: ParameterVersion,
  path: DocPath,
): Constraint {
  if (!isPlainObject(item)) {
    throw schemaError(`Invalid parameter constraint: expected a map, not a ${typeName(item)}`, path);
  }
  for (const key of Object.keys(item)) {
    if (!version.constraintKeys.includes(key)) {
      throw schemaError(keyNotInVersion(key, 'a parameter constraint', version, version.constraintKeys), [
        ...path,
        key,
      ]);
    }
  }
  const present = KINDS.filter((k) => Object.hasOwn(item, k));
  const kind = present[0];
  if (kind === undefined) throw schemaError('No constraint expressed', path);
  if (present.length > 1) {
    // Heat silently uses the first one; a second kind in the same item is always a mistake.
    throw schemaError(`A constraint may express only one of its kinds, found: ${present.join(', ')}`, path);
  }
  const constraint: Constraint = { kind };
  const description = getOwn(item, 'description');
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string') {
      throw schemaError(`Constraint description must be a string, not a ${typeName(description)}`, [
        ...path,
        'description',
      ]);
    }
    constraint.description = description;
  }
  const body = getOwn(item, kind) ?? null;
  const bodyPath = [...path, kind];
  switch (kind) {
    case 'range':
    case 'length':
      parseBounds(constraint, body, bodyPath);
      break;
    case 'modulo':
      parseModulo(constraint, body, bodyPath);
      break;
    case 'allowed_values':
      if (!Array.isArray(body))
        throw schemaError(`allowed_values must be a list, not a ${typeName(body)}`, bodyPath);
      constraint.values = body;
      break;
    case 'allowed_pattern':
      constraint.pattern = parsePattern(body, bodyPath);
      break;
    case 'custom_constraint':
      if (typeof body !== 'string') {
        throw schemaError(`custom_constraint must be a string, not a ${typeName(body)}`, bodyPath);
      }
      if (!isKnownCustomConstraint(body)) throw schemaError(`unknown custom constraint "${body}"`, bodyPath);
      constraint.name = body;
      break;
  }
  if (!VALID_TYPES[kind].includes(type)) {
    throw schemaError(
      `The ${kind} constraint is not valid for a parameter of type ${type}` +
        ` (it applies to: ${VALID_TYPES[kind].join(', ')})`,
      bodyPath,
    );
  }
  return constraint;
}

/** Heat accepts numbers and numeric strings for bounds, and treats null as absent. */
function boundValue(
  body: Record<string, unknown>,
  key: string,
  what: string,
  path: DocPath,
): number | undefined {
  const raw = getOwn(body, key);
  if (raw === undefined || raw === null) return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseNumber(raw) : undefined;
  if (n === undefined || !Number.isFinite(n)) throw schemaError(`${what} must be numeric`, [...path, key]);
  return n;
}

function checkKeys(
  body: Json,
  keys: readonly string[],
  kind: string,
  path: DocPath,
): Record<string, unknown> {
  if (!isPlainObject(body)) throw schemaError(`Invalid ${kind} constraint: expected a map`, path);
  for (const key of Object.keys(body)) {
    if (!keys.includes(key)) {
      throw schemaError(`Invalid key "${key}" for ${kind} constraint (valid keys: ${keys.join(', ')})`, [
        ...path,
        key,
      ]);
    }
  }
  return body;
}

function parseBounds(constraint: Constraint, body: Json, path: DocPath): void {
  const kind = constraint.kind;
  const map = checkKeys(body, ['min', 'max'], kind, path);
  const min = boundValue(map, 'min', 'min/max', path);
  const max = boundValue(map, 'max', 'min/max', path);
  if (min === undefined && max === undefined) {
    throw schemaError(`A ${kind} constraint must have a min value and/or a max value specified.`, path);
  }
  if (kind === 'length') {
    for (const [key, v] of [
      ['min', min],
      ['max', max],
    ] as const) {
      if (v !== undefined && !Number.isInteger(v))
        throw schemaError('min/max length must be integral', [...path, key]);
    }
  }
  if (min !== undefined) constraint.min = min;
  if (max !== undefined) constraint.max = max;
}

function parseModulo(constraint: Constraint, body: Json, path: DocPath): void {
  const map = checkKeys(body, ['step', 'offset'], 'modulo', path);
  const step = boundValue(map, 'step', 'step/offset', path);
  const offset = boundValue(map, 'offset', 'step/offset', path);
  if (step === undefined || offset === undefined) {
    throw schemaError('A modulo constraint must have a step value and an offset value specified.', path);
  }
  if (!Number.isInteger(step) || !Number.isInteger(offset))
    throw schemaError('step/offset must be integer', path);
  if (step === 0) throw schemaError('step cannot be 0.', [...path, 'step']);
  if (Math.abs(offset) >= Math.abs(step)) {
    throw schemaError('offset must be smaller (by absolute value) than step.', [...path, 'offset']);
  }
  if (step * offset < 0) throw schemaError('step and offset must be both positive or both negative.', path);
  constraint.step = step;
  constraint.offset = offset;
}

function parsePattern(body: Json, path: DocPath): string {
  if (typeof body !== 'string')
    throw schemaError(`allowed_pattern must be a string, not a ${typeName(body)}`, path);
  try {
    compilePythonPattern(body);
  } catch (err) {
    throw schemaError(`Invalid allowed_pattern "${body}": ${(err as Error).message}`, path);
  }
  return body;
}
