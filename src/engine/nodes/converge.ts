import type { ResourcePlugin } from '../../resources/contract.js';
import type { ConvergeScope, ResourceRecord } from '../../store/contract.js';
import type { Value } from '../../template/functions/types.js';
import type { Decision } from '../context/update-decision.js';
import { liveDifferences } from '../context/drift-compare.js';
import { registryOf } from '../context/hooks.js';
import { type NodeScope, pluginContext } from '../context/node-work.js';

/**
 * Converge updates (issue 8, level 2): an update whose traversal has `converge` set decides each
 * resource's action from its live state instead of the state Hearth stored. A resource deleted
 * outside Hearth, or one its cloud reports broken, is replaced; one whose live properties differ
 * from the template is updated in place (or replaced, by the usual rules), the plugin being given
 * the live values as the old ones so it sends what reality lacks. Dependents follow through the
 * ordinary graph. A heal (observer.ts) is the same traversal limited to what drift detection found.
 */

/** What the live state says before an update node decides. */
export type LiveBasis =
  /** Not observed (no converge, a type that cannot observe itself, a row not settled): as usual. */
  | { kind: 'stored' }
  | { kind: 'gone'; reason: string }
  | { kind: 'broken'; reason: string }
  /** `previous`: the stored properties with the live values of those that differ; `reason` names them. */
  | { kind: 'present'; previous: Record<string, Value>; reason: string | null };

/** The live basis of `row` for its update node (a failed read: the stored state). */
export async function liveBasis(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
): Promise<LiveBasis> {
  if (!scope.traversal?.converge || plugin.observes === false) return { kind: 'stored' };
  if (
    row.action === 'INIT' ||
    row.action === 'DELETE' ||
    // A failed row is read too: what went wrong may be that it is gone.
    row.status === 'IN_PROGRESS' ||
    row.physicalId === null
  )
    return { kind: 'stored' };
  let live;
  try {
    live = await plugin.getReality(pluginContext(scope, row));
  } catch {
    // The cloud did not answer: decide as a plain update would. A heal tries again at the next
    // observation; drift detection reports the failed read.
    return { kind: 'stored' };
  }
  if (live.state === 'gone')
    return { kind: 'gone', reason: `${row.name} (${row.type} ${row.physicalId}) was deleted outside Hearth` };
  if (live.failure) return { kind: 'broken', reason: `${row.name} is broken: ${live.failure}` };
  const stored = (row.properties ?? {}) as Record<string, Value>;
  const differences = liveDifferences(plugin.properties, stored, live.properties);
  if (differences.length === 0) return { kind: 'present', previous: stored, reason: null };
  const previous = { ...stored };
  for (const { name, actual } of differences) previous[name] = actual;
  // Names only: a value may be a secret.
  const names = differences.map((d) => d.name).join(', ');
  return { kind: 'present', previous, reason: `${row.name} was changed outside Hearth (${names})` };
}

/**
 * Why the action a converge decided on may not run: the environment's `restricted_actions`
 * forbid it, so nothing right can be done without a person. Undefined when it may run.
 */
export async function convergeRefusal(
  scope: NodeScope,
  row: ResourceRecord,
  basis: LiveBasis,
  decision: Decision,
): Promise<string | undefined> {
  // An ordinary update's restrictions are checked before it starts, on its preview; a converge's
  // actions depend on the live state, so they are checked here, whatever their cause.
  if (!scope.traversal?.converge) return undefined;
  const action = decision === 'replace' ? 'replace' : decision === 'update' ? 'update' : undefined;
  if (!action) return undefined;
  const registry = await registryOf(scope, scope.traversal?.templateId ?? row.templateId);
  if (!registry?.restrictedActionsFor(row.name).has(action)) return undefined;
  const seen =
    basis.kind === 'stored' || basis.reason === null
      ? `${row.name} needs to be ${action === 'replace' ? 'replaced' : 'updated'}`
      : basis.reason;
  return (
    `${seen}, and ${action} is restricted for resource (restricted_actions): ` +
    `a person must ${basis.kind === 'gone' ? 'recreate it' : 'repair it'} or lift the restriction`
  );
}

/** Whether a child stack must be converged (updated) even though nothing it is built from changed. */
export function convergesChild(converge: ConvergeScope | null | undefined, childId: string): boolean {
  if (!converge) return false;
  return converge.mode === 'all' || converge.stacks.includes(childId);
}
