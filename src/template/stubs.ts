import type { ResourceDefinition } from './template-model.js';
import type { ResourceTypeInfo } from './types.js';

/*
 * A partial bind's stand-ins (engine/operations/partial-bind.ts): resources whose snippet did not
 * change since a bind of the same context, known by what that bind found (type, requires). They
 * are names that references may name and graph nodes; their snippets are never read.
 */

export interface ResourceStubs {
  /** Every name of the template's resources section (the template parsed holds only those bound). */
  all: ReadonlySet<string>;
  /** The enabled resources not bound. */
  resources: ReadonlyMap<string, { type: string; info: ResourceTypeInfo; requires: readonly string[] }>;
}

/** A stub's definition: a name and a type, no snippet. */
export function stubDefinition(name: string, type: string): ResourceDefinition {
  return {
    name,
    type,
    properties: null,
    metadata: null,
    dependsOn: [],
    deletionPolicy: undefined,
    updatePolicy: null,
    description: undefined,
    condition: undefined,
    externalId: undefined,
    path: ['resources', name],
  };
}

/** Resources bound (stubs not counted) since the process started: what a test of a partial bind counts. */
export const bindCount = { resources: 0 };
