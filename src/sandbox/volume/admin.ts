import type { AdminAction } from '../admin.js';
import type { SandboxContext } from '../app.js';
import { badRequest, notFound } from '../errors.js';
import { metadataField, positiveInteger } from './request.js';
import { currentVolume, save } from './volume-state.js';
import { type Volume, VOLUME } from './types.js';

/**
 * Out-of-band changes to volumes, as if an operator or a failure did them behind the API's back:
 * `POST /admin/volume/<id>/set` and `POST /admin/volume/<id>/delete`.
 */

function existing(ctx: SandboxContext, id: string): Volume {
  const volume = currentVolume(ctx, id);
  if (!volume) throw notFound('Volume', id);
  return volume;
}

export const volumeAdminActions: readonly AdminAction[] = [
  {
    kind: 'volume',
    action: 'set',
    run(ctx, id, body) {
      const volume = existing(ctx, id);
      const changed: Volume = { ...volume };
      if (body.status !== undefined) {
        if (typeof body.status !== 'string' || body.status === '')
          throw badRequest('status must be a string');
        // A status set by hand ends whatever the volume was on its way to.
        Object.assign(changed, { status: body.status, transition: null });
      }
      if (body.size !== undefined) changed.size = positiveInteger(body.size, 'size');
      if (body.name !== undefined) {
        if (body.name !== null && typeof body.name !== 'string')
          throw badRequest('name must be a string or null');
        changed.name = body.name;
      }
      if (body.metadata !== undefined) changed.metadata = metadataField(body.metadata);
      return save(ctx, changed) ?? { ok: true };
    },
  },
  {
    kind: 'volume',
    action: 'delete',
    run(ctx, id) {
      existing(ctx, id);
      // Gone at once, attachments and all: Nova's view of them comes from the volume.
      ctx.state.delete(VOLUME, id);
      return { ok: true };
    },
  },
];
