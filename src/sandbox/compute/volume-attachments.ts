import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VolumeAttachment } from '../bindings.js';
import { ApiError, conflict } from '../errors.js';
import { atLeast } from './microversion.js';
import { bodyObject, type Compute, invalidInput, member } from './common.js';
import { currentPhase, statesOf } from './server-state.js';
import { findServer } from './server-view.js';

/** /servers/{id}/os-volume_attachments: attaching and detaching volumes, through Cinder. */

/** Statuses a volume may be attached in or detached from. */
const ATTACHABLE = ['ACTIVE', 'SHUTOFF', 'PAUSED', 'SUSPENDED'];

function view(request: FastifyRequest, attachment: VolumeAttachment) {
  const shown: Record<string, unknown> = {
    device: attachment.device,
    serverId: attachment.serverId,
    volumeId: attachment.volumeId,
  };
  if (!atLeast(request, 89)) shown.id = attachment.volumeId;
  if (atLeast(request, 70)) shown.tag = null;
  if (atLeast(request, 79)) shown.delete_on_termination = false;
  if (atLeast(request, 89)) {
    shown.attachment_id = attachment.id;
    shown.bdm_uuid = attachment.id;
  }
  return shown;
}

export function registerVolumeAttachments(app: FastifyInstance, compute: Compute): void {
  type ById = { Params: { id: string } };
  type ByVolume = { Params: { id: string; volumeId: string } };
  const guard = (request: FastifyRequest, id: string, what: string) => {
    const server = findServer(compute, request, id);
    const status = currentPhase(server, compute.ctx.now()).status;
    if (!ATTACHABLE.includes(status)) {
      throw conflict(`Cannot '${what}' instance ${server.id} while it is in vm_state ${statesOf(status).vm}`);
    }
    return server;
  };
  const attachment = (request: FastifyRequest, serverId: string, volumeId: string) => {
    const found = compute.volumes.attachmentsOf(serverId).find((a) => a.volumeId === volumeId);
    if (!found) throw new ApiError(404, `Volume ${volumeId} is not attached to instance ${serverId}.`);
    return found;
  };

  app.get<ById>('/servers/:id/os-volume_attachments', async (request) => {
    const server = findServer(compute, request, request.params.id);
    return { volumeAttachments: compute.volumes.attachmentsOf(server.id).map((a) => view(request, a)) };
  });
  app.get<ByVolume>('/servers/:id/os-volume_attachments/:volumeId', async (request) => {
    const server = findServer(compute, request, request.params.id);
    return { volumeAttachment: view(request, attachment(request, server.id, request.params.volumeId)) };
  });
  app.post<ById>('/servers/:id/os-volume_attachments', async (request) => {
    const server = guard(request, request.params.id, 'attach_volume');
    const body = member(bodyObject(request), 'volumeAttachment');
    const { volumeId, device } = body;
    if (typeof volumeId !== 'string' || volumeId === '') {
      throw invalidInput('volumeAttachment', body, "'volumeId' is a required property");
    }
    if (device !== undefined && device !== null && typeof device !== 'string') {
      throw invalidInput('device', device, "is not of type 'string'");
    }
    if (compute.volumes.attachmentsOf(server.id).some((a) => a.volumeId === volumeId)) {
      throw new ApiError(
        400,
        `Invalid volume: volume ${volumeId} is already attached to instance ${server.id}`,
      );
    }
    // The server's project's volume: the caller's own, or any project's server for an admin.
    const made = compute.volumes.attach(
      server.projectId,
      volumeId,
      server.id,
      typeof device === 'string' ? device : undefined,
    );
    return { volumeAttachment: view(request, made) };
  });
  app.delete<ByVolume>('/servers/:id/os-volume_attachments/:volumeId', async (request, reply) => {
    const server = guard(request, request.params.id, 'detach_volume');
    attachment(request, server.id, request.params.volumeId);
    compute.volumes.detach(server.projectId, request.params.volumeId, server.id);
    return reply.code(202).send();
  });
}
