import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { cinderVolumePlugin as cinder } from '../../openstack/cinder/volume.js';
import { liveTags, tagMap, tagsProperty, viewOf } from './common.js';

/**
 * AWS::EC2::Volume: a Cinder volume, made and polled by OS::Cinder::Volume's own code from the
 * properties Heat derives (size, zone, the tags as metadata, SnapshotId as the backup to restore;
 * the physical name as both name and description). Every property is immutable, as in Heat.
 */

function cinderProperties(ctx: PluginContext, p: Readonly<Record<string, Value>>): Record<string, Value> {
  const name = physicalResourceName(ctx);
  return {
    size: p.Size ?? null,
    availability_zone: p.AvailabilityZone ?? null,
    backup_id: p.SnapshotId ?? null,
    metadata: tagMap(p.Tags) ?? {},
    name,
    description: name,
    snapshot_id: null,
    volume_type: null,
    image: null,
    imageRef: null,
    source_volid: null,
    scheduler_hints: null,
    read_only: null,
    multiattach: false,
  };
}

/** The context as OS::Cinder::Volume reads it: its stored properties in Cinder's terms. */
const asCinder = (ctx: PluginContext) =>
  viewOf(ctx, { storedProperties: ctx.storedProperties && cinderProperties(ctx, ctx.storedProperties) });

export const ec2VolumePlugin: CatalogPlugin = {
  type: 'AWS::EC2::Volume',
  description: 'A block storage volume: a Cinder volume.',
  properties: {
    AvailabilityZone: P.string({
      description: 'The availability zone in which the volume will be created.',
      required: true,
      immutable: true,
    }),
    Size: P.integer({
      description: 'The size of the volume in GB.',
      immutable: true,
      constraints: [C.range({ min: 1 })],
    }),
    SnapshotId: P.string({
      description: 'If specified, the backup used as the source to create the volume.',
      immutable: true,
      constraints: [C.custom('cinder.backup')],
    }),
    Tags: {
      ...tagsProperty({ description: 'The list of tags to associate with the volume.' }),
      immutable: true,
    },
  },
  attributes: {},

  create: (ctx, properties) => cinder.create(ctx, cinderProperties(ctx, properties)),
  checkCreateComplete: (ctx, progress) => cinder.checkCreateComplete!(ctx, progress),
  delete: (ctx) => cinder.delete(ctx),
  checkDeleteComplete: (ctx, progress) => cinder.checkDeleteComplete!(ctx, progress),
  check: (ctx) => cinder.check!(ctx),

  async getReality(ctx) {
    const reality = await cinder.getReality(asCinder(ctx));
    if (reality.state === 'gone') return reality;
    const live = reality.properties;
    const stored = ctx.storedProperties ?? {};
    return {
      ...reality,
      properties: {
        ...stored,
        Size: live.size ?? null,
        Tags: liveTags(stored.Tags, (live.metadata ?? {}) as Record<string, string>),
      },
    };
  },

  async attribute() {
    return null;
  },
};
