import { hostname } from 'node:os';
import type { ServiceRecord, Tx } from '../../store/contract.js';

const HOST = hostname();

/**
 * How much longer than `deadAfterMs` the heartbeat of an engine on this host may be late while its
 * process exists. SQLite statements run synchronously: a transaction over 100,000 rows holds a
 * process's event loop, its heartbeat timer included, for seconds. Taking its work over then is
 * safe (claims are fenced) but wasted; a process hung for good is still presumed dead, later.
 */
const LOCAL_GRACE_FACTOR = 6;

/**
 * Whether an engine is alive. Its heartbeat decides, except that an engine on this host whose
 * process no longer exists is dead at once (a killed `hearth` command is noticed without waiting
 * for its heartbeat to go stale), and one whose process exists gets LOCAL_GRACE_FACTOR times longer.
 */
export function engineAlive(service: ServiceRecord | undefined, now: number, deadAfterMs: number): boolean {
  if (!service) return false;
  if (service.host === HOST) {
    if (!processExists(service.pid)) return false;
    if (service.pid !== process.pid) return now - service.heartbeatAt < deadAfterMs * LOCAL_GRACE_FACTOR;
  }
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
