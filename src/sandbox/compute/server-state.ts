import type { Noise, Random } from '../noise.js';
import { happens } from '../noise.js';
import type { SandboxObject } from '../state.js';
import type { Compute } from './common.js';

/**
 * A server's lifecycle, computed lazily: each server carries a timeline of phases (status from a
 * time on), written when it is created (its fate: when it becomes ACTIVE, whether its boot
 * fails, whether it later errs or disappears, drawn once so every read agrees) and when an action
 * changes it. Its status is the last phase that has begun at the time of reading; nothing runs
 * on a timer, so a fake clock drives it in tests.
 */

export type Fault = {
  code: number;
  message: string;
  details: string;
  created: number;
};

export type Phase = {
  at: number;
  status: string;
  fault?: Fault;
  /** Drawn at create from the noise (a later error, a disappearance): outlives actions. */
  fate?: boolean;
  /** A failed boot: the server's ports are released when it is reached. */
  releasesPorts?: boolean;
};

export type FlavorSnapshot = {
  id: string;
  original_name: string;
  vcpus: number;
  ram: number;
  disk: number;
  ephemeral: number;
  swap: number;
  extra_specs: Record<string, string>;
};

export interface ServerRecord extends SandboxObject {
  name: string;
  projectId: string;
  userId: string;
  flavor: FlavorSnapshot;
  imageId: string;
  keyName: string | null;
  metadata: Record<string, string>;
  /** Nova's server tags (2.26). A server stored before the sandbox had them has none (read `?? []`). */
  tags: string[];
  securityGroups: string[];
  availabilityZone: string;
  userData: string | null;
  description: string | null;
  accessIPv4: string;
  accessIPv6: string;
  createdAt: number;
  /** When a request last changed the server (name, metadata); phases count too, see `updatedAt`. */
  editedAt: number;
  timeline: Phase[];
  ports: { portId: string; networkId: string | null }[];
  portsReleased: boolean;
  /** Set once the server is deleted (by a request, out of band, or by disappearing). */
  deletedAt: number | null;
}

/** Nova's vm_state, task_state and power_state of each status. */
const STATES: Record<string, { vm: string; task: string | null; power: number }> = {
  BUILD: { vm: 'building', task: 'spawning', power: 0 },
  ACTIVE: { vm: 'active', task: null, power: 1 },
  ERROR: { vm: 'error', task: null, power: 0 },
  SHUTOFF: { vm: 'stopped', task: null, power: 4 },
  REBOOT: { vm: 'active', task: 'rebooting', power: 1 },
  HARD_REBOOT: { vm: 'active', task: 'rebooting_hard', power: 1 },
  SUSPENDED: { vm: 'suspended', task: null, power: 4 },
  PAUSED: { vm: 'paused', task: null, power: 3 },
  DELETED: { vm: 'deleted', task: null, power: 0 },
};

export const KNOWN_STATUSES = Object.keys(STATES);

export function statesOf(status: string) {
  return STATES[status] ?? STATES.ERROR!;
}

export const NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.';
/** Nova's SecurityGroupCannotBeApplied: a port it would make on a network with port security and no subnet. */
export const SECURITY_GROUP_CANNOT_BE_APPLIED =
  'Network requires port_security_enabled and subnet associated in order to apply security groups.';

/** The phases of a server whose boot fails: BUILD now, then ERROR with the fault (ports released). */
export function failedBoot(now: number, noise: Noise, message: string, details: string): Phase[] {
  const at = now + noise.bootDelayMs;
  return [
    { at: now, status: 'BUILD' },
    { at, status: 'ERROR', fault: { code: 500, message, details, created: at }, releasesPorts: true },
  ];
}

/** The phases of a new server: BUILD now, then ACTIVE or ERROR, then maybe an error or its end. */
export function initialTimeline(now: number, noise: Noise, random: Random, serverId: string): Phase[] {
  const activeAt = now + noise.bootDelayMs;
  const timeline: Phase[] = [{ at: now, status: 'BUILD' }];
  if (happens(noise.bootFailureRate, random)) {
    const details = `Exceeded maximum number of retries. Exhausted all hosts available for retrying build failures for instance ${serverId}. (sandbox noise: bootFailureRate)`;
    return failedBoot(now, noise, NO_VALID_HOST, details);
  }
  timeline.push({ at: activeAt, status: 'ACTIVE' });
  if (happens(noise.errorAfterRate, random)) {
    const at = activeAt + noise.errorAfterMs;
    const message = `Instance ${serverId} failed on its host (sandbox noise: errorAfterRate).`;
    timeline.push({
      at,
      status: 'ERROR',
      fault: { code: 500, message, details: '', created: at },
      fate: true,
    });
  }
  if (happens(noise.disappearRate, random)) {
    timeline.push({ at: activeAt + noise.disappearAfterMs, status: 'DELETED', fate: true });
  }
  return timeline.sort((a, b) => a.at - b.at);
}

/** The phase the server is in at `now`. */
export function currentPhase(server: ServerRecord, now: number): Phase {
  let current = server.timeline[0]!;
  for (const phase of server.timeline) if (phase.at <= now) current = phase;
  return current;
}

/** When the server last changed: a request's edit or the start of its current phase. */
export function updatedAt(server: ServerRecord, now: number): number {
  return Math.max(server.editedAt, currentPhase(server, now).at);
}

/** When it first became ACTIVE (Nova's launched_at), if it has. */
export function launchedAt(server: ServerRecord, now: number): number | null {
  return server.timeline.find((p) => p.status === 'ACTIVE' && p.at <= now)?.at ?? null;
}

/**
 * The server with `phases` starting at `now`: the phases not yet begun are dropped, but for its
 * fate (a later error or disappearance still comes).
 */
export function withPhases(server: ServerRecord, now: number, phases: Phase[]): ServerRecord {
  const kept = server.timeline.filter((p) => p.at <= now || p.fate);
  return { ...server, timeline: [...kept, ...phases].sort((a, b) => a.at - b.at) };
}

/**
 * Makes what the timeline says has happened true elsewhere: a failed boot releases its ports, a
 * disappeared server is deleted (ports released, volumes detached). Returns the server as stored.
 */
export function settle(compute: Compute, server: ServerRecord): ServerRecord {
  const now = compute.ctx.now();
  const phase = currentPhase(server, now);
  let next = server;
  if (phase.status === 'DELETED' && server.deletedAt === null) {
    next = release(compute, { ...server, deletedAt: phase.at });
  } else if (phase.releasesPorts && !server.portsReleased) {
    compute.ports.unbindAll(server.id);
    next = { ...server, portsReleased: true };
  }
  if (next !== server) compute.ctx.state.put('server', server.projectId, next);
  return next;
}

/** Releases what a deleted server held (its ports and volumes). */
export function release(compute: Compute, server: ServerRecord): ServerRecord {
  if (!server.portsReleased) compute.ports.unbindAll(server.id);
  compute.volumes.detachAll(server.id);
  return { ...server, portsReleased: true };
}

/** Deletes a server now (a request or an admin action): a tombstone stays for changes-since. */
export function deleteServer(compute: Compute, server: ServerRecord): void {
  const now = compute.ctx.now();
  const gone = release(compute, withPhases(server, now, [{ at: now, status: 'DELETED' }]));
  compute.ctx.state.put('server', server.projectId, {
    ...gone,
    timeline: gone.timeline.filter((p) => p.at <= now),
    deletedAt: now,
  });
}

/** Every server of a project (or all), settled; deleted ones only when asked for. */
export function servers(
  compute: Compute,
  projectId: string | undefined,
  withDeleted = false,
): ServerRecord[] {
  return compute.ctx.state
    .list<ServerRecord>('server', projectId === undefined ? {} : { projectId })
    .map((s) => settle(compute, s))
    .filter((s) => withDeleted || s.deletedAt === null);
}

/**
 * Whether a guest (an agent, heat-cfntools) on server `serverId` of `state` runs now: its server is
 * ACTIVE (`running`), another status (`off`), or deleted (`gone`).
 */
export function guestPower(
  state: { get<T extends SandboxObject>(kind: string, id: string): T | undefined },
  serverId: string,
  now: number,
): 'running' | 'off' | 'gone' {
  const server = state.get<ServerRecord>('server', serverId);
  if (!server || server.deletedAt !== null) return 'gone';
  const status = currentPhase(server, now).status;
  if (status === 'DELETED') return 'gone';
  return status === 'ACTIVE' ? 'running' : 'off';
}
