import type { Json } from '../../util/json.js';
import type { Constraint } from '../parameters/types.js';
import type {
  AttributeSchema,
  AttributeType,
  ListPropertySchema,
  MapPropertySchema,
  ScalarPropertySchema,
} from './schema.js';

type ScalarOptions = Omit<ScalarPropertySchema, 'type'>;

/**
 * Shorthands for plugin files: `P.string({ required: true, updateAllowed: true })`,
 * `P.list({ items: P.map({ schema: { port: P.string() } }) })`.
 */
export const P = {
  string: (options: ScalarOptions = {}): ScalarPropertySchema => ({ type: 'string', ...options }),
  integer: (options: ScalarOptions = {}): ScalarPropertySchema => ({ type: 'integer', ...options }),
  number: (options: ScalarOptions = {}): ScalarPropertySchema => ({ type: 'number', ...options }),
  boolean: (options: ScalarOptions = {}): ScalarPropertySchema => ({ type: 'boolean', ...options }),
  any: (options: ScalarOptions = {}): ScalarPropertySchema => ({ type: 'any', ...options }),
  map: (options: Omit<MapPropertySchema, 'type'> = {}): MapPropertySchema => ({ type: 'map', ...options }),
  list: (options: Omit<ListPropertySchema, 'type'> = {}): ListPropertySchema => ({
    type: 'list',
    ...options,
  }),
};

function described(constraint: Constraint, description: string | undefined): Constraint {
  return description === undefined ? constraint : { ...constraint, description };
}

/** Constraint shorthands; `description`, when given, replaces the generated error message. */
export const C = {
  range: (bounds: { min?: number; max?: number }, description?: string): Constraint =>
    described({ kind: 'range', ...bounds }, description),
  length: (bounds: { min?: number; max?: number }, description?: string): Constraint =>
    described({ kind: 'length', ...bounds }, description),
  modulo: (step: number, offset: number, description?: string): Constraint =>
    described({ kind: 'modulo', step, offset }, description),
  allowedValues: (values: Json[], description?: string): Constraint =>
    described({ kind: 'allowed_values', values }, description),
  allowedPattern: (pattern: string, description?: string): Constraint =>
    described({ kind: 'allowed_pattern', pattern }, description),
  custom: (name: string, description?: string): Constraint =>
    described({ kind: 'custom_constraint', name }, description),
};

/** `attr('The server IP.', 'string')` */
export function attr(description: string, type?: AttributeType): AttributeSchema {
  return type === undefined ? { description } : { description, type };
}
