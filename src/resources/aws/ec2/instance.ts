import { isNotFound } from '../../../openstack/index.js';
import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type ActionResult, type PluginContext, type PollResult, ResourceFailure } from '../../contract.js';
import { createNeutronObject, deleteNeutronObject, failure } from '../../openstack/common.js';
import { liveServer, statusOf } from '../../openstack/nova/compute.js';
import { firstAddress } from '../../openstack/nova/server-attributes.js';
import { novaServerPlugin as SERVER } from '../../openstack/nova/server.js';
import { again, asAction, oncePerContext } from '../../openstack/polling.js';
import { liveTags, PORTS, tagMap, viewOf } from './common.js';
import { INSTANCE_ATTRIBUTES, INSTANCE_PROPERTIES } from './instance-schema.js';
import { attachVolumes, type VolumeWant, volumesOf } from './instance-volumes.js';
import { subnetPortBody } from './network-interface.js';

/**
 * AWS::EC2::Instance: a Nova server, made, polled, updated and deleted by OS::Nova::Server's own
 * code from the properties Heat derives (ImageId the image, InstanceType the flavor, Tags the
 * metadata, UserData as HEAT_CFNTOOLS user data, NetworkInterfaces its ports). A SubnetId without
 * NetworkInterfaces gets a port of Hearth's making (with the security groups), deleted with the
 * instance; Volumes are attached once the server is ACTIVE.
 */

type Props = Readonly<Record<string, Value>>;
type CreateProgress = {
  phase: 'boot' | 'volumes';
  server?: Json;
  volumes: VolumeWant[];
  attaching?: boolean;
};
type DeleteProgress = { phase: 'server'; server: Json } | { phase: 'port'; attempt: number };

const given = (v: Value | undefined) => v !== null && v !== undefined;

/** SecurityGroups and SecurityGroupIds together; null when neither has any. */
function groupsOf(p: Props): string[] | null {
  const groups = [...((p.SecurityGroups ?? []) as string[]), ...((p.SecurityGroupIds ?? []) as string[])];
  return groups.length > 0 ? groups : null;
}

/** NetworkInterfaces' port ids in DeviceIndex order (an entry may be the id alone); null when none. */
function interfacePorts(p: Props): string[] | null {
  const entries = (p.NetworkInterfaces ?? []) as (string | JsonObject)[];
  if (entries.length === 0) return null;
  const nics = entries.map((e, i) =>
    typeof e === 'string'
      ? { id: e, index: i }
      : { id: String(e.NetworkInterfaceId), index: Number(e.DeviceIndex) },
  );
  return nics.sort((a, b) => a.index - b.index).map((n) => n.id);
}

/** NovaSchedulerHints as Nova's hints: a key given twice has a list of values. */
function schedulerHints(p: Props): JsonObject | null {
  const list = (p.NovaSchedulerHints ?? []) as JsonObject[];
  if (list.length === 0) return null;
  const hints: Record<string, string | string[]> = {};
  for (const { Key, Value: value } of list) {
    const key = String(Key);
    const had = hints[key];
    hints[key] = had === undefined ? String(value) : [...(Array.isArray(had) ? had : [had]), String(value)];
  }
  return hints;
}

/** BlockDeviceMappings as Nova's older block_device_mapping (snapshot, size, delete flag). */
function blockDevices(p: Props): JsonObject[] {
  return ((p.BlockDeviceMappings ?? []) as JsonObject[]).flatMap((m) => {
    const ebs = m.Ebs as JsonObject | null | undefined;
    if (!ebs) return [];
    return [
      {
        device_name: m.DeviceName!,
        snapshot_id: ebs.SnapshotId ?? null,
        volume_size: given(ebs.VolumeSize as Value) && ebs.VolumeSize !== '' ? Number(ebs.VolumeSize) : null,
        delete_on_termination: (ebs.DeleteOnTermination as boolean | null) ?? null,
      },
    ];
  });
}

/** The OS::Nova::Server properties of the instance; `subnetPort` is the port made for SubnetId. */
function serverProperties(p: Props, subnetPort: string | null): Record<string, Value> {
  const ports = interfacePorts(p) ?? (subnetPort ? [subnetPort] : []);
  return {
    name: null,
    image: p.ImageId ?? null,
    flavor: p.InstanceType ?? null,
    key_name: p.KeyName ?? null,
    availability_zone: p.AvailabilityZone ?? null,
    // With ports of the template's or Hearth's making, the groups are the ports' own.
    security_groups: ports.length > 0 ? [] : (groupsOf(p) ?? []),
    networks: ports.map((port) => ({ port })),
    metadata: tagMap(p.Tags) ?? {},
    user_data: p.UserData ?? '',
    user_data_format: 'HEAT_CFNTOOLS',
    scheduler_hints: schedulerHints(p),
    block_device_mapping: blockDevices(p),
    block_device_mapping_v2: [],
    tags: null,
  };
}

const portOf = (ctx: PluginContext) => (ctx.data.port_id as string | undefined) ?? null;

/** The context as OS::Nova::Server reads it: its stored properties in the server's terms. */
const asServer = (ctx: PluginContext) =>
  viewOf(ctx, {
    storedProperties: ctx.storedProperties && serverProperties(ctx.storedProperties, portOf(ctx)),
  });

/** Deletes the port made for SubnetId (found by its marker when its id was never recorded). */
async function deletePort(ctx: PluginContext, attempt: number): Promise<PollResult> {
  const stored = ctx.storedProperties;
  const made =
    portOf(ctx) ?? (stored && given(stored.SubnetId) && !interfacePorts(stored) ? null : undefined);
  if (made === undefined) return { done: true };
  const r = await deleteNeutronObject(viewOf(ctx, { physicalId: made }), PORTS, attempt);
  return r.done ? r : { ...r, progress: { phase: 'port', ...(r.progress as { attempt: number }) } };
}

async function afterServerDeleted(ctx: PluginContext, r: PollResult | ActionResult): Promise<PollResult> {
  if (r.progress !== undefined && r.progress !== null) {
    return {
      done: false,
      progress: { phase: 'server', server: r.progress },
      pollAfterMs: r.pollAfterMs ?? 1000,
    };
  }
  return deletePort(ctx, 1);
}

/** Which changes OS::Nova::Server makes for the instance's. */
const SERVER_NAMES: Record<string, string> = { Tags: 'metadata', NetworkInterfaces: 'networks' };

export const ec2InstancePlugin: CatalogPlugin = {
  type: 'AWS::EC2::Instance',
  description: 'An instance: a Nova server booted from ImageId with flavor InstanceType.',
  properties: INSTANCE_PROPERTIES,
  attributes: INSTANCE_ATTRIBUTES,

  validate(properties: Record<string, Value>, path: DocPath) {
    if (['SecurityGroups', 'SecurityGroupIds', 'NetworkInterfaces'].some((n) => properties[n] === UNKNOWN))
      return;
    if (groupsOf(properties) && interfacePorts(properties)) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: SecurityGroups/SecurityGroupIds, NetworkInterfaces.',
        path,
      );
    }
    const mappings = properties.BlockDeviceMappings === UNKNOWN ? [] : properties.BlockDeviceMappings;
    for (const mapping of (mappings ?? []) as Value[]) {
      const ebsValue = mapping === UNKNOWN ? UNKNOWN : (mapping as Record<string, Value>).Ebs;
      if (ebsValue === UNKNOWN) continue;
      const ebs = ebsValue as JsonObject | null | undefined;
      const missing = !ebs ? 'Ebs' : !ebs.SnapshotId ? 'SnapshotId' : undefined;
      if (missing) {
        throw new TemplateError(
          'property',
          `${missing} is missing, this is required when specifying BlockDeviceMappings.`,
          path,
        );
      }
    }
  },

  async create(ctx, properties) {
    let port: string | null = null;
    if (!interfacePorts(properties) && given(properties.SubnetId)) {
      port = await createNeutronObject(
        ctx,
        PORTS,
        () => subnetPortBody(ctx, properties.SubnetId as string, null, groupsOf(properties)),
        [],
      );
    }
    const made = await SERVER.create(ctx, serverProperties(properties, port));
    const progress: CreateProgress = {
      phase: 'boot',
      server: made.progress ?? null,
      volumes: volumesOf(properties),
    };
    return {
      ...made,
      data: { ...made.data, ...(port ? { port_id: port } : {}) },
      progress: progress as Json,
    };
  },

  async checkCreateComplete(ctx, progress) {
    const p = progress as CreateProgress;
    if (p.phase === 'boot') {
      const r = await SERVER.checkCreateComplete!(ctx, p.server ?? null);
      if (!r.done) return { ...r, progress: { ...p, server: r.progress ?? null } as Json };
      if (p.volumes.length === 0) return r;
      return again({ ...p, phase: 'volumes' } as Json, 0);
    }
    try {
      const attaching = await attachVolumes(ctx, p.volumes, p.attaching ?? false);
      return attaching === 'done' ? { done: true } : again({ ...p, attaching: true } as Json);
    } catch (error) {
      throw failure('attaching the volumes of the instance', error);
    }
  },

  needsReplace(properties, previous, changed) {
    // Resize is not implemented (as for OS::Nova::Server): a new flavor is a new instance.
    if (changed.includes('InstanceType')) return true;
    const before = interfacePorts(previous);
    const after = interfacePorts(properties);
    // Ports of the template's move in place; a SubnetId (Hearth's port) changing is a new instance.
    if (changed.includes('NetworkInterfaces') && !(before && after)) return true;
    return changed.includes('SubnetId') && !(before && after);
  },

  prepareForReplace: (ctx, progress) => SERVER.prepareForReplace!(ctx, progress),
  restorePrevious: (ctx, progress) => SERVER.restorePrevious!(ctx, progress),

  async update(ctx, properties, previous, changed) {
    const names = changed.flatMap((n) => (SERVER_NAMES[n] ? [SERVER_NAMES[n]] : []));
    if (names.length === 0) return {};
    const port = portOf(ctx);
    return SERVER.update!(ctx, serverProperties(properties, port), serverProperties(previous, port), names);
  },

  checkUpdateComplete: (ctx, progress) => SERVER.checkUpdateComplete!(ctx, progress),

  async delete(ctx) {
    return asAction(await afterServerDeleted(ctx, await SERVER.delete(ctx)));
  },

  async checkDeleteComplete(ctx, progress) {
    const p = progress as DeleteProgress;
    if (p.phase === 'port') return deletePort(ctx, p.attempt);
    const r = await SERVER.checkDeleteComplete!(ctx, p.server);
    return r.done ? deletePort(ctx, 1) : afterServerDeleted(ctx, r);
  },

  async check(ctx) {
    const server = ctx.physicalId ? await liveServer(ctx, ctx.physicalId) : undefined;
    if (!server)
      throw new ResourceFailure(`The instance ${ctx.physicalId ?? ctx.resourceName} does not exist`);
    // Heat's words for an Instance.
    if (statusOf(server) !== 'ACTIVE')
      throw new ResourceFailure(`Instance is not ACTIVE (was: ${server.status})`);
  },
  suspend: (ctx) => SERVER.suspend!(ctx),
  checkSuspendComplete: (ctx, progress) => SERVER.checkSuspendComplete!(ctx, progress),
  resume: (ctx) => SERVER.resume!(ctx),
  checkResumeComplete: (ctx, progress) => SERVER.checkResumeComplete!(ctx, progress),

  async getReality(ctx) {
    const reality = await SERVER.getReality(asServer(ctx));
    if (reality.state === 'gone') return reality;
    const live = reality.properties;
    const stored = ctx.storedProperties ?? {};
    return {
      ...reality,
      properties: {
        ...stored,
        ImageId: live.image ?? null,
        InstanceType: live.flavor ?? null,
        KeyName: live.key_name ?? null,
        Tags: liveTags(stored.Tags, (live.metadata ?? {}) as Record<string, string>),
      },
    };
  },

  async attribute(ctx, name, properties) {
    if (!ctx.physicalId) return null;
    const server = await oncePerContext(ctx, 'server', () =>
      liveServer(ctx, ctx.physicalId!).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      }),
    );
    if (name === 'AvailabilityZone') {
      const zone = properties.AvailabilityZone ?? server?.['OS-EXT-AZ:availability_zone'] ?? null;
      return zone ? String(zone as string) : null;
    }
    // Heat answers every address attribute with the server's first address.
    return server ? firstAddress(server) || '0.0.0.0' : '0.0.0.0';
  },
};
