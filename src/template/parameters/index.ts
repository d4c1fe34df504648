export { coerceParameterValue, parseBoolean, parseNumber, pyStr } from './coerce.js';
export { parseConstraints } from './constraint-schema.js';
export { type CheckOptions, checkConstraints } from './constraints.js';
export {
  customConstraintError,
  isKnownCustomConstraint,
  knownCustomConstraints,
  registerCustomConstraint,
} from './custom-constraints.js';
export { type ParameterGroup, parseParameterGroups } from './groups.js';
export { compilePythonPattern, matchesWhole } from './pattern.js';
export { type ResolveOptions, resolveParameterValues } from './resolve.js';
export {
  PSEUDO_PARAMETERS,
  parseParameterSchema,
  parseParameterSchemas,
  type SchemaOptions,
} from './schema.js';
export {
  type Constraint,
  type ConstraintKind,
  type CustomConstraintValidator,
  PARAMETER_TYPES,
  type ParameterSchema,
  type ParameterType,
  type ParameterVersion,
} from './types.js';
export { MASK, maskParameters, validateOutputParameter } from './validate-output.js';
