import type { ConditionEvaluator } from './conditions.js';
import { knownBoolean } from './conditions.js';
import type { DocPath } from './errors.js';
import { walkCalls } from './functions/resolve.js';
import type { FnCall, Node } from './functions/types.js';

/** A reference from a snippet to a resource, with where it stands (for error messages). */
export interface ResourceReference {
  readonly resource: string;
  readonly call: FnCall;
  readonly path: DocPath;
}

/**
 * The get_resource/get_attr references in a snippet, skipping `if` branches that known conditions
 * rule out (so a resource named only in a dead branch is no dependency). Unknown conditions keep
 * every branch: non-strict validation must not hide a dependency.
 */
export function collectReferences(node: Node, conditions: ConditionEvaluator): ResourceReference[] {
  const out: ResourceReference[] = [];
  walkCalls(node, (call) => {
    const name = call.def.referencedResource?.(call);
    if (name !== undefined) out.push({ resource: name, call, path: call.path });
    if (call.def.liveBranches) {
      const live = call.def.liveBranches(call, (cond) => knownBoolean(conditions.evaluate(cond, call.path)));
      for (const branch of live) for (const ref of collectReferences(branch, conditions)) out.push(ref);
      return false;
    }
    return true;
  });
  return out;
}
