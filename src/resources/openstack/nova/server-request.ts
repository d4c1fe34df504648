import type { Cloud } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { type JsonObject, pyJsonDumps } from '../../../util/json.js';
import { type PluginContext, ResourceFailure } from '../../contract.js';
import { buildUserData } from '../../server-agent/user-data.js';
import { KEY_ITEM } from './compute.js';

/**
 * The body of Nova's `POST /servers` for an OS::Nova::Server: names resolved to ids (image
 * through Glance, flavor through Nova, networks, subnets and ports through Neutron), user data
 * base64-encoded, metadata serialized as Heat does, block devices in Nova's v2 form.
 */

type Entry = Record<string, Value>;

/** A `networks` entry's network id and, for an entry naming a port, the port's id. */
export type Nic = { network: string | null; port: string | null };

/** What a create resolved, kept in the resource's data (getReality maps ids back to the template's refs). */
export interface Resolved extends JsonObject {
  flavorId: string;
  flavorName: string;
  imageId: string | null;
  /** Where each `networks` entry landed, in order (an "auto"/"none" entry: nulls). */
  nics: Nic[];
}

const given = (value: Value | undefined): value is Value => value !== null && value !== undefined;
const text = (value: Value | undefined): string | undefined => (given(value) ? String(value) : undefined);

/** Heat's meta_serialize: values that are not strings are sent as JSON. */
export function serializeMetadata(metadata: Value | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((metadata ?? {}) as JsonObject)) {
    out[key] = typeof value === 'string' ? value : pyJsonDumps(value);
  }
  return out;
}

/** The metadata Nova keeps: the template's, and the create's key (see KEY_ITEM). */
export function withKey(metadata: Value | undefined, key: string): Record<string, string> {
  return { ...serializeMetadata(metadata), [KEY_ITEM]: key };
}

export async function resolveImage(cloud: Cloud, ref: string): Promise<string> {
  return (await cloud.findByNameOrId('image', '/images', 'images', ref)).id;
}

async function resolveFlavor(cloud: Cloud, ref: string): Promise<{ id: string; name: string }> {
  const found = await cloud.findByNameOrId('compute', '/flavors', 'flavors', ref);
  return { id: found.id, name: String(found.name) };
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * The user data as Nova wants it (base64), as Heat's build_userdata makes it: RAW as given; the
 * other formats a MIME message for cloud-init (server-agent/user-data.ts), SOFTWARE_CONFIG's with
 * the boot-time metadata. RAW and SOFTWARE_CONFIG data naming a software config by id is that
 * config, as in Heat.
 */
async function userData(
  ctx: PluginContext,
  properties: Record<string, Value>,
  bootMetadata: JsonObject | undefined,
): Promise<string | undefined> {
  let content = text(properties.user_data) ?? '';
  const format = String(properties.user_data_format ?? 'HEAT_CFNTOOLS');
  if ((format === 'RAW' || format === 'SOFTWARE_CONFIG') && UUID.test(content)) {
    const config = await ctx.softwareConfig(content);
    if (config) content = typeof config.config === 'string' ? config.config : pyJsonDumps(config.config);
  }
  content = buildUserData(format, content, bootMetadata, `user-data:${ctx.idempotencyKey}`, ctx.cfnUrl?.());
  return content === '' ? undefined : Buffer.from(content, 'utf8').toString('base64');
}

/** One `networks` entry as a Nova NIC, and the network it is on. */
async function nic(cloud: Cloud, entry: Entry): Promise<{ request: JsonObject; nic: Nic }> {
  const tag = text(entry.tag);
  const tagged = (request: JsonObject) => (tag === undefined ? request : { ...request, tag });
  const port = text(entry.port);
  if (port !== undefined) {
    const found = await cloud.findByNameOrId('network', '/ports', 'ports', port);
    return {
      request: tagged({ port: found.id }),
      nic: { network: String(found.network_id), port: found.id },
    };
  }
  const network = text(entry.network ?? entry.uuid);
  let networkId =
    network === undefined
      ? undefined
      : (await cloud.findByNameOrId('network', '/networks', 'networks', network)).id;
  const subnet = text(entry.subnet);
  if (subnet !== undefined) {
    // Nova is given the subnet's network (and the fixed IP, if any); see docs/openstack.md.
    const found = await cloud.findByNameOrId('network', '/subnets', 'subnets', subnet);
    if (networkId !== undefined && found.network_id !== networkId) {
      throw new ResourceFailure(`Specified subnet ${subnet} does not belongs to network ${network}.`);
    }
    networkId = String(found.network_id);
  }
  const fixedIp = text(entry.fixed_ip);
  return {
    request: tagged({ uuid: networkId!, ...(fixedIp === undefined ? {} : { fixed_ip: fixedIp }) }),
    nic: { network: networkId!, port: null },
  };
}

async function networks(
  cloud: Cloud,
  entries: Value | undefined,
): Promise<{ request: JsonObject[] | string; nics: Nic[] }> {
  const list = (entries ?? []) as Entry[];
  // No networks: Nova's own choice (the project's network), as "auto" says since 2.37.
  if (list.length === 0) return { request: 'auto', nics: [] };
  const allocate = list.find((entry) => given(entry.allocate_network));
  if (allocate) return { request: String(allocate.allocate_network), nics: [{ network: null, port: null }] };
  const request: JsonObject[] = [];
  const nics: Nic[] = [];
  for (const entry of list) {
    const made = await nic(cloud, entry);
    request.push(made.request);
    nics.push(made.nic);
  }
  return { request, nics };
}

const V2_EXTRAS = ['device_type', 'disk_bus', 'boot_index', 'volume_size', 'delete_on_termination'] as const;

/** Heat's _build_block_device_mapping_v2: the source decides the type; given extras override. */
async function blockDevicesV2(cloud: Cloud, mappings: Entry[]): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for (const m of mappings) {
    const bootable = (uuid: string, source: string): JsonObject => ({
      uuid,
      source_type: source,
      destination_type: 'volume',
      boot_index: 0,
      delete_on_termination: false,
    });
    const image = text(m.image ?? m.image_id);
    let device: JsonObject;
    if (given(m.volume_id)) device = bootable(String(m.volume_id), 'volume');
    else if (given(m.snapshot_id)) device = bootable(String(m.snapshot_id), 'snapshot');
    else if (image !== undefined) device = bootable(await resolveImage(cloud, image), 'image');
    else if (given(m.swap_size)) {
      device = {
        source_type: 'blank',
        destination_type: 'local',
        boot_index: -1,
        delete_on_termination: true,
        guest_format: 'swap',
        volume_size: m.swap_size as number,
      };
    } else if (given(m.ephemeral_size) || given(m.ephemeral_format)) {
      device = {
        source_type: 'blank',
        destination_type: 'local',
        boot_index: -1,
        delete_on_termination: true,
      };
      if (given(m.ephemeral_size)) device.volume_size = m.ephemeral_size as number;
      if (given(m.ephemeral_format)) device.guest_format = m.ephemeral_format as string;
    } else continue;
    if (given(m.device_name) && m.device_name !== '') device.device_name = m.device_name as string;
    for (const key of V2_EXTRAS) if (given(m[key])) device[key] = m[key] as JsonObject[string];
    out.push(device);
  }
  return out;
}

/** The older block_device_mapping in v2 form, as Nova converts it: the `vda` device is the root. */
function blockDevicesV1(mappings: Entry[]): JsonObject[] {
  return mappings.map((m) => {
    const snapshot = text(m.snapshot_id);
    const device: JsonObject = {
      uuid: snapshot ?? text(m.volume_id) ?? '',
      source_type: snapshot === undefined ? 'volume' : 'snapshot',
      destination_type: 'volume',
      device_name: String(m.device_name),
      boot_index: String(m.device_name).replace(/^\/dev\//, '') === 'vda' ? 0 : -1,
      delete_on_termination: m.delete_on_termination === true,
    };
    if (given(m.volume_size)) device.volume_size = m.volume_size as number;
    return device;
  });
}

/** The create request's body, and what was resolved to build it. */
export async function serverRequest(
  ctx: PluginContext,
  properties: Record<string, Value>,
  name: string,
  bootMetadata?: JsonObject,
): Promise<{ body: JsonObject; resolved: Resolved }> {
  const cloud = ctx.openstack();
  const flavor = await resolveFlavor(cloud, String(properties.flavor));
  const imageRef = text(properties.image);
  const imageId = imageRef === undefined ? null : await resolveImage(cloud, imageRef);
  const nets = await networks(cloud, properties.networks);
  const v1 = (properties.block_device_mapping ?? []) as Entry[];
  const v2 = (properties.block_device_mapping_v2 ?? []) as Entry[];
  const devices = v1.length > 0 ? blockDevicesV1(v1) : await blockDevicesV2(cloud, v2);
  const data = await userData(ctx, properties, bootMetadata);
  const groups = (properties.security_groups ?? []) as string[];
  const server: JsonObject = {
    name,
    flavorRef: flavor.id,
    ...(imageId === null ? {} : { imageRef: imageId }),
    metadata: withKey(properties.metadata, ctx.idempotencyKey),
    networks: nets.request,
    ...(groups.length > 0 ? { security_groups: groups.map((group) => ({ name: group })) } : {}),
    ...(devices.length > 0 ? { block_device_mapping_v2: devices } : {}),
    ...(data === undefined ? {} : { user_data: data }),
  };
  const tags = (properties.tags ?? []) as string[];
  if (tags.length > 0) server.tags = tags;
  // As Heat hands it to novaclient: Nova's return_reservation_id, which it validates as a boolean.
  if (given(properties.reservation_id)) server.return_reservation_id = properties.reservation_id as string;
  if (given(properties.key_name)) server.key_name = properties.key_name as string;
  if (given(properties.availability_zone)) server.availability_zone = properties.availability_zone as string;
  if (given(properties.config_drive)) server.config_drive = properties.config_drive as boolean;
  if (given(properties.diskConfig)) server['OS-DCF:diskConfig'] = properties.diskConfig as string;
  if (given(properties.admin_pass) && properties.admin_pass !== '')
    server.adminPass = properties.admin_pass as string;
  const hints = properties.scheduler_hints as JsonObject | null | undefined;
  const body: JsonObject = { server, ...(hints ? { 'os:scheduler_hints': hints } : {}) };
  return {
    body,
    resolved: { flavorId: flavor.id, flavorName: flavor.name, imageId, nics: nets.nics },
  };
}
