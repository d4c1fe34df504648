import { randomUUID } from 'node:crypto';
import type { SandboxContext } from '../app.js';
import type { VolumeAttachment, VolumeBinder } from '../bindings.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { cinderTime, type Volume } from './types.js';
import { currentVolume, projectVolume, projectVolumes, save } from './volume-state.js';

/**
 * The VolumeBinder Nova's module is given: attachments live in the volumes (Cinder's record of
 * them), so Nova's os-volume_attachments and Cinder's volume `attachments` always agree.
 */

const attachmentOf = (volume: Volume, serverId: string) =>
  volume.attachments.find((a) => a.server_id === serverId);

function view(volume: Volume, serverId: string): VolumeAttachment {
  const a = attachmentOf(volume, serverId)!;
  return { id: a.attachment_id, volumeId: volume.id, serverId, device: a.device };
}

/** Every volume attached to the server (any project's: a server has one project). */
function attachedTo(ctx: SandboxContext, serverId: string): Volume[] {
  return projectVolumes(ctx, undefined).filter((vol) => attachmentOf(vol, serverId));
}

/** The first free `/dev/vdX` of the server after its root disk `/dev/vda`. */
function nextDevice(used: Set<string>): string {
  for (let c = 'b'.charCodeAt(0); c <= 'z'.charCodeAt(0); c++) {
    const device = `/dev/vd${String.fromCharCode(c)}`;
    if (!used.has(device)) return device;
  }
  throw badRequest('No free device name left on the server.');
}

/** Drops the server's attachment from the volume; the last one leaves it available. */
function release(ctx: SandboxContext, volume: Volume, serverId: string): void {
  const attachments = volume.attachments.filter((a) => a.server_id !== serverId);
  const free = attachments.length === 0;
  const status = free && volume.status === 'in-use' ? 'available' : volume.status;
  // An in-use extend under way ends available once nothing is attached any more.
  const transition =
    free && volume.transition?.to === 'in-use'
      ? { ...volume.transition, to: 'available' }
      : volume.transition;
  save(ctx, { ...volume, attachments, status, transition });
}

export function volumeAttachments(ctx: SandboxContext): VolumeBinder {
  return {
    attach(projectId, volumeId, serverId, device) {
      return ctx.state.transaction(() => {
        const volume = projectVolume(ctx, projectId, volumeId);
        if (attachmentOf(volume, serverId)) {
          throw badRequest(`Invalid volume: volume ${volumeId} is already attached to server ${serverId}.`);
        }
        const shareable = volume.multiattach && volume.status === 'in-use';
        if (volume.status !== 'available' && !shareable) {
          throw badRequest(
            `Invalid volume: volume ${volumeId} status must be 'available'. Currently in '${volume.status}'`,
          );
        }
        const used = new Set(attachedTo(ctx, serverId).map((vol) => attachmentOf(vol, serverId)!.device));
        if (device !== undefined && used.has(device)) {
          throw badRequest(`The supplied device path (${device}) is in use.`);
        }
        const chosen = device ?? nextDevice(used);
        const attachment = {
          attachment_id: randomUUID(),
          server_id: serverId,
          device: chosen,
          attached_at: cinderTime(ctx.now()),
          host_name: null,
        };
        const saved = save(ctx, {
          ...volume,
          status: 'in-use',
          attachments: [...volume.attachments, attachment],
        });
        if (!saved) throw new ApiError(500, `volume ${volumeId} vanished while attaching`);
        return view(saved, serverId);
      });
    },
    detach(projectId, volumeId, serverId) {
      ctx.state.transaction(() => {
        const volume = currentVolume(ctx, volumeId);
        if (!volume || volume.project_id !== projectId || !attachmentOf(volume, serverId)) {
          throw notFound(`Volume ${volumeId} attached to server`, serverId);
        }
        release(ctx, volume, serverId);
      });
    },
    attachmentsOf(serverId) {
      return attachedTo(ctx, serverId)
        .map((vol) => view(vol, serverId))
        .sort((a, b) => a.device.localeCompare(b.device));
    },
    detachAll(serverId) {
      ctx.state.transaction(() => {
        for (const volume of attachedTo(ctx, serverId)) release(ctx, volume, serverId);
      });
    },
  };
}
