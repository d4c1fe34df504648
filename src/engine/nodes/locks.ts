import type { ResourceRecord } from '../../store/contract.js';
import type { NodeScope } from '../context/node-work.js';

/** Who holds a resource's lock, as far as one unit of work is concerned. */
export type LockState = 'free' | 'mine' | 'busy' | 'abandoned';

/** A lock holder names the engine and the unit of work: `<engine id>/<work item id>`. */
export function holderOf(engineId: string, itemId: number): string {
  return `${engineId}/${itemId}`;
}

function holderItem(holder: string): number {
  return Number(holder.slice(holder.lastIndexOf('/') + 1));
}

/**
 * A lock belongs to the unit of work that took it, not to a process: the operation lives as long
 * as that unit is in the queue. The lock is `mine` when this very unit took it (an earlier attempt,
 * possibly by an engine that died and whose lease expired: resumed, with the same idempotency key),
 * `busy` while the unit that took it is still queued or running (whichever engine runs it next
 * continues the operation), and `abandoned` when that unit is gone without releasing it.
 */
export async function lockState(scope: NodeScope, row: ResourceRecord): Promise<LockState> {
  if (row.engineId === null) return 'free';
  if (row.engineId === scope.holder) return 'mine';
  const item = holderItem(row.engineId);
  if (item === scope.item.id) return 'mine';
  if (scope.running.has(item)) return 'busy';
  const queued = await scope.deps.store.tx((tx) => tx.work.exists(item));
  return queued ? 'busy' : 'abandoned';
}
