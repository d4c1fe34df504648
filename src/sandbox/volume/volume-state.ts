import type { SandboxContext } from '../app.js';
import { ApiError, notFound } from '../errors.js';
import { cinderTime, type Transition, type Volume, VOLUME } from './types.js';

/**
 * Volumes as they are now: a stored volume's pending transition (creating -> available,
 * extending -> back, deleting -> gone) is applied when it is read, from its timestamp, so a fake
 * clock drives the lifecycle and no timer ever runs.
 */

/** The volume after its due transition (stored), or undefined when it is gone. */
export function settle(ctx: SandboxContext, volume: Volume): Volume | undefined {
  const due = volume.transition;
  if (!due || due.at > ctx.now()) return volume;
  if (due.to === null) {
    ctx.state.delete(VOLUME, volume.id);
    return undefined;
  }
  const settled: Volume = { ...volume, status: due.to, transition: null, updated_at: cinderTime(due.at) };
  return ctx.state.put(VOLUME, volume.project_id, settled);
}

/** A transition `ctx.noise().bootDelayMs` from now (a volume's operations take as long as a boot). */
export function after(ctx: SandboxContext, to: string | null): Transition {
  return { to, at: ctx.now() + ctx.noise().bootDelayMs };
}

/** Stores a change to a volume, stamping updated_at; a zero delay transition is applied at once. */
export function save(ctx: SandboxContext, volume: Volume): Volume | undefined {
  const stored = ctx.state.put(VOLUME, volume.project_id, { ...volume, updated_at: cinderTime(ctx.now()) });
  return settle(ctx, stored);
}

/** Any volume by id as it is now (admin actions, the binder), or undefined. */
export function currentVolume(ctx: SandboxContext, id: string): Volume | undefined {
  const stored = ctx.state.get<Volume>(VOLUME, id);
  return stored ? settle(ctx, stored) : undefined;
}

/** The project's volume as it is now; 404 in Cinder's words otherwise. */
export function projectVolume(ctx: SandboxContext, projectId: string, id: string): Volume {
  const volume = currentVolume(ctx, id);
  if (!volume || volume.project_id !== projectId) throw notFound('Volume', id);
  return volume;
}

/** The project's volumes as they are now, in creation order (every project's when undefined). */
export function projectVolumes(ctx: SandboxContext, projectId: string | undefined): Volume[] {
  const stored = ctx.state.list<Volume>(VOLUME, projectId === undefined ? {} : { projectId });
  return stored.map((v) => settle(ctx, v)).filter((v): v is Volume => v !== undefined);
}

/** The project's usage against Cinder's quotas: every volume not yet gone counts. */
export function usage(ctx: SandboxContext, projectId: string): { volumes: number; gigabytes: number } {
  const volumes = projectVolumes(ctx, projectId);
  return { volumes: volumes.length, gigabytes: volumes.reduce((sum, v) => sum + v.size, 0) };
}

/**
 * Refuses (413, Cinder's overLimit) adding `volumes` volumes and `gigabytes` GiB to the project's
 * usage beyond the quotas of the noise knobs.
 */
export function checkQuota(ctx: SandboxContext, projectId: string, volumes: number, gigabytes: number): void {
  const { quotas } = ctx.noise();
  const used = usage(ctx, projectId);
  if (volumes > 0 && quotas.volumes >= 0 && used.volumes + volumes > quotas.volumes) {
    throw new ApiError(
      413,
      `VolumeLimitExceeded: Maximum number of volumes allowed (${quotas.volumes}) exceeded for quota 'volumes'.`,
    );
  }
  if (gigabytes > 0 && quotas.gigabytes >= 0 && used.gigabytes + gigabytes > quotas.gigabytes) {
    throw new ApiError(
      413,
      `VolumeSizeExceedsAvailableQuota: Requested volume or snapshot exceeds allowed gigabytes quota. ` +
        `Requested ${gigabytes}G, quota is ${quotas.gigabytes}G and ${used.gigabytes}G has been consumed.`,
    );
  }
}
