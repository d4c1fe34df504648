import type { StackAction, StackRecord, Tx } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import type { EngineDeps } from '../core/deps.js';
import { diffDigests, type TemplateDigests } from '../core/digests.js';
import { decodeDigests } from '../core/digests-form.js';
import { type PlannedDiff, PartialMiss } from '../core/traversal.js';
import { nodeAtEveryUpdate } from '../nodes/unchanged.js';

/*
 * An update planned from a diff: the new template compared with the stack's, resource by
 * resource (core/digests.ts), so that an update of one resource of 100,000 reads and writes a
 * handful of rows. Valid only when the stack's last traversal converged every live row to its
 * template (it completed, and it was one that converges: a CHECK or SUSPEND completes over rows
 * a failed update left behind). Otherwise, or when anything but the resources changed
 * (parameters, environment, files...), every row is read and compared, as before.
 */

/** Completed traversals that leave every live row converged to the stack's template. */
const CONVERGING: ReadonlySet<StackAction> = new Set<StackAction>(['CREATE', 'UPDATE', 'ROLLBACK', 'ADOPT']);

/** Whether every live row of a convergence stack is converged to its template (see CONVERGING). */
export function converged(stack: StackRecord): boolean {
  return stack.convergence && stack.status === 'COMPLETE' && CONVERGING.has(stack.action);
}

/** The diff an update of `stack` to `definition` can be planned from, or undefined (the full comparison). */
export async function planFromDiff(
  tx: Tx,
  deps: EngineDeps,
  stack: StackRecord,
  definition: StackDefinition,
  next: TemplateDigests,
  partial?: { prevTemplateId: string; removed: readonly string[]; affected: ReadonlySet<string> },
): Promise<PlannedDiff | undefined> {
  if (partial) return fromPartial(stack, definition, partial);
  if (!converged(stack) || !stack.templateId) return undefined;
  const prev = decodeDigests(await tx.templates.digests(stack.templateId));
  const diff = prev && diffDigests(prev, next);
  if (!diff) return undefined;
  const always = alwaysVisited(deps, definition);
  return {
    removed: diff.removed,
    affected: (unsettled) => {
      const seeds = [...diff.changed, ...always];
      for (const name of unsettled) if (definition.resources.has(name)) seeds.push(name);
      return withDependents(
        (name) => (definition.graph.has(name) ? definition.graph.neededBy(name) : []),
        seeds,
      );
    },
  };
}

/**
 * The diff a partial bind found (partial-bind.ts): valid while the stack is as the bind read it
 * (the same template, converged) and every unsettled row is one it bound.
 */
function fromPartial(
  stack: StackRecord,
  definition: StackDefinition,
  partial: { prevTemplateId: string; removed: readonly string[]; affected: ReadonlySet<string> },
): PlannedDiff {
  if (!converged(stack) || stack.templateId !== partial.prevTemplateId) throw new PartialMiss();
  return {
    removed: partial.removed,
    partial: true,
    affected: (unsettled) => {
      for (const name of unsettled) {
        if (definition.resources.has(name) && !partial.affected.has(name)) throw new PartialMiss();
      }
      return partial.affected;
    },
  };
}

/**
 * Resources whose node runs at every update whatever their definition (unchanged.ts): template
 * resources and nested-stack types (their child's template may change), types replaced on every
 * update, and types with no plugin (their node reports it).
 */
function alwaysVisited(deps: EngineDeps, definition: StackDefinition): string[] {
  const names: string[] = [];
  for (const [name, resource] of definition.resources) {
    if (resource.implementation.kind !== 'plugin') {
      names.push(name);
      continue;
    }
    if (nodeAtEveryUpdate(deps.plugins.plugin(resource.implementation.type))) names.push(name);
  }
  return names;
}

/**
 * `seeds` and everything that requires one of them, directly or not (a changed input changes a
 * resolution), through the graph's reverse edges (a resource's `requires`, stack-definition.ts).
 */
export function withDependents(
  neededBy: (name: string) => readonly string[],
  seeds: readonly string[],
): Set<string> {
  const out = new Set(seeds);
  const queue = [...out];
  for (let i = 0; i < queue.length; i++) {
    for (const next of neededBy(queue[i]!)) {
      if (out.has(next)) continue;
      out.add(next);
      queue.push(next);
    }
  }
  return out;
}
