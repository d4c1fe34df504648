import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, conflict, notFound } from '../errors.js';
import type { NicRequest } from '../bindings.js';
import { bodyObject, type Compute, invalidInput, member } from './common.js';
import {
  currentPhase,
  SECURITY_GROUP_CANNOT_BE_APPLIED,
  type ServerRecord,
  statesOf,
} from './server-state.js';
import { findServer } from './server-view.js';

/**
 * /servers/{id}/os-interface: the server's ports, and attaching and detaching one (an existing
 * port of the server's project, or a new one on a network it may use), through Neutron.
 */

/** Statuses an interface may be attached in or detached from. */
const ATTACHABLE = ['ACTIVE', 'SHUTOFF', 'PAUSED', 'SUSPENDED'];

/**
 * The server's ports as os-interface shows them. The addresses come grouped by network in the
 * order the ports were bound, each with its port's MAC: the n-th MAC seen is the n-th port.
 */
function interfaces(compute: Compute, server: ServerRecord) {
  const addresses = server.portsReleased ? {} : compute.ports.addresses(server.id);
  const macs: string[] = [];
  const ipsByMac = new Map<string, string[]>();
  for (const list of Object.values(addresses)) {
    for (const address of list) {
      if (address['OS-EXT-IPS:type'] !== 'fixed') continue;
      const mac = address['OS-EXT-IPS-MAC:mac_addr'];
      if (!ipsByMac.has(mac)) {
        macs.push(mac);
        ipsByMac.set(mac, []);
      }
      ipsByMac.get(mac)!.push(address.addr);
    }
  }
  if (server.portsReleased) return [];
  return server.ports.map((port, index) => {
    const mac = macs[index] ?? '';
    return {
      port_state: 'ACTIVE',
      fixed_ips: (ipsByMac.get(mac) ?? []).map((ip) => ({ ip_address: ip })),
      port_id: port.portId,
      net_id: port.networkId ?? '',
      mac_addr: mac,
    };
  });
}

/**
 * The attach request as a NIC: `port_id`, or `net_id` with an optional first `fixed_ips` address,
 * or neither (the project's one network).
 */
function nicOf(compute: Compute, request: FastifyRequest, projectId: string): NicRequest {
  const body = member(bodyObject(request), 'interfaceAttachment');
  const { port_id: portId, net_id: networkId, fixed_ips: fixedIps } = body;
  if (portId !== undefined && portId !== null) {
    if (typeof portId !== 'string') throw invalidInput('port_id', portId, "is not of type 'string'");
    return { portId };
  }
  if (networkId === undefined || networkId === null) {
    // Neither: Nova finds the network, as for a server created with networks "auto".
    const network = compute.ports.defaultNetwork(projectId);
    if (!network) {
      throw conflict('Multiple possible networks found, use a Network ID to be more specific.');
    }
    return { networkId: network };
  }
  if (typeof networkId !== 'string') throw invalidInput('net_id', networkId, "is not of type 'string'");
  if (fixedIps === undefined || fixedIps === null) return { networkId };
  const first = Array.isArray(fixedIps) ? (fixedIps[0] as { ip_address?: unknown } | undefined) : undefined;
  if (typeof first?.ip_address !== 'string') {
    throw invalidInput('fixed_ips', fixedIps, "is not a list of {'ip_address': ...}");
  }
  return { networkId, fixedIp: first.ip_address };
}

export function registerInterfaces(app: FastifyInstance, compute: Compute): void {
  type ById = { Params: { id: string } };
  type ByPort = { Params: { id: string; portId: string } };
  const guard = (request: FastifyRequest, id: string, what: string) => {
    const server = findServer(compute, request, id);
    const status = currentPhase(server, compute.ctx.now()).status;
    if (server.portsReleased || !ATTACHABLE.includes(status)) {
      throw conflict(`Cannot '${what}' instance ${server.id} while it is in vm_state ${statesOf(status).vm}`);
    }
    return server;
  };

  app.get<ById>('/servers/:id/os-interface', async (request) => ({
    interfaceAttachments: interfaces(compute, findServer(compute, request, request.params.id)),
  }));
  app.get<ByPort>('/servers/:id/os-interface/:portId', async (request) => {
    const found = interfaces(compute, findServer(compute, request, request.params.id)).find(
      (i) => i.port_id === request.params.portId,
    );
    if (!found) throw notFound('Port', request.params.portId);
    return { interfaceAttachment: found };
  });
  app.post<ById>('/servers/:id/os-interface', async (request) => {
    const server = guard(request, request.params.id, 'attach_interface');
    const nic = nicOf(compute, request, server.projectId);
    if (nic.portId === undefined && nic.networkId !== undefined && !compute.ports.securable(nic.networkId)) {
      throw badRequest(SECURITY_GROUP_CANNOT_BE_APPLIED);
    }
    // The server's project's port or network: another project's is Neutron's "not found".
    const { portId } = compute.ports.bind(server.projectId, server.id, nic);
    const ports = [...server.ports, { portId, networkId: nic.networkId ?? null }];
    const saved = compute.ctx.state.put<ServerRecord>('server', server.projectId, { ...server, ports });
    return { interfaceAttachment: interfaces(compute, saved).find((i) => i.port_id === portId) };
  });
  app.delete<ByPort>('/servers/:id/os-interface/:portId', async (request, reply) => {
    const server = guard(request, request.params.id, 'detach_interface');
    const { portId } = request.params;
    if (!server.ports.some((p) => p.portId === portId)) {
      throw notFound(`Port ${portId} is not attached to instance ${server.id}; port`, portId);
    }
    compute.ports.unbind(server.id, portId);
    const ports = server.ports.filter((p) => p.portId !== portId);
    compute.ctx.state.put<ServerRecord>('server', server.projectId, { ...server, ports });
    return reply.code(202).send();
  });
}
