import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import type { SandboxObject } from '../state.js';
import { bodyPart, optionalText, type Params } from './request.js';
import { cinderTime, type Transition, type Volume } from './types.js';
import { after, projectVolume, save } from './volume-state.js';

/**
 * Cinder's volume backups: made from a volume (creating -> available, the volume `backing-up`
 * meanwhile), listed, shown, deleted (deleting -> gone) and restored onto a volume (the volume
 * `restoring-backup` meanwhile). A new volume can be made from one (volumes.ts, microversion 3.47).
 * Each keeps what a volume made from it takes over: its size, type, bootable flag and image.
 */

export const BACKUP = 'backup';

export interface Backup extends SandboxObject {
  name: string | null;
  description: string | null;
  status: string;
  volume_id: string;
  size: number;
  project_id: string;
  created_at: string;
  updated_at: string | null;
  container: string | null;
  fail_reason: string | null;
  /** What a volume restored from it gets (the source volume's, when the backup was made). */
  source: Pick<Volume, 'volume_type' | 'volume_type_id' | 'bootable' | 'image'>;
  transition: Transition | null;
}

/** The backup after its due transition (stored), or undefined when it is gone. */
function settle(ctx: SandboxContext, backup: Backup): Backup | undefined {
  const due = backup.transition;
  if (!due || due.at > ctx.now()) return backup;
  if (due.to === null) {
    ctx.state.delete(BACKUP, backup.id);
    return undefined;
  }
  const settled: Backup = { ...backup, status: due.to, transition: null, updated_at: cinderTime(due.at) };
  return ctx.state.put(BACKUP, backup.project_id, settled);
}

function saveBackup(ctx: SandboxContext, backup: Backup): Backup | undefined {
  const stored = ctx.state.put(BACKUP, backup.project_id, { ...backup, updated_at: cinderTime(ctx.now()) });
  return settle(ctx, stored);
}

/** The project's backup as it is now; 404 in Cinder's words otherwise. */
export function projectBackup(ctx: SandboxContext, projectId: string, id: string): Backup {
  const stored = ctx.state.get<Backup>(BACKUP, id);
  const backup = stored ? settle(ctx, stored) : undefined;
  if (!backup || backup.project_id !== projectId) throw notFound('Backup', id);
  return backup;
}

function links(base: string, backup: Backup) {
  return [
    { href: `${base}/volume/v3/${backup.project_id}/backups/${backup.id}`, rel: 'self' },
    { href: `${base}/volume/${backup.project_id}/backups/${backup.id}`, rel: 'bookmark' },
  ];
}

function detailView(base: string, backup: Backup) {
  return {
    id: backup.id,
    name: backup.name,
    description: backup.description,
    status: backup.status,
    volume_id: backup.volume_id,
    size: backup.size,
    availability_zone: 'nova',
    container: backup.container,
    created_at: backup.created_at,
    updated_at: backup.updated_at,
    data_timestamp: backup.created_at,
    fail_reason: backup.fail_reason,
    object_count: 0,
    is_incremental: false,
    has_dependent_backups: false,
    snapshot_id: null,
    links: links(base, backup),
  };
}

/** The statuses a volume can be backed up in (in-use only with `force`). */
const BACKUP_FROM = ['available', 'in-use'];

function createBackup(ctx: SandboxContext, request: FastifyRequest, projectId: string): Backup {
  const body = bodyPart(request.body, 'backup');
  if (typeof body.volume_id !== 'string') {
    throw badRequest(
      "Invalid input for field/attribute volume_id. Value: None. 'volume_id' is a required property",
    );
  }
  const volume = projectVolume(ctx, projectId, body.volume_id);
  const force = body.force === true || body.force === 'true';
  if (!BACKUP_FROM.includes(volume.status) || (volume.status === 'in-use' && !force)) {
    throw badRequest(
      `Invalid volume: Volume to be backed up must be available or in-use, but the current status is "${volume.status}".`,
    );
  }
  return ctx.state.transaction(() => {
    const backup: Backup = {
      id: randomUUID(),
      name: optionalText(body, 'name') ?? null,
      description: optionalText(body, 'description') ?? null,
      status: 'creating',
      volume_id: volume.id,
      size: volume.size,
      project_id: projectId,
      created_at: cinderTime(ctx.now()),
      updated_at: null,
      container: optionalText(body, 'container') ?? null,
      fail_reason: null,
      source: {
        volume_type: volume.volume_type,
        volume_type_id: volume.volume_type_id,
        bootable: volume.bootable,
        image: volume.image,
      },
      transition: after(ctx, 'available'),
    };
    ctx.state.put(BACKUP, projectId, backup);
    save(ctx, { ...volume, status: 'backing-up', transition: after(ctx, volume.status) });
    return settle(ctx, backup)!;
  });
}

/** Restores a backup onto an existing volume (available, at least the backup's size). */
function restoreBackup(ctx: SandboxContext, request: FastifyRequest, projectId: string, id: string) {
  const body = bodyPart(request.body, 'restore');
  const backup = projectBackup(ctx, projectId, id);
  if (backup.status !== 'available') {
    throw badRequest(`Invalid backup: Backup status must be available but is ${backup.status}.`);
  }
  if (typeof body.volume_id !== 'string') {
    throw badRequest('Restoring a backup to a new volume without volume_id is not supported here.');
  }
  const volume = projectVolume(ctx, projectId, body.volume_id);
  if (volume.status !== 'available') {
    throw badRequest(`Invalid volume: Volume to be restored to must be available, but is ${volume.status}.`);
  }
  if (volume.size < backup.size) {
    throw badRequest(
      `Invalid volume: volume size ${volume.size} is too small to restore backup of size ${backup.size}.`,
    );
  }
  ctx.state.transaction(() => {
    saveBackup(ctx, { ...backup, status: 'restoring', transition: after(ctx, 'available') });
    save(ctx, {
      ...volume,
      ...backup.source,
      status: 'restoring-backup',
      transition: after(ctx, 'available'),
    });
  });
  return { restore: { backup_id: backup.id, volume_id: volume.id, volume_name: volume.name } };
}

export function registerBackups(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: Params }>('/backups', async (request, reply) => {
    const backup = createBackup(ctx, request, request.params.project_id);
    const base = ctx.baseUrl(request);
    return reply.code(202).send({ backup: { id: backup.id, name: backup.name, links: links(base, backup) } });
  });

  const list = (detail: boolean) => async (request: FastifyRequest<{ Params: Params }>) => {
    const base = ctx.baseUrl(request);
    const backups = ctx.state
      .list<Backup>(BACKUP, { projectId: request.params.project_id })
      .map((b) => settle(ctx, b))
      .filter((b): b is Backup => b !== undefined);
    return {
      backups: backups.map((b) =>
        detail ? detailView(base, b) : { id: b.id, name: b.name, links: links(base, b) },
      ),
    };
  };
  app.get('/backups', list(false));
  app.get('/backups/detail', list(true));

  app.get<{ Params: Params }>('/backups/:id', async (request) => ({
    backup: detailView(
      ctx.baseUrl(request),
      projectBackup(ctx, request.params.project_id, request.params.id),
    ),
  }));

  app.delete<{ Params: Params }>('/backups/:id', async (request, reply) => {
    const backup = projectBackup(ctx, request.params.project_id, request.params.id);
    if (backup.status !== 'available' && backup.status !== 'error') {
      throw new ApiError(400, 'Invalid backup: Backup status must be available or error');
    }
    saveBackup(ctx, { ...backup, status: 'deleting', transition: after(ctx, null) });
    return reply.code(202).send();
  });

  app.post<{ Params: Params }>('/backups/:id/restore', async (request, reply) => {
    const answer = restoreBackup(ctx, request, request.params.project_id, request.params.id);
    return reply.code(202).send(answer);
  });
}
