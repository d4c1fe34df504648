// What binding a template checks and supplies beside its resources' graph: the values its
// parameters receive (from the environment or a parent's properties, unknown ones left pending), a
// deletion policy's value, and the custom constraints to check against the cloud later.
import { type Json, setOwn } from '../util/json.js';
import type { DeferredConstraints } from './deferred-constraints.js';
import type { Environment } from './environment/index.js';
import { type DocPath, isTemplateError, TemplateError } from './errors.js';
import { UNKNOWN, type Value } from './functions/types.js';
import type { ConstraintUse } from './properties/constraint-uses.js';
import type { ResourceDefinition, Template } from './template.js';
import type { ResourceTypeInfo } from './types.js';

/** Parameter values for this template: env parameters (root only), parameter_defaults, parent properties. */
export function suppliedValues(
  template: Template,
  env: Environment | undefined,
  fromParent: Record<string, Value> | undefined,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, value] of Object.entries(env?.parameterDefaults ?? {})) {
    if (template.parameters.has(name)) setOwn(out, name, value);
  }
  const explicit = fromParent ?? env?.parameters ?? {};
  for (const [name, value] of Object.entries(explicit)) {
    if (!mentionsUnknown(value)) setOwn(out, name, value as Json);
  }
  return out;
}

/** Parameters of a nested template whose value from the parent is (partly) unknown. */
export function pendingParameters(
  template: Template,
  fromParent: Record<string, Value> | undefined,
): Set<string> {
  const pending = new Set<string>();
  for (const [name, value] of Object.entries(fromParent ?? {})) {
    if (template.parameters.has(name) && mentionsUnknown(value)) pending.add(name);
  }
  return pending;
}

function mentionsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(mentionsUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(mentionsUnknown);
  return false;
}

/** The cloud checks a resource's known values need; when validating, values that do not convert have none. */
export function constraintUsesOf(
  info: ResourceTypeInfo,
  properties: Value,
  path: DocPath,
  deferred: DeferredConstraints,
  phase: 'validate' | 'create',
): ConstraintUse[] {
  try {
    return info.constraintUses!(properties, path, deferred.wanted);
  } catch (err) {
    if (phase === 'validate' && isTemplateError(err)) return [];
    throw err;
  }
}

export function checkDeletionPolicy(value: Value, template: Template, def: ResourceDefinition): void {
  if (value === UNKNOWN) return;
  if (typeof value !== 'string' || !template.version.deletionPolicies.includes(value)) {
    if (template.version.format === 'cfn') {
      throw new TemplateError('schema', `Invalid deletion policy "${String(value)}"`, [
        ...def.path,
        'deletion_policy',
      ]);
    }
    throw new TemplateError(
      'schema',
      `invalid deletion policy ${JSON.stringify(value)}; expected one of ${template.version.deletionPolicies.join(', ')}`,
      [...def.path, 'deletion_policy'],
    );
  }
}
