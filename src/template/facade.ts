import { type DocPath, TemplateError } from './errors.js';
import type { ResolveContext, Value } from './functions/types.js';
import type { ResourceDefinition } from './template-model.js';
import { isPlainObject, type JsonObject } from '../util/json.js';

/**
 * What `resource_facade` / `Fn::ResourceFacade` read in a nested stack: its parent resource's
 * sections, resolved in the parent stack (Heat's ParentResourceProxy). Recorded with the child's
 * template when the parent makes or updates it, so the child never loads its parent.
 */
export interface ParentFacade {
  metadata: JsonObject;
  deletion_policy: string;
  update_policy: JsonObject;
}

export type FacadeSection = keyof ParentFacade;

// HOT 2016-10-14's lower-case aliases name the same policies (Heat's deletion_policies maps).
const POLICIES: Readonly<Record<string, string>> = {
  delete: 'Delete',
  retain: 'Retain',
  snapshot: 'Snapshot',
};

/**
 * The facade of resource `def` resolved with its own stack's context: metadata and update_policy
 * {} when absent, deletion_policy Heat's canonical name ('Delete' when absent).
 */
export function resolveFacade(ctx: ResolveContext, def: ResourceDefinition): ParentFacade {
  const metadata = ctx.resolve(def.metadata);
  const updatePolicy = ctx.resolve(def.updatePolicy);
  const policy = def.deletionPolicy === undefined ? null : ctx.resolve(def.deletionPolicy);
  return {
    metadata: asObject(metadata, [...def.path, 'metadata'], 'metadata'),
    deletion_policy:
      typeof policy === 'string' && policy !== '' ? (POLICIES[policy.toLowerCase()] ?? policy) : 'Delete',
    update_policy: asObject(updatePolicy, [...def.path, 'update_policy'], 'update_policy'),
  };
}

/** Whether a facade says nothing but Heat's defaults (then it does not change what a child is built from). */
export function isDefaultFacade(facade: ParentFacade): boolean {
  return (
    facade.deletion_policy === 'Delete' &&
    Object.keys(facade.metadata).length === 0 &&
    Object.keys(facade.update_policy).length === 0
  );
}

/** One section of a recorded facade; a stack without one (a top-level stack) has no parent to read. */
export function facadeSection(
  facade: ParentFacade | undefined,
  section: FacadeSection,
  path: DocPath,
): Value {
  if (!facade) {
    throw new TemplateError(
      'reference',
      'resource_facade is only available in a nested stack: this stack has no parent resource',
      path,
    );
  }
  return facade[section] as Value;
}

function asObject(value: Value, path: DocPath, section: string): JsonObject {
  if (value === null || value === undefined) return {};
  if (!isPlainObject(value)) throw new TemplateError('schema', `the ${section} must be a map`, path);
  return value as JsonObject;
}
