import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext } from '../../contract.js';
import { cinderVolumeAttachmentPlugin as attachment } from '../../openstack/cinder/volume-attachment.js';
import { viewOf } from './common.js';

/**
 * AWS::EC2::VolumeAttachment: a volume attached to a server by Nova, through
 * OS::Cinder::VolumeAttachment's own attach, detach and polling. Every property is immutable.
 */

function cinderProperties(p: Readonly<Record<string, Value>>): Record<string, Value> {
  return { instance_uuid: p.InstanceId ?? null, volume_id: p.VolumeId ?? null, mountpoint: p.Device ?? null };
}

const asCinder = (ctx: PluginContext) =>
  viewOf(ctx, { storedProperties: ctx.storedProperties && cinderProperties(ctx.storedProperties) });

export const ec2VolumeAttachmentPlugin: CatalogPlugin = {
  type: 'AWS::EC2::VolumeAttachment',
  description: 'A volume attached to an instance.',
  properties: {
    InstanceId: P.string({
      description: 'The ID of the instance to which the volume attaches.',
      required: true,
      immutable: true,
      constraints: [C.custom('nova.server')],
    }),
    VolumeId: P.string({
      description: 'The ID of the volume to be attached.',
      required: true,
      immutable: true,
      constraints: [C.custom('cinder.volume')],
    }),
    Device: P.string({
      description:
        'The device where the volume is exposed on the instance. This assignment may not be honored and it is advised that the path /dev/disk/by-id/virtio-<VolumeId> be used instead.',
      required: true,
      immutable: true,
      constraints: [C.allowedPattern('/dev/vd[b-z]')],
    }),
  },
  attributes: {},

  create: (ctx, properties) => attachment.create(ctx, cinderProperties(properties)),
  checkCreateComplete: (ctx, progress) => attachment.checkCreateComplete!(asCinder(ctx), progress),
  delete: (ctx) => attachment.delete(asCinder(ctx)),
  checkDeleteComplete: (ctx, progress) => attachment.checkDeleteComplete!(asCinder(ctx), progress),

  async getReality(ctx) {
    const reality = await attachment.getReality(asCinder(ctx));
    if (reality.state === 'gone') return reality;
    const live = reality.properties;
    return {
      ...reality,
      properties: { InstanceId: live.instance_uuid!, VolumeId: live.volume_id!, Device: live.mountpoint! },
    };
  },

  async attribute() {
    return null;
  },
};
