import { hostname } from 'node:os';
import type { ServiceRecord, Tx } from '../store/contract.js';

const HOST = hostname();

/**
 * Whether an engine is alive. Its heartbeat decides, except that an engine on this host whose
 * process no longer exists is dead at once (a killed `hearth` command is noticed without waiting
 * for its heartbeat to go stale).
 */
export function engineAlive(service: ServiceRecord | undefined, now: number, deadAfterMs: number): boolean {
  if (!service) return false;
  if (service.host === HOST && !processExists(service.pid)) return false;
  return now - service.heartbeatAt < deadAfterMs;
}

function processExists(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An engine removed from the services table as dead, and how many claimed units it held. */
export interface RemovedEngine {
  service: ServiceRecord;
  releasedWork: number;
}

/**
 * Removes the engines presumed dead at `now` (all but `except`) and makes the work they had
 * claimed claimable at once, in the caller's transaction: no engine's row goes without its work
 * being released, and an engine that comes back finds its claims taken (it commits nothing).
 */
export async function removeDeadEngines(
  tx: Tx,
  now: number,
  deadAfterMs: number,
  except?: string,
): Promise<RemovedEngine[]> {
  const dead = (await tx.services.list()).filter(
    (s) => s.engineId !== except && !engineAlive(s, now, deadAfterMs),
  );
  const removed: RemovedEngine[] = [];
  for (const service of dead) {
    const releasedWork = await tx.work.releaseClaimsOf(service.engineId, now);
    await tx.services.remove(service.engineId);
    removed.push({ service, releasedWork });
  }
  return removed;
}
