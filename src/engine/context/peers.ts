import type { PeerResource } from '../../resources/contract.js';
import type { ResourceRecord, SyncPointRecord } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import type { NodeOutput } from '../core/nodes.js';
import { currentRow } from '../core/rows.js';

/**
 * What plugins see of the other resources of their stack, and how a plugin waiting for another
 * resource's signals is woken. A plugin reads one resource at a time, through an index: the row a
 * dependency reported to this node's sync point (by its reference id), or the row carrying a name.
 */

/**
 * The event key a resource's handled signals are announced on: a poll waiting for them (a wait
 * condition's, see PollResult.wakeOnSignalTo) is parked on it and woken by the signal's transaction.
 */
export function signalWaitKey(stackId: string, resourceName: string): string {
  return `signal:${stackId}/${resourceName}`;
}

/**
 * PluginContext.readResource for a resource of `stackId`: the row carrying a name now. With the
 * node's sync point, a reference id is first looked up among the dependencies that reported to it
 * (what get_resource gave the plugin); otherwise, or when none matches, `ref` is the name.
 */
export function peerReader(
  deps: Pick<EngineDeps, 'store'>,
  stackId: string,
  point?: SyncPointRecord,
): (ref: string) => Promise<PeerResource | undefined> {
  return async (ref) => {
    const name = dependencyByRef(point, ref)?.name ?? ref;
    const row = currentRow(await deps.store.tx((tx) => tx.resources.findByName(stackId, name)));
    return row && peerOf(row);
  };
}

/**
 * The resource a nested-stack type's child is built from besides its properties (NestedStackType.peer:
 * an AWS group's launch configuration), read as PluginContext.readResource reads it: `ref` is a
 * dependency's reference id among `outputs` (what the node's sync point, or the legacy walk, holds),
 * or a name.
 */
export async function childPeer(
  deps: Pick<EngineDeps, 'store'>,
  stackId: string,
  ref: string,
  outputs: Iterable<NodeOutput | null>,
): Promise<PeerResource | undefined> {
  let name = ref;
  for (const output of outputs) if (output && output.refId === ref) name = output.name;
  const row = currentRow(await deps.store.tx((tx) => tx.resources.findByName(stackId, name)));
  return row && peerOf(row);
}

export function dependencyByRef(point: SyncPointRecord | undefined, ref: string): NodeOutput | undefined {
  for (const input of Object.values(point?.inputs ?? {})) {
    const output = input as unknown as NodeOutput | null;
    if (output && typeof output === 'object' && output.refId === ref) return output;
  }
  return undefined;
}

function peerOf(row: ResourceRecord): PeerResource {
  return {
    name: row.name,
    type: row.type,
    physicalId: row.physicalId,
    action: row.action,
    status: row.status,
    properties: row.properties,
    data: row.data,
  };
}
