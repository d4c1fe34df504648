import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';

/** OS::Nova::Server's checks beyond the schema (Heat's Server.validate and _validate_network). */

type Entry = Record<string, Value>;

const given = (value: Value | undefined) => value !== null && value !== undefined;
const listOf = (value: Value | undefined): Value[] | undefined =>
  value === UNKNOWN ? undefined : ((value ?? []) as Value[]);
/** A known map: what is still UNKNOWN during template validation is checked later. */
const isEntry = (value: Value): value is Entry =>
  value !== UNKNOWN && value !== null && typeof value === 'object' && !Array.isArray(value);

function refuse(message: string, path: DocPath): never {
  throw new TemplateError('property', message, path);
}

const conflict = (names: string[]) =>
  `Cannot define the following properties at the same time: ${names.join(', ')}.`;

function validateNetwork(entry: Value, server: string, path: DocPath): void {
  if (!isEntry(entry)) return;
  const network = entry.network ?? entry.uuid;
  if (!given(network) && !given(entry.port) && !given(entry.subnet) && !given(entry.allocate_network)) {
    refuse(
      `One of the properties "network", "port", "allocate_network" or "subnet" should be set for the specified network of server "${server}".`,
      path,
    );
  }
  if (given(entry.allocate_network) && Object.values(entry).filter(given).length !== 1) {
    refuse('Can not specify "allocate_network" with other keys of networks at the same time.', path);
  }
  if (given(entry.fixed_ip) && given(entry.port))
    refuse(conflict(['networks/fixed_ip', 'networks/port']), path);
}

/** Heat's _validate_block_device_mapping: one form, one bootable source. */
function validateDevices(properties: Record<string, Value>, server: string, path: DocPath): void {
  const v1 = listOf(properties.block_device_mapping);
  const v2 = listOf(properties.block_device_mapping_v2);
  if (v1 === undefined || v2 === undefined) return;
  if (v1.length > 0 && v2.length > 0)
    refuse(conflict(['block_device_mapping', 'block_device_mapping_v2']), path);
  let bootable = given(properties.image);
  let sources = given(properties.image) ? 1 : 0;
  for (const m of v1) {
    if (!isEntry(m)) return;
    if (m.device_name === 'vda') bootable = true;
    if (given(m.volume_id) && given(m.snapshot_id)) refuse(conflict(['volume_id', 'snapshot_id']), path);
    if (!given(m.volume_id) && !given(m.snapshot_id)) {
      refuse(
        `Either volume_id or snapshot_id must be specified for device mapping ${String(m.device_name)}`,
        path,
      );
    }
  }
  for (const m of v2) {
    if (!isEntry(m)) return;
    const image = m.image ?? m.image_id;
    const ephemeral = given(m.ephemeral_size) || given(m.ephemeral_format);
    const set = [m.volume_id, m.snapshot_id, image, m.swap_size].filter(given).length + (ephemeral ? 1 : 0);
    if (set > 1) {
      refuse(
        conflict(['volume_id', 'snapshot_id', 'image', 'swap_size', 'ephemeral_size', 'ephemeral_format']),
        path,
      );
    }
    if (set === 0) {
      refuse(
        'Either volume_id, snapshot_id, image_id, swap_size, ephemeral_size or ephemeral_format must be specified.',
        path,
      );
    }
    const fromVolume = given(m.volume_id) || given(m.snapshot_id) || given(image);
    if (fromVolume && (!given(m.boot_index) || m.boot_index === 0)) {
      bootable = true;
      sources++;
    }
  }
  if (!bootable) refuse(`Neither image nor bootable volume is specified for instance ${server}`, path);
  if (v2.length > 0 && sources !== 1) refuse(`Multiple bootable sources for instance ${server}.`, path);
}

export function validateServer(properties: Record<string, Value>, path: DocPath): void {
  // The path is resources.<name>.properties: Heat's messages name the resource.
  const server = path[0] === 'resources' && typeof path[1] === 'string' ? path[1] : 'server';
  const networks = listOf(properties.networks);
  for (const entry of networks ?? []) validateNetwork(entry, server, path);
  validateDevices(properties, server, path);
}
