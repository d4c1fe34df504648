import type { FastifyInstance } from 'fastify';
import { adminService } from '../../src/sandbox/admin.js';
import { buildSandbox, type SandboxContext } from '../../src/sandbox/app.js';
import type {
  NicRequest,
  PortBinder,
  ServerAddress,
  VolumeAttachment,
  VolumeBinder,
} from '../../src/sandbox/bindings.js';
import { computeAdminActions, computeService } from '../../src/sandbox/compute/index.js';
import { ApiError } from '../../src/sandbox/errors.js';
import { identityService, seedIdentity, tokenResolver } from '../../src/sandbox/identity.js';
import { imageService } from '../../src/sandbox/image.js';
import { SandboxState } from '../../src/sandbox/state.js';
import { login } from './support.js';

/** Small fakes of Neutron and Cinder as Nova sees them, recording what Nova asked of them. */

export const NETWORK_ID = '11111111-2222-3333-4444-555555555555';

export class FakePorts implements PortBinder {
  readonly calls: string[] = [];
  readonly networks = new Map<string, string>([[NETWORK_ID, 'private']]);
  /** Pre-made ports a request may name (port id -> network id), unbound. */
  readonly freePorts = new Map<string, string>();
  readonly bound = new Map<
    string,
    { portId: string; networkId: string; ip: string; mac: string; made: boolean; groups: string[] }[]
  >();
  defaultNetworkId: string | undefined = NETWORK_ID;
  /** Networks with port security and no subnet yet: Nova cannot make a port there. */
  readonly subnetless = new Set<string>();
  private next = 10;

  bind(projectId: string, serverId: string, nic: NicRequest) {
    this.calls.push(`bind ${serverId} ${JSON.stringify(nic)}`);
    let networkId: string;
    let portId: string;
    let made = false;
    if (nic.portId !== undefined) {
      const network = this.freePorts.get(nic.portId);
      if (network === undefined) throw new ApiError(404, `Port id ${nic.portId} could not be found.`);
      this.freePorts.delete(nic.portId);
      [networkId, portId] = [network, nic.portId];
    } else {
      if (!this.networks.has(nic.networkId ?? ''))
        throw new ApiError(400, `Network ${nic.networkId} could not be found.`);
      [networkId, portId, made] = [nic.networkId!, `port-${this.next}`, true];
    }
    const n = this.next++;
    const list = this.bound.get(serverId) ?? [];
    list.push({
      portId,
      networkId,
      ip: nic.fixedIp ?? `10.0.0.${n}`,
      mac: `fa:16:3e:00:00:${n.toString(16).padStart(2, '0')}`,
      made,
      groups: nic.securityGroups ?? ['default'],
    });
    this.bound.set(serverId, list);
    void projectId;
    return { portId };
  }
  unbind(serverId: string, portId: string) {
    this.calls.push(`unbind ${serverId} ${portId}`);
    const list = this.bound.get(serverId) ?? [];
    const port = list.find((p) => p.portId === portId);
    if (!port) throw new ApiError(404, `Port ${portId} could not be found.`);
    if (!port.made) this.freePorts.set(port.portId, port.networkId);
    this.bound.set(
      serverId,
      list.filter((p) => p !== port),
    );
  }
  unbindAll(serverId: string) {
    this.calls.push(`unbindAll ${serverId}`);
    for (const port of this.bound.get(serverId) ?? [])
      if (!port.made) this.freePorts.set(port.portId, port.networkId);
    this.bound.delete(serverId);
  }
  addresses(serverId: string) {
    const result: Record<string, ServerAddress[]> = {};
    for (const port of this.bound.get(serverId) ?? []) {
      const name = this.networks.get(port.networkId)!;
      (result[name] ??= []).push({
        addr: port.ip,
        version: 4,
        'OS-EXT-IPS:type': 'fixed',
        'OS-EXT-IPS-MAC:mac_addr': port.mac,
      });
    }
    return result;
  }
  securable(networkId: string) {
    return !this.subnetless.has(networkId);
  }
  defaultNetwork() {
    return this.defaultNetworkId;
  }
  /** Groups are named by themselves here: a name is its id. */
  securityGroupIds(_projectId: string, refs: readonly string[]) {
    this.calls.push(`securityGroupIds ${refs.join(',')}`);
    const missing = refs.find((ref) => ref.startsWith('missing'));
    if (missing !== undefined) throw new ApiError(400, `Security group ${missing} not found.`);
    return [...refs];
  }
  securityGroupNames(serverId: string) {
    return [...new Set((this.bound.get(serverId) ?? []).flatMap((p) => p.groups))];
  }
}

export class FakeVolumes implements VolumeBinder {
  readonly calls: string[] = [];
  /** volume id -> status */
  readonly volumes = new Map<string, string>();
  readonly attachments: VolumeAttachment[] = [];

  attach(projectId: string, volumeId: string, serverId: string, device?: string) {
    this.calls.push(`attach ${volumeId} ${serverId} ${device ?? ''}`);
    const status = this.volumes.get(volumeId);
    if (status === undefined) throw new ApiError(404, `Volume ${volumeId} could not be found.`);
    if (status !== 'available')
      throw new ApiError(400, `Invalid volume: volume ${volumeId} status must be available`);
    void projectId;
    const used = this.attachments.filter((a) => a.serverId === serverId).length;
    const attachment = {
      id: `att-${volumeId}`,
      volumeId,
      serverId,
      device: device ?? `/dev/vd${String.fromCharCode(98 + used)}`,
    };
    this.attachments.push(attachment);
    this.volumes.set(volumeId, 'in-use');
    return attachment;
  }
  detach(_projectId: string, volumeId: string, serverId: string) {
    this.calls.push(`detach ${volumeId} ${serverId}`);
    const at = this.attachments.findIndex((a) => a.volumeId === volumeId && a.serverId === serverId);
    if (at < 0) throw new ApiError(404, `Volume ${volumeId} is not attached to ${serverId}`);
    this.attachments.splice(at, 1);
    this.volumes.set(volumeId, 'available');
  }
  attachmentsOf(serverId: string) {
    return this.attachments.filter((a) => a.serverId === serverId);
  }
  detachAll(serverId: string) {
    this.calls.push(`detachAll ${serverId}`);
    for (const a of this.attachmentsOf(serverId)) this.detach('', a.volumeId, serverId);
  }
}

export interface ComputeRig {
  app: FastifyInstance;
  ctx: SandboxContext;
  ports: FakePorts;
  volumes: FakeVolumes;
  clock: { now: number };
  /** X-Auth-Token headers for `demo` (member) and `admin`. */
  demo: Record<string, string>;
  admin: Record<string, string>;
}

/** A sandbox of identity, images and compute (with the fakes), on a fake clock. */
export async function computeRig(
  options: { noise?: unknown; random?: () => number } = {},
): Promise<ComputeRig> {
  const clock = { now: Date.parse('2025-01-01T00:00:00Z') };
  const ports = new FakePorts();
  const volumes = new FakeVolumes();
  const state = new SandboxState();
  seedIdentity(state);
  const { app, ctx } = buildSandbox({
    state,
    services: [
      identityService,
      imageService,
      computeService({ ports, volumes }),
      adminService(computeAdminActions({ ports, volumes })),
    ],
    tokens: tokenResolver,
    now: () => clock.now,
    ...(options.noise !== undefined ? { noise: options.noise } : {}),
    ...(options.random ? { random: options.random } : {}),
  });
  app.addHook('onClose', async () => state.close());
  await app.ready();
  const token = async (name: string) => ({ 'x-auth-token': (await login(app, name)).token });
  return { app, ctx, ports, volumes, clock, demo: await token('demo'), admin: await token('admin') };
}

/** Request helpers shared by the compute tests. */
export const json = { 'content-type': 'application/json' };
export const v = (minor: number) => ({ 'OpenStack-API-Version': `compute 2.${minor}` });

export async function boot(rig: ComputeRig, server: Record<string, unknown>, headers = rig.demo) {
  return rig.app.inject({
    method: 'POST',
    url: '/compute/v2.1/servers',
    headers: { ...headers, ...json },
    payload: { server: { flavorRef: '1', imageRef: 'cirros-0.6.2-x86_64-disk', ...server } },
  });
}
export async function show(rig: ComputeRig, id: string, headers: Record<string, string> = rig.demo) {
  return rig.app.inject({ method: 'GET', url: `/compute/v2.1/servers/${id}`, headers });
}
export async function status(rig: ComputeRig, id: string) {
  return (await show(rig, id)).json().server.status as string;
}
