import type { ResourceRecord } from '../store/contract.js';
import type { EngineDeps } from './deps.js';
import { engineAlive } from './liveness.js';

/** Who holds a resource's lock, as far as this engine is concerned. */
export type LockState = 'free' | 'mine' | 'busy' | 'abandoned';

/**
 * A lock held by an engine whose heartbeat stopped is abandoned: the operation it was running
 * is resumed by whoever checks the resource next (the create is retried with the same
 * idempotency key, so nothing is made twice).
 */
export async function lockState(deps: EngineDeps, row: ResourceRecord): Promise<LockState> {
  if (row.engineId === null) return 'free';
  if (row.engineId === deps.engineId) return 'mine';
  const services = await deps.store.tx((tx) => tx.services.list());
  const owner = services.find((s) => s.engineId === row.engineId);
  return engineAlive(owner, deps.clock.now(), deps.settings.engineDeadAfterMs) ? 'busy' : 'abandoned';
}
