import {
  attr,
  C,
  P,
  type AttributesSchema,
  type PropertiesSchema,
} from '../../../template/properties/index.js';
import { tagsProperty } from './common.js';

/** AWS::EC2::Instance's properties and attributes, as Heat declares them. */

const KEY_VALUES = P.list({
  description: 'Scheduler hints to pass to Nova (Heat extension).',
  items: P.map({ schema: { Key: P.string({ required: true }), Value: P.string({ required: true }) } }),
});

/** Declared by Heat but not implemented: refused when given. */
const notImplemented = (type: 'string' | 'boolean') =>
  P[type]({ description: 'Not Implemented.', implemented: false });

export const INSTANCE_PROPERTIES: PropertiesSchema = {
  ImageId: P.string({
    description: 'Glance image ID or name.',
    required: true,
    constraints: [C.custom('glance.image')],
  }),
  InstanceType: P.string({
    description: 'Nova instance type (flavor).',
    required: true,
    updateAllowed: true,
    constraints: [C.custom('nova.flavor')],
  }),
  KeyName: P.string({ description: 'Optional Nova keypair name.', constraints: [C.custom('nova.keypair')] }),
  AvailabilityZone: P.string({ description: 'Availability zone to launch the instance in.' }),
  DisableApiTermination: notImplemented('string'),
  KernelId: notImplemented('string'),
  Monitoring: notImplemented('boolean'),
  PlacementGroupName: notImplemented('string'),
  PrivateIpAddress: notImplemented('string'),
  RamDiskId: notImplemented('string'),
  SecurityGroups: P.list({ description: 'Security group names to assign.' }),
  SecurityGroupIds: P.list({ description: 'Security group IDs to assign.' }),
  NetworkInterfaces: P.list({
    description: 'Network interfaces to associate with instance.',
    updateAllowed: true,
  }),
  SourceDestCheck: notImplemented('boolean'),
  SubnetId: P.string({ description: 'Subnet ID to launch instance in.', updateAllowed: true }),
  Tags: tagsProperty({ description: 'Tags to attach to instance.', updateAllowed: true }),
  NovaSchedulerHints: KEY_VALUES,
  Tenancy: P.string({
    description: 'Not Implemented.',
    implemented: false,
    constraints: [C.allowedValues(['dedicated', 'default'])],
  }),
  UserData: P.string({ description: 'User data to pass to instance.' }),
  Volumes: P.list({
    description: 'Volumes to attach to instance.',
    default: [],
    items: P.map({
      schema: {
        Device: P.string({
          description:
            'The device where the volume is exposed on the instance. This assignment may not be honored and it is advised that the path /dev/disk/by-id/virtio-<VolumeId> be used instead.',
          required: true,
        }),
        VolumeId: P.string({
          description: 'The ID of the volume to be attached.',
          required: true,
          constraints: [C.custom('cinder.volume')],
        }),
      },
    }),
  }),
  BlockDeviceMappings: P.list({
    description: 'Block device mappings to attach to instance.',
    items: P.map({
      schema: {
        DeviceName: P.string({
          description:
            'A device name where the volume will be attached in the system at /dev/device_name.e.g. vdb',
          required: true,
        }),
        Ebs: P.map({
          description: 'The ebs volume to attach to the instance.',
          schema: {
            DeleteOnTermination: P.boolean({
              description: 'Indicate whether the volume should be deleted when the instance is terminated.',
              default: true,
            }),
            Iops: P.number({
              description: 'The number of I/O operations per second that the volume supports.',
              implemented: false,
            }),
            SnapshotId: P.string({
              description: 'The ID of the snapshot to create a volume from.',
              constraints: [C.custom('cinder.snapshot')],
            }),
            VolumeSize: P.string({
              description:
                'The size of the volume, in GB. Must be equal or greater than the size of the snapshot. It is safe to leave this blank and have the Compute service infer the size.',
            }),
            VolumeType: P.string({ description: 'The volume type.', implemented: false }),
          },
        }),
        NoDevice: P.map({ description: 'The can be used to unmap a defined device.', implemented: false }),
        VirtualName: P.string({
          description:
            'The name of the virtual device. The name must be in the form ephemeralX where X is a number starting from zero (0); for example, ephemeral0.',
          implemented: false,
        }),
      },
    }),
  }),
};

export const INSTANCE_ATTRIBUTES: AttributesSchema = {
  AvailabilityZone: attr('The Availability Zone where the specified instance is launched.', 'string'),
  PrivateDnsName: attr('Private DNS name of the specified instance.', 'string'),
  PublicDnsName: attr('Public DNS name of the specified instance.', 'string'),
  PrivateIp: attr('Private IP address of the specified instance.', 'string'),
  PublicIp: attr('Public IP address of the specified instance.', 'string'),
};
