import { hostname } from 'node:os';
import type { ServiceRecord } from '../store/contract.js';

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
