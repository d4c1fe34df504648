import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { findImage } from '../image.js';
import { happens } from '../noise.js';
import { type Query, selectVolumes } from './listing.js';
import {
  atLeast,
  bodyPart,
  isAdmin,
  metadataField,
  optionalText,
  type Params,
  positiveInteger,
} from './request.js';
import { after, checkQuota, projectVolume, projectVolumes, save } from './volume-state.js';
import { type Backup, projectBackup } from './backups.js';
import { cinderTime, DEFAULT_VOLUME_TYPE, type Volume, VOLUME, VOLUME_TYPES, ZONE } from './types.js';
import { detailView, summaryView } from './views.js';

/** Cinder's volume routes: create, list, show, update, delete. */

/** The statuses a volume can be deleted in (and only when nothing is attached). */
const DELETABLE = ['available', 'error', 'error_restoring', 'error_extending', 'error_managing'];

/** `name` or `description`, also under Cinder's older `display_` names (the openstack client's update sends those). */
function textField(body: Record<string, unknown>, key: 'name' | 'description'): string | null | undefined {
  return key in body ? optionalText(body, key) : optionalText(body, `display_${key}`);
}

/** The backup a new volume is made from (`backup_id`, microversion 3.47), if one is given. */
function backupToRestore(
  ctx: SandboxContext,
  request: FastifyRequest,
  projectId: string,
  id: unknown,
): Backup | undefined {
  if (id === undefined || id === null) return undefined;
  if (!atLeast(request, '3.47')) {
    throw badRequest(
      "Invalid input for field/attribute volume. Additional properties are not allowed ('backup_id' was unexpected)",
    );
  }
  const backup = projectBackup(ctx, projectId, String(id));
  if (backup.status !== 'available') {
    throw badRequest(`Invalid backup: Backup status must be available but is ${backup.status}.`);
  }
  return backup;
}

function createVolume(ctx: SandboxContext, request: FastifyRequest, projectId: string): Volume {
  const body = bodyPart(request.body, 'volume');
  const name = textField(body, 'name') ?? null;
  const description = textField(body, 'description') ?? null;
  const metadata = body.metadata === undefined || body.metadata === null ? {} : metadataField(body.metadata);
  // No volume snapshots exist in the sandbox.
  if (body.snapshot_id !== undefined && body.snapshot_id !== null) {
    throw notFound('Snapshot', String(body.snapshot_id));
  }
  const backup = backupToRestore(ctx, request, projectId, body.backup_id);

  let source: Pick<Volume, 'id' | 'size' | 'volume_type' | 'bootable' | 'image'> | undefined = backup
    ? { id: '', size: backup.size, ...backup.source }
    : undefined;
  if (body.source_volid !== undefined && body.source_volid !== null) {
    const volume = projectVolume(ctx, projectId, String(body.source_volid));
    source = volume;
    if (volume.status !== 'available' && volume.status !== 'in-use') {
      throw badRequest(
        `Invalid volume: Source volume status must be available or in-use, not ${volume.status}.`,
      );
    }
  }
  const size =
    body.size === undefined || body.size === null
      ? source
        ? source.size
        : (() => {
            throw badRequest(
              "Invalid input for field/attribute size. Value: None. 'size' is a required property",
            );
          })()
      : positiveInteger(body.size, 'size');
  if (source && size < source.size) {
    throw badRequest(
      `Invalid input received: Volume size '${size}'GB cannot be smaller than original volume size ${source.size}GB. They must be >= original volume size.`,
    );
  }

  const typeName = body.volume_type ?? source?.volume_type;
  const type =
    typeName === undefined || typeName === null
      ? DEFAULT_VOLUME_TYPE
      : VOLUME_TYPES.find((t) => t.name === typeName || t.id === typeName);
  if (!type) throw notFound('Volume type with name', String(typeName));

  const zone = body.availability_zone ?? ZONE;
  if (zone !== ZONE)
    throw badRequest(`Invalid input received: Availability zone '${String(zone)}' is invalid.`);

  let image: Volume['image'] = null;
  const imageRef = body.imageRef ?? body.image_id;
  if (imageRef !== undefined && imageRef !== null) {
    const found = typeof imageRef === 'string' ? findImage(ctx.state, projectId, imageRef) : undefined;
    if (!found) throw badRequest('Invalid image identifier or unable to access requested image.');
    if (found.min_disk > size) {
      throw badRequest(
        `Invalid input received: Image minDisk size ${found.min_disk} is larger than the volume size ${size}.`,
      );
    }
    const gib = Math.ceil((found.size ?? 0) / 1024 ** 3);
    if (gib > size) {
      throw badRequest(
        `Invalid input received: Size of specified image ${gib}GB is larger than volume size ${size}GB.`,
      );
    }
    image = {
      id: found.id,
      name: found.name,
      min_disk: found.min_disk,
      disk_format: found.disk_format,
      container_format: found.container_format,
    };
  }
  const multiattach = body.multiattach === true || body.multiattach === 'true';

  return ctx.state.transaction(() => {
    checkQuota(ctx, projectId, 1, size);
    const now = cinderTime(ctx.now());
    const volume: Volume = {
      id: randomUUID(),
      name,
      description,
      // Cinder shows a volume made from a backup as restoring-backup until it is ready.
      status: backup ? 'restoring-backup' : 'creating',
      size,
      availability_zone: ZONE,
      created_at: now,
      updated_at: null,
      volume_type: type.name,
      volume_type_id: type.id,
      bootable: image !== null || (source?.bootable ?? false),
      readonly: false,
      multiattach,
      metadata,
      user_id: request.caller.userId,
      project_id: projectId,
      snapshot_id: null,
      source_volid: source?.id || null,
      image: image ?? source?.image ?? null,
      attachments: [],
      // The boot failure noise fails new volumes too, as a backend that cannot allocate would.
      transition: after(ctx, happens(ctx.noise().bootFailureRate, ctx.random) ? 'error' : 'available'),
    };
    ctx.state.put(VOLUME, projectId, volume);
    // A zero boot delay makes it available at once.
    return projectVolume(ctx, projectId, volume.id);
  });
}

export function registerVolumes(app: FastifyInstance, ctx: SandboxContext): void {
  const base = (request: FastifyRequest) => ctx.baseUrl(request);

  app.post<{ Params: Params }>('/volumes', async (request, reply) => {
    const volume = createVolume(ctx, request, request.params.project_id);
    return reply.code(202).send({ volume: detailView(base(request), volume, isAdmin(request)) });
  });

  const list =
    (detail: boolean) => async (request: FastifyRequest<{ Params: Params; Querystring: Query }>) => {
      const query = request.query;
      const everyone = isAdmin(request) && ['1', 'true', 'True'].includes(query.all_tenants ?? '');
      const projectId = request.params.project_id;
      const { page, more, count } = selectVolumes(projectVolumes(ctx, everyone ? undefined : projectId), {
        ...query,
        ...(everyone ? {} : { project_id: undefined }),
      });
      const url = base(request);
      const volumes = page.map((vol) =>
        detail ? detailView(url, vol, isAdmin(request)) : summaryView(url, vol),
      );
      const links = more
        ? {
            volumes_links: [
              {
                rel: 'next',
                href:
                  `${url}/volume/v3/${projectId}/volumes${detail ? '/detail' : ''}?` +
                  new URLSearchParams({
                    ...Object.fromEntries(
                      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
                    ),
                    marker: page.at(-1)!.id,
                  }).toString(),
              },
            ],
          }
        : {};
      const counted = atLeast(request, '3.45') && query.with_count === 'true' ? { count } : {};
      return { volumes, ...links, ...counted };
    };
  app.get('/volumes', list(false));
  app.get('/volumes/detail', list(true));

  app.get<{ Params: Params }>('/volumes/:id', async (request) => {
    const volume = projectVolume(ctx, request.params.project_id, request.params.id);
    return { volume: detailView(base(request), volume, isAdmin(request)) };
  });

  app.put<{ Params: Params }>('/volumes/:id', async (request) => {
    const body = bodyPart(request.body, 'volume');
    const volume = projectVolume(ctx, request.params.project_id, request.params.id);
    const name = textField(body, 'name');
    const description = textField(body, 'description');
    const changed: Volume = {
      ...volume,
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(body.metadata !== undefined ? { metadata: metadataField(body.metadata) } : {}),
    };
    const saved = save(ctx, changed) ?? changed;
    return { volume: detailView(base(request), saved, isAdmin(request)) };
  });

  app.delete<{ Params: Params }>('/volumes/:id', async (request, reply) => {
    const volume = projectVolume(ctx, request.params.project_id, request.params.id);
    if (!DELETABLE.includes(volume.status) || volume.attachments.length > 0) {
      throw new ApiError(
        400,
        'Invalid volume: Volume status must be available or error or error_restoring or error_extending or ' +
          'error_managing and must not be migrating, attached, belong to a group, have snapshots, awaiting a ' +
          'transfer, or be disassociated from snapshots after volume transfer.',
      );
    }
    save(ctx, { ...volume, status: 'deleting', transition: after(ctx, null) });
    return reply.code(202).send();
  });
}
