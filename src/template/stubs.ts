import type { DefinedResource } from './stack-definition-types.js';
import type { ResourceDefinition } from './template-model.js';

/*
 * A partial bind's stand-ins (engine/operations/partial-bind.ts): resources whose snippet did not
 * change since a bind of the same context, known by what that bind found (type, requires). They
 * are names that references may name and graph nodes; their snippets are never read. A stack of
 * 100,000 has as many: each is one small object, its implementation shared by its type's stubs.
 */

export interface ResourceStubs {
  /** Every name of the template's resources section (the template parsed holds only those bound). */
  all: ReadonlySet<string>;
  /** The enabled resources not bound, as the definition holds them. */
  resources: ReadonlyMap<string, DefinedResource>;
}

const NONE: readonly string[] = Object.freeze([]);

/** A stub's definition: a name and a type, no snippet (the rest on the prototype, not per stub). */
class StubDefinition implements ResourceDefinition {
  constructor(
    readonly name: string,
    readonly type: string,
  ) {}
  get properties(): null {
    return null;
  }
  get metadata(): null {
    return null;
  }
  get dependsOn(): readonly string[] {
    return NONE;
  }
  get deletionPolicy(): undefined {
    return undefined;
  }
  get updatePolicy(): null {
    return null;
  }
  get description(): undefined {
    return undefined;
  }
  get condition(): undefined {
    return undefined;
  }
  get externalId(): undefined {
    return undefined;
  }
  get path(): string[] {
    return ['resources', this.name];
  }
}

export function stubDefinition(name: string, type: string): ResourceDefinition {
  return new StubDefinition(name, type);
}

/** Resources bound (stubs not counted) since the process started: what a test of a partial bind counts. */
export const bindCount = { resources: 0 };
