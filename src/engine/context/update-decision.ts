import type { ResourcePlugin } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import type { Value } from '../../template/functions/types.js';
import { diffProperties } from '../../template/properties/index.js';

export type Decision = 'none' | 'create' | 'update' | 'replace';

type DecidedRow = Pick<
  ResourceRecord,
  'action' | 'status' | 'unhealthy' | 'type' | 'physicalId' | 'properties' | 'templateId'
>;

/** What a row would need to become `properties` of `type` (shared with the update preview, preview.ts). */
export function decide(
  plugin: ResourcePlugin,
  row: DecidedRow,
  type: string,
  properties: Record<string, Value>,
  /** What the resource has now: its stored properties unless a converge read them live. */
  previous: Record<string, Value> = (row.properties ?? {}) as Record<string, Value>,
  /** The template the traversal converges to (undefined: one not stored yet, a preview's). */
  templateId?: string | null,
): Decision {
  return explainDecision(plugin, row, type, properties, previous, templateId).decision;
}

/** `decide`'s decision with why a replacement is needed (what `stack plan` prints). */
export function explainDecision(
  plugin: ResourcePlugin,
  row: DecidedRow,
  type: string,
  properties: Record<string, Value>,
  previous: Record<string, Value> = (row.properties ?? {}) as Record<string, Value>,
  templateId?: string | null,
): { decision: Decision; reason?: string } {
  if (row.action === 'INIT') return { decision: 'create' };
  // A row whose delete ran (an overtaken cleanup, then a rollback wanting it back) is recreated.
  if (row.action === 'DELETE') return { decision: 'replace', reason: 'its physical resource was deleted' };
  if (row.type !== type) return { decision: 'replace', reason: `type changes from ${row.type} to ${type}` };
  if (row.status === 'FAILED') return { decision: 'replace', reason: 'it is FAILED' };
  if (row.unhealthy) return { decision: 'replace', reason: 'it is marked unhealthy' };
  if (row.physicalId === null) return { decision: 'replace', reason: 'it has no physical resource' };
  // A re-convergence to the template the row has (a scaling signal, a heal) is no stack update.
  if (plugin.replacedOnUpdate && row.templateId !== templateId) {
    return { decision: 'replace', reason: 'the type is replaced on every stack update' };
  }
  const diff = diffProperties(plugin.properties, previous, properties);
  if (diff.changed.length === 0) return { decision: 'none' };
  if (diff.requiresReplacement.length > 0) {
    const names = diff.requiresReplacement.join(', ');
    return { decision: 'replace', reason: `cannot update in place: ${names}` };
  }
  return plugin.needsReplace?.(properties, previous, diff.changed)
    ? { decision: 'replace', reason: `the type needs a new resource for: ${diff.changed.join(', ')}` }
    : { decision: 'update' };
}
