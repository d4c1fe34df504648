import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError, conflict } from '../errors.js';
import { bodyObject, type Compute, invalidInput, member } from './common.js';
import { atLeast } from './microversion.js';
import { currentPhase } from './server-state.js';
import { findServer } from './server-view.js';

/**
 * POST /servers/{id}/remote-consoles (microversion 2.6; `mks` from 2.8): the sandbox's pretend
 * hypervisor offers a noVNC console only, as a libvirt compute host with VNC does; every other
 * type is Nova's "Unavailable console type".
 */

/** The console types of each protocol, as Nova's request schema has them. */
const TYPES: Record<string, string[]> = {
  vnc: ['novnc', 'xvpvnc'],
  spice: ['spice-html5'],
  rdp: ['rdp-html5'],
  serial: ['serial'],
  mks: ['webmks'],
};
const OFFERED = ['novnc'];

export function registerRemoteConsoles(app: FastifyInstance, compute: Compute): void {
  app.post<{ Params: { id: string } }>('/servers/:id/remote-consoles', async (request) => {
    if (!atLeast(request, 6)) throw new ApiError(404, 'The resource could not be found.');
    const body = member(bodyObject(request), 'remote_console');
    const { protocol, type } = body;
    const protocols = Object.keys(TYPES).filter((p) => p !== 'mks' || atLeast(request, 8));
    if (typeof protocol !== 'string' || !protocols.includes(protocol)) {
      throw invalidInput('protocol', protocol, `is not one of ${JSON.stringify(protocols)}`);
    }
    if (typeof type !== 'string' || !TYPES[protocol]!.includes(type)) {
      throw invalidInput('type', type, `is not one of ${JSON.stringify(TYPES[protocol])}`);
    }
    const server = findServer(compute, request, request.params.id);
    if (currentPhase(server, compute.ctx.now()).status !== 'ACTIVE') {
      throw conflict(`Instance ${server.id} is not ready`);
    }
    if (!OFFERED.includes(type)) throw new ApiError(400, `Unavailable console type ${type}.`);
    const token = randomUUID();
    const url = `${compute.ctx.baseUrl(request)}/compute/vnc_lite.html?path=%3Ftoken%3D${token}`;
    return { remote_console: { protocol, type, url } };
  });
}
