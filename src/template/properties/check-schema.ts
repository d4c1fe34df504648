import type { Json } from '../../util/json.js';
import { formatPath, isTemplateError } from '../errors.js';
import { compilePythonPattern } from '../parameters/pattern.js';
import type { Constraint, ConstraintKind } from '../parameters/types.js';
import { PROPERTY_TYPES, type PropertiesSchema, type PropertySchema, type PropertyType } from './schema.js';
import { validateValue } from './validate.js';

/** A mistake in a plugin's schema: a bug in code, not in a template. */
export class PropertySchemaError extends Error {
  override readonly name = 'PropertySchemaError';
}

/** The property types each constraint applies to (Heat's `valid_types`). */
const VALID_TYPES: Readonly<Record<ConstraintKind, readonly PropertyType[]>> = {
  range: ['integer', 'number'],
  modulo: ['integer', 'number'],
  length: ['string', 'list', 'map'],
  allowed_values: ['string', 'integer', 'number', 'boolean', 'list'],
  allowed_pattern: ['string'],
  custom_constraint: ['string', 'integer', 'number', 'boolean', 'list'],
};

/**
 * Checks a plugin's properties schema once, when its type is declared, as Heat's Schema does on
 * construction: known types, sub-schemas only where they belong, constraints valid for the type and
 * well-formed, updateAllowed and immutable not both set, and defaults that satisfy the schema.
 * Also refuses a schema that contains itself, which would let a value's depth drive recursion.
 */
export function checkPropertiesSchema(type: string, schema: PropertiesSchema): void {
  checkMap(type, schema, [], new Set());
}

function checkMap(type: string, schema: PropertiesSchema, path: string[], open: Set<object>): void {
  for (const [name, prop] of Object.entries(schema)) {
    checkProperty(type, prop, [...path, name], open);
    const target = prop.replaces;
    if (target !== undefined && (target === name || !Object.hasOwn(schema, target))) {
      throw new PropertySchemaError(
        `${type}: property ${[...path, name].join('.')}: replaces "${target}", which is not another property beside it`,
      );
    }
  }
}

function checkProperty(type: string, prop: PropertySchema, path: string[], open: Set<object>): void {
  const fail = (why: string) => new PropertySchemaError(`${type}: property ${path.join('.')}: ${why}`);
  if (open.has(prop)) throw fail('the schema contains itself');
  if (!PROPERTY_TYPES.includes(prop.type)) throw fail(`invalid type "${String(prop.type)}"`);
  if (prop.updateAllowed && prop.immutable) throw fail('updateAllowed and immutable cannot both be true');
  const loose = prop as { schema?: unknown; items?: unknown };
  if (loose.schema !== undefined && prop.type !== 'map') throw fail('only a map may have a schema');
  if (loose.items !== undefined && prop.type !== 'list') throw fail('only a list may have items');
  for (const c of prop.constraints ?? []) {
    if (!VALID_TYPES[c.kind]?.includes(prop.type)) {
      throw fail(`a ${c.kind} constraint is not valid for type ${prop.type}`);
    }
    const problem = constraintProblem(c);
    if (problem !== undefined) throw fail(`invalid ${c.kind} constraint: ${problem}`);
  }
  open.add(prop);
  if (prop.type === 'map' && prop.schema) checkMap(type, prop.schema, path, open);
  if (prop.type === 'list' && prop.items) checkProperty(type, prop.items, [...path, '*'], open);
  open.delete(prop);
  if (prop.default !== undefined && prop.default !== null) checkDefault(prop, prop.default, fail);
}

function checkDefault(prop: PropertySchema, value: Json, fail: (why: string) => Error): void {
  try {
    validateValue(prop, value, [], { strict: true, skipCustom: true });
  } catch (err) {
    if (!isTemplateError(err)) throw err;
    const where = formatPath(err.path);
    throw fail(`invalid default${where ? ` (at ${where})` : ''}: ${err.detail}`);
  }
}

function isNumber(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** What is wrong with a constraint's fields, or undefined when they are well-formed. */
function constraintProblem(c: Constraint): string | undefined {
  switch (c.kind) {
    case 'range':
    case 'length': {
      if (c.min === undefined && c.max === undefined) return 'it needs a min and/or a max';
      const bounds = [c.min, c.max].filter((n) => n !== undefined);
      if (!bounds.every(isNumber)) return 'min/max must be numbers';
      if (c.kind === 'length' && !bounds.every(Number.isInteger)) return 'min/max must be integers';
      return undefined;
    }
    case 'modulo': {
      const { step, offset } = c;
      if (!Number.isInteger(step) || !Number.isInteger(offset)) return 'step and offset must be integers';
      if (step === 0) return 'step cannot be 0';
      if (Math.abs(offset!) >= Math.abs(step!)) return 'offset must be smaller than step (by absolute value)';
      if (step! * offset! < 0) return 'step and offset must have the same sign';
      return undefined;
    }
    case 'allowed_values':
      return Array.isArray(c.values) ? undefined : 'values must be a list';
    case 'allowed_pattern':
      if (typeof c.pattern !== 'string') return 'pattern must be a string';
      try {
        compilePythonPattern(c.pattern);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    case 'custom_constraint':
      return typeof c.name === 'string' && c.name !== '' ? undefined : 'name must be a non-empty string';
  }
}
