import type { ResourceState, StackRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { Json } from '../../util/json.js';
import { ResourceFailure } from '../../resources/contract.js';
import type { EngineDeps } from '../core/deps.js';
import type { NodeOutput } from '../core/nodes.js';
import { NodeResolveContext } from './resolver.js';
import { loadZones } from './zones.js';
import { idempotencyKey } from '../core/rows.js';
import type { TemplateCache } from '../core/templates.js';
import { peerReader } from './peers.js';
import { noSoftware } from '../../software/service.js';

export interface StackOutput {
  output_key: string;
  description: string;
  output_value?: Json;
  output_error?: string;
}

/**
 * The stack's outputs, resolved from the resources' cached reference ids and attributes (no live
 * call). An output that cannot be resolved yet carries an error instead of a value, and one whose
 * condition is false has the value null, as in Heat.
 */
export async function stackOutputs(
  deps: EngineDeps,
  cache: TemplateCache,
  stack: StackRecord,
): Promise<StackOutput[]> {
  if (!stack.templateId) return [];
  const definition = await cache.lookup(
    stack.templateId,
    { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
    (id) => deps.store.tx((tx) => tx.templates.get(id)),
  );
  if (!definition) return [];
  // A stack without outputs (a group's generated child, say) reads none of its rows.
  if (definition.template.outputs.size === 0) return [];
  const rows = await deps.store.tx((tx) => tx.resources.listStates(stack.id));
  await loadZones(deps, stack, definition);
  const context = new NodeResolveContext(definition, currentOutputs(deps, rows, stack.id));
  const out: StackOutput[] = [];
  for (const [name, output] of definition.template.outputs) {
    const item: StackOutput = { output_key: name, description: output.description ?? 'No description given' };
    // As Heat: an output whose condition is false is listed, with no value.
    if (!definition.outputs.has(name)) {
      item.output_value = null;
      out.push(item);
      continue;
    }
    try {
      item.output_value = context.resolve(output.value) as Json;
    } catch (err) {
      item.output_error = err instanceof TemplateError ? err.detail : String(err);
    }
    out.push(item);
  }
  return out;
}

/** What each live resource reports to others: its reference id and cached attributes. */
export function currentOutputs(
  deps: EngineDeps,
  rows: readonly ResourceState[],
  stackId: string,
): Map<string, NodeOutput> {
  const byName = new Map<string, NodeOutput>();
  const ids = new Set(rows.map((r) => r.id));
  for (const row of rows) {
    if (row.replacedBy !== null && ids.has(row.replacedBy)) continue;
    if (row.action === 'INIT' || row.action === 'DELETE') continue;
    byName.set(row.name, rowOutput(deps, row, stackId));
  }
  return byName;
}

/** What a row's resource reports to the resources that need it, from what the row caches. */
export function rowOutput(deps: EngineDeps, row: ResourceState, stackId: string): NodeOutput {
  const plugin = deps.plugins.plugin(row.type);
  const refId = plugin?.referenceId
    ? plugin.referenceId({
        resourceName: row.name,
        resourceType: row.type,
        stackId,
        stackName: '',
        idempotencyKey: idempotencyKey(row),
        physicalId: row.physicalId,
        data: row.data,
        storedProperties: row.properties as never,
        reality: deps.reality,
        // A reference id is computed from the row alone: it reads no other resource.
        softwareConfig: async () => undefined,
        software: noSoftware('a reference id is computed from the row alone, without software configs'),
        now: () => deps.clock.now(),
        random: deps.random,
        readResource: peerReader(deps, stackId),
        signalCredentials: () => undefined,
        openstack: () => {
          throw new ResourceFailure('a reference id is computed from the row alone, without the cloud');
        },
      })
    : row.physicalId;
  return { name: row.name, rowId: row.id, refId, attributes: row.attributes };
}
