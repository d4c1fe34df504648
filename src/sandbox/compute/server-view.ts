import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import { atLeast } from './microversion.js';
import { type Compute, isAdmin, isoTime, links } from './common.js';
import { currentPhase, launchedAt, type ServerRecord, settle, statesOf, updatedAt } from './server-state.js';

/** How Nova shows a server: its full view (GET /servers/{id}, /servers/detail) and its short one. */

/** The one (pretend) hypervisor every server runs on. */
export const HOST = 'sandbox-compute-1';

/** A server the caller may see (its project's; any, for admins) that is not deleted; else Nova's 404. */
export function findServer(compute: Compute, request: FastifyRequest, id: string): ServerRecord {
  const stored = compute.ctx.state.get<ServerRecord>('server', id);
  const visible = stored && (stored.projectId === request.caller.projectId || isAdmin(request.caller));
  const server = visible ? settle(compute, stored) : undefined;
  if (!server || server.deletedAt !== null) throw notFound('Instance', id);
  return server;
}

/** Nova's launched_at format: microseconds, no zone. */
const usageTime = (ms: number) => new Date(ms).toISOString().replace('Z', '000');

function flavorView(compute: Compute, request: FastifyRequest, server: ServerRecord) {
  const { flavor } = server;
  if (!atLeast(request, 47)) {
    const href = `${compute.ctx.baseUrl(request)}/compute/flavors/${flavor.id}`;
    return { id: flavor.id, links: [{ rel: 'bookmark', href }] };
  }
  return {
    vcpus: flavor.vcpus,
    ram: flavor.ram,
    disk: flavor.disk,
    ephemeral: flavor.ephemeral,
    swap: flavor.swap,
    original_name: flavor.original_name,
    extra_specs: flavor.extra_specs,
  };
}

export function shortView(compute: Compute, request: FastifyRequest, server: ServerRecord) {
  return { id: server.id, name: server.name, links: links(compute.ctx, request, 'servers', server.id) };
}

export function detailView(compute: Compute, request: FastifyRequest, server: ServerRecord) {
  const now = compute.ctx.now();
  const phase = currentPhase(server, now);
  const states = statesOf(phase.status);
  const admin = isAdmin(request.caller);
  const scheduled = phase.status !== 'BUILD' && !phase.releasesPorts;
  const launched = launchedAt(server, now);
  const view: Record<string, unknown> = {
    id: server.id,
    name: server.name,
    status: phase.status,
    tenant_id: server.projectId,
    user_id: server.userId,
    metadata: server.metadata,
    hostId: scheduled
      ? createHash('sha224')
          .update(server.projectId + HOST)
          .digest('hex')
      : '',
    image: server.imageId
      ? {
          id: server.imageId,
          links: [
            { rel: 'bookmark', href: `${compute.ctx.baseUrl(request)}/compute/images/${server.imageId}` },
          ],
        }
      : '',
    flavor: flavorView(compute, request, server),
    created: isoTime(server.createdAt),
    updated: isoTime(updatedAt(server, now)),
    addresses: server.portsReleased || server.deletedAt !== null ? {} : compute.ports.addresses(server.id),
    accessIPv4: server.accessIPv4,
    accessIPv6: server.accessIPv6,
    links: links(compute.ctx, request, 'servers', server.id),
    'OS-DCF:diskConfig': 'MANUAL',
    'OS-EXT-AZ:availability_zone': scheduled ? server.availabilityZone : '',
    config_drive: '',
    key_name: server.keyName,
    'OS-SRV-USG:launched_at': launched === null ? null : usageTime(launched),
    'OS-SRV-USG:terminated_at': server.deletedAt === null ? null : usageTime(server.deletedAt),
    'OS-EXT-STS:task_state': states.task,
    'OS-EXT-STS:vm_state': states.vm,
    'OS-EXT-STS:power_state': states.power,
    'os-extended-volumes:volumes_attached': compute.volumes
      .attachmentsOf(server.id)
      .map((a) =>
        atLeast(request, 3) ? { id: a.volumeId, delete_on_termination: false } : { id: a.volumeId },
      ),
  };
  // As Nova: the groups of the server's Neutron ports, by name; none, no key.
  const groups =
    server.portsReleased || server.deletedAt !== null ? [] : compute.ports.securityGroupNames(server.id);
  if (groups.length > 0) view.security_groups = groups.map((name) => ({ name }));
  if (['ACTIVE', 'BUILD'].includes(phase.status)) view.progress = 0;
  if (admin) {
    Object.assign(view, {
      'OS-EXT-SRV-ATTR:host': scheduled ? HOST : null,
      'OS-EXT-SRV-ATTR:hypervisor_hostname': scheduled ? HOST : null,
      'OS-EXT-SRV-ATTR:instance_name': `instance-${server.id.slice(0, 8)}`,
    });
  }
  if (atLeast(request, 9)) view.locked = false;
  if (atLeast(request, 16) && admin) view.host_status = scheduled ? 'UP' : '';
  if (atLeast(request, 19)) view.description = server.description;
  if (atLeast(request, 26)) view.tags = server.tags ?? [];
  if (atLeast(request, 63)) view.trusted_image_certificates = null;
  if (atLeast(request, 71)) view.server_groups = [];
  if (atLeast(request, 73)) view.locked_reason = null;
  if (atLeast(request, 96)) view.pinned_availability_zone = null;
  if (phase.fault) {
    const { code, message, details, created } = phase.fault;
    view.fault = { code, created: isoTime(created), message, ...(admin ? { details } : {}) };
  }
  return view;
}
