import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { NicRequest } from '../bindings.js';
import { ApiError, badRequest } from '../errors.js';
import { findImage } from '../image.js';
import { atLeast } from './microversion.js';
import { bodyObject, type Compute, invalidInput, member } from './common.js';
import { findFlavor } from './flavors.js';
import { findKeypair } from './keypairs.js';
import { validMetadata } from './metadata.js';
import { validTags } from './server-tags.js';
import {
  failedBoot,
  initialTimeline,
  SECURITY_GROUP_CANNOT_BE_APPLIED,
  type ServerRecord,
  servers,
} from './server-state.js';

/** POST /servers: Nova's checks, the quota, then the ports and volumes the server is given. */

const MAX_USER_DATA = 65535;
export const AVAILABILITY_ZONE = 'nova';

function requiredString(server: Record<string, unknown>, key: string): string {
  const value = server[key];
  if (value === undefined) throw invalidInput('server', server, `'${key}' is a required property`);
  if (typeof value !== 'string') throw invalidInput(key, value, "is not of type 'string'");
  return value;
}

function parseNetworks(compute: Compute, request: FastifyRequest, given: unknown): NicRequest[] {
  const projectId = request.caller.projectId;
  if (given === undefined) {
    if (atLeast(request, 37)) throw invalidInput('server', {}, "'networks' is a required property");
    const network = compute.ports.defaultNetwork(projectId);
    return network ? [{ networkId: network }] : [];
  }
  if (given === 'none' || given === 'auto') {
    if (!atLeast(request, 37)) throw invalidInput('networks', given, "is not of type 'array'");
    if (given === 'none') return [];
    const network = compute.ports.defaultNetwork(projectId);
    if (!network) throw badRequest(`Unable to automatically allocate a network for project ${projectId}`);
    return [{ networkId: network }];
  }
  if (!Array.isArray(given)) throw invalidInput('networks', given, "is not of type 'array'");
  return given.map((item: unknown) => {
    if (typeof item !== 'object' || item === null)
      throw invalidInput('networks', item, "is not of type 'object'");
    const { uuid, port, fixed_ip: fixedIp } = item as Record<string, unknown>;
    for (const [key, value] of [
      ['uuid', uuid],
      ['port', port],
      ['fixed_ip', fixedIp],
    ] as const) {
      if (value !== undefined && value !== null && typeof value !== 'string') {
        throw invalidInput(key, value, "is not of type 'string'");
      }
    }
    if (typeof port === 'string' && port !== '') return { portId: port };
    if (typeof uuid !== 'string' || uuid === '') {
      throw badRequest('Bad networks format: network uuid is not in proper format ()');
    }
    return { networkId: uuid, ...(typeof fixedIp === 'string' ? { fixedIp } : {}) };
  });
}

interface VolumeMapping {
  volumeId: string;
  device?: string;
  bootIndex: number | null;
}

/** block_device_mapping_v2: the volumes to attach, and the image a local boot disk is made from. */
function parseBlockDevices(given: unknown): {
  volumes: VolumeMapping[];
  bootImage?: string;
  bootsFromVolume: boolean;
} {
  if (given === undefined) return { volumes: [], bootsFromVolume: false };
  if (!Array.isArray(given)) throw invalidInput('block_device_mapping_v2', given, "is not of type 'array'");
  const volumes: VolumeMapping[] = [];
  let bootImage: string | undefined;
  let bootsFromVolume = false;
  for (const item of given as unknown[]) {
    if (typeof item !== 'object' || item === null) {
      throw invalidInput('block_device_mapping_v2', item, "is not of type 'object'");
    }
    const bdm = item as Record<string, unknown>;
    const source = bdm.source_type;
    const destination = bdm.destination_type ?? (source === 'volume' ? 'volume' : 'local');
    const bootIndex = bdm.boot_index === undefined || bdm.boot_index === null ? null : Number(bdm.boot_index);
    const uuid = typeof bdm.uuid === 'string' ? bdm.uuid : undefined;
    if (!['volume', 'image', 'blank', 'snapshot'].includes(String(source))) {
      throw invalidInput('source_type', source, "is not one of ['volume', 'image', 'snapshot', 'blank']");
    }
    if (source === 'volume' && destination === 'volume') {
      if (!uuid) throw badRequest('Block Device Mapping is Invalid: the volume mapping has no uuid.');
      volumes.push({
        volumeId: uuid,
        bootIndex,
        ...(typeof bdm.device_name === 'string'
          ? { device: bdm.device_name }
          : bootIndex === 0
            ? { device: '/dev/vda' }
            : {}),
      });
      if (bootIndex === 0) bootsFromVolume = true;
    } else if (source === 'image' && destination === 'local') {
      if (bootIndex === 0) bootImage = uuid;
    } else if (source === 'blank' && destination === 'local') {
      // An ephemeral or swap disk: nothing the sandbox keeps.
    } else {
      throw badRequest(
        `Block Device Mapping is Invalid: the sandbox cannot make a volume from source_type ${String(source)}; create the volume and map it with source_type volume.`,
      );
    }
  }
  return { volumes, ...(bootImage ? { bootImage } : {}), bootsFromVolume };
}

function userData(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput('user_data', value, "is not of type 'string'");
  if (value.length > MAX_USER_DATA) {
    throw badRequest(
      `User data too large. User data must be no larger than ${MAX_USER_DATA} bytes once base64 encoded. Your data is ${value.length} bytes`,
    );
  }
  const compact = value.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    throw invalidInput('user_data', value, `'${value}' is not a 'base64'`);
  }
  return value;
}

function securityGroups(value: unknown): string[] {
  if (value === undefined) return ['default'];
  if (!Array.isArray(value)) throw invalidInput('security_groups', value, "is not of type 'array'");
  return value.map((group: unknown) => {
    const name = (group as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || name === '') throw invalidInput('name', name, "is not of type 'string'");
    return name;
  });
}

/** Nova's quota check on instances, cores and ram (deleted servers do not count). */
function checkQuota(compute: Compute, projectId: string, vcpus: number, ram: number): void {
  const { quotas } = compute.ctx.noise();
  const live = servers(compute, projectId);
  const used = {
    instances: live.length,
    cores: live.reduce((n, s) => n + s.flavor.vcpus, 0),
    ram: live.reduce((n, s) => n + s.flavor.ram, 0),
  };
  const wanted = { instances: 1, cores: vcpus, ram };
  for (const resource of ['instances', 'cores', 'ram'] as const) {
    const limit = quotas[resource];
    if (limit >= 0 && used[resource] + wanted[resource] > limit) {
      throw new ApiError(
        403,
        `Quota exceeded for ${resource}: Requested ${wanted[resource]}, but already used ${used[resource]} of ${limit} ${resource}`,
      );
    }
  }
}

/** Tags given at create: from 2.52 (before it, an unexpected property). */
function tagsOf(request: FastifyRequest, body: Record<string, unknown>): string[] {
  if (body.tags === undefined) return [];
  if (!atLeast(request, 52)) {
    throw invalidInput('server', body, "Additional properties are not allowed ('tags' was unexpected)");
  }
  return validTags(body.tags);
}

const TRUE = [true, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes', 'yes'];
const FALSE = [false, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off', 'NO', 'No', 'no'];

/** Nova's `return_reservation_id`: a boolean (or one of its strings); true answers the reservation. */
function returnsReservation(server: Record<string, unknown>): boolean {
  const value = server.return_reservation_id;
  if (value === undefined || FALSE.includes(value as string)) return false;
  if (TRUE.includes(value as string)) return true;
  throw invalidInput('return_reservation_id', value, `is not one of ${JSON.stringify([...TRUE, ...FALSE])}`);
}

/** Creates the server; answers what Nova's 202 carries. */
export function createServer(
  compute: Compute,
  request: FastifyRequest,
): { record: ServerRecord; adminPass: string; reservationId?: string } {
  const { ctx } = compute;
  const caller = request.caller;
  const body = member(bodyObject(request), 'server');
  const name = requiredString(body, 'name');
  if (name.length < 1 || name.length > 255) throw invalidInput('name', name, 'is not a valid name');
  const reservation = returnsReservation(body);
  const flavorRef = body.flavorRef;
  if (flavorRef === undefined) throw invalidInput('server', body, "'flavorRef' is a required property");
  const flavor = findFlavor(ctx.state, String(flavorRef));
  if (!flavor) throw badRequest(`Flavor ${String(flavorRef)} could not be found.`);

  const devices = parseBlockDevices(body.block_device_mapping_v2);
  const imageRef =
    body.imageRef === undefined || body.imageRef === null ? (devices.bootImage ?? '') : body.imageRef;
  if (typeof imageRef !== 'string') throw invalidInput('imageRef', imageRef, "is not of type 'string'");
  let imageId = '';
  if (imageRef !== '') {
    const image = findImage(ctx.state, caller.projectId, imageRef.split('/').at(-1)!);
    if (!image) throw badRequest(`Image ${imageRef} could not be found.`);
    if (image.status !== 'active') throw badRequest(`Image ${image.id} is not active.`);
    if (!devices.bootsFromVolume && flavor.disk > 0 && image.min_disk > flavor.disk) {
      throw badRequest(
        `Flavor's disk is too small for requested image. Flavor disk is ${flavor.disk * 2 ** 30} bytes, minimum requested disk is ${image.min_disk * 2 ** 30} bytes.`,
      );
    }
    if (image.min_ram > flavor.ram) throw badRequest("Flavor's memory is too small for requested image.");
    if (!devices.bootsFromVolume) imageId = image.id;
  } else if (!devices.bootsFromVolume) {
    throw badRequest(
      'Block Device Mapping is Invalid: Boot sequence for the instance and image/block device mapping combination is not valid.',
    );
  }

  let keyName: string | null = null;
  if (body.key_name !== undefined && body.key_name !== null) {
    if (typeof body.key_name !== 'string' || !findKeypair(ctx, caller.userId, body.key_name)) {
      throw badRequest('Invalid key_name provided.');
    }
    keyName = body.key_name;
  }
  const zone = body.availability_zone;
  if (zone !== undefined && zone !== null && zone !== AVAILABILITY_ZONE) {
    throw badRequest('The requested availability zone is not available');
  }
  const adminPass =
    typeof body.adminPass === 'string' ? body.adminPass : randomBytes(9).toString('base64url');
  const now = ctx.now();
  const id = randomUUID();
  const record: ServerRecord = {
    id,
    name,
    projectId: caller.projectId,
    userId: caller.userId,
    flavor: {
      id: flavor.id,
      original_name: flavor.name,
      vcpus: flavor.vcpus,
      ram: flavor.ram,
      disk: flavor.disk,
      ephemeral: flavor.ephemeral,
      swap: flavor.swap,
      extra_specs: flavor.extra_specs,
    },
    imageId,
    keyName,
    metadata: body.metadata === undefined ? {} : validMetadata(body.metadata),
    tags: tagsOf(request, body),
    securityGroups: securityGroups(body.security_groups),
    availabilityZone: AVAILABILITY_ZONE,
    userData: userData(body.user_data),
    description: typeof body.description === 'string' && atLeast(request, 19) ? body.description : null,
    accessIPv4: typeof body.accessIPv4 === 'string' ? body.accessIPv4 : '',
    accessIPv6: typeof body.accessIPv6 === 'string' ? body.accessIPv6 : '',
    createdAt: now,
    editedAt: now,
    timeline: initialTimeline(now, ctx.noise(), ctx.random, id),
    ports: [],
    portsReleased: false,
    deletedAt: null,
  };
  const nics = parseNetworks(compute, request, body.networks);
  if (body.security_groups !== undefined) {
    // Resolved through Neutron before anything is made; the ports Nova makes get them.
    const groups = compute.ports.securityGroupIds(caller.projectId, record.securityGroups);
    for (const nic of nics) if (nic.portId === undefined) nic.securityGroups = groups;
  }

  // As Nova's network allocation on the host: a port it would make where Neutron can give it no
  // address fails the build (the API has answered 202), before any port is made or bound.
  const unsecured = nics.find(
    (nic) =>
      nic.portId === undefined && nic.networkId !== undefined && !compute.ports.securable(nic.networkId),
  );
  if (unsecured) {
    const message = `Build of instance ${id} aborted: ${SECURITY_GROUP_CANNOT_BE_APPLIED}`;
    const details = `network ${unsecured.networkId!} has no subnet`;
    record.timeline = failedBoot(now, ctx.noise(), message, details);
  }

  ctx.state.transaction(() => {
    checkQuota(compute, caller.projectId, flavor.vcpus, flavor.ram);
    try {
      for (const nic of unsecured ? [] : nics) {
        const { portId } = compute.ports.bind(caller.projectId, id, nic);
        record.ports.push({ portId, networkId: nic.networkId ?? null });
      }
      for (const volume of devices.volumes) {
        compute.volumes.attach(caller.projectId, volume.volumeId, id, volume.device);
      }
    } catch (error) {
      // Whatever was bound before the failure is given back (a fake binder keeps no transaction).
      compute.volumes.detachAll(id);
      compute.ports.unbindAll(id);
      throw error;
    }
    ctx.state.put('server', caller.projectId, record);
  });
  // Asked for, the answer is the reservation's id only (Nova's multiple-create form).
  const reservationId = reservation ? `r-${randomBytes(6).toString('hex').slice(0, 8)}` : undefined;
  return { record, adminPass, ...(reservationId ? { reservationId } : {}) };
}
