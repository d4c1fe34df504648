import { attr, C, P, type PropertiesSchema } from '../../../template/properties/index.js';
import type { AttributesSchema } from '../../../template/properties/index.js';
import {
  DEPLOYMENT_SWIFT_DATA,
  OS_COLLECT_CONFIG,
  SOFTWARE_CONFIG_TRANSPORT,
} from '../../server-agent/schema.js';

/** OS::Nova::Server's properties and attributes: the subset of Heat's schema Hearth implements. */

const DEVICE_NAME =
  'A device name where the volume will be attached in the system at /dev/device_name. This value is typically vda.';
const DELETE_ON_TERMINATION = 'Indicate whether the volume should be deleted when the server is terminated.';
const SNAPSHOT_ID = 'The ID of the snapshot to create a volume from.';

const BLOCK_DEVICE_V1 = P.map({
  schema: {
    device_name: P.string({ description: DEVICE_NAME, required: true }),
    volume_id: P.string({
      description:
        'The ID of the volume to boot from. Only one of volume_id or snapshot_id should be provided.',
      constraints: [C.custom('cinder.volume')],
    }),
    snapshot_id: P.string({ description: SNAPSHOT_ID, constraints: [C.custom('cinder.snapshot')] }),
    volume_size: P.integer({
      description:
        'The size of the volume, in GB. It is safe to leave this blank and have the Compute service infer the size.',
    }),
    delete_on_termination: P.boolean({ description: DELETE_ON_TERMINATION }),
  },
});

const BLOCK_DEVICE_V2 = P.map({
  schema: {
    device_name: P.string({ description: DEVICE_NAME }),
    volume_id: P.string({
      description: 'The volume_id can be boot or non-boot device to the server.',
      constraints: [C.custom('cinder.volume')],
    }),
    image_id: P.string({
      description: 'The ID of the image to create a volume from.',
      constraints: [C.custom('glance.image')],
      supportStatus: { status: 'HIDDEN', version: '9.0.0', message: 'Use property image.' },
    }),
    image: P.string({
      description: 'The ID or name of the image to create a volume from.',
      constraints: [C.custom('glance.image')],
      supportStatus: { version: '7.0.0' },
    }),
    snapshot_id: P.string({ description: SNAPSHOT_ID, constraints: [C.custom('cinder.snapshot')] }),
    swap_size: P.integer({ description: 'The size of the swap, in MB.' }),
    ephemeral_size: P.integer({
      description: 'The size of the local ephemeral block device, in GB.',
      constraints: [C.range({ min: 1 })],
      supportStatus: { version: '8.0.0' },
    }),
    ephemeral_format: P.string({
      description:
        'The format of the local ephemeral block device. If no format is specified, uses default value, defined in nova configuration file.',
      constraints: [C.allowedValues(['ext2', 'ext3', 'ext4', 'xfs', 'ntfs'])],
      supportStatus: { version: '8.0.0' },
    }),
    device_type: P.string({
      description: 'Device type: at the moment we can make distinction only between disk and cdrom.',
      constraints: [C.allowedValues(['cdrom', 'disk'])],
    }),
    disk_bus: P.string({
      description: 'Bus of the device: hypervisor driver chooses a suitable default if omitted.',
      constraints: [C.allowedValues(['ide', 'lame_bus', 'scsi', 'usb', 'virtio'])],
    }),
    boot_index: P.integer({
      description:
        'Integer used for ordering the boot disks. If it is not specified, value "0" will be set for bootable sources (volume, snapshot, image); value "-1" will be set for non-bootable sources.',
    }),
    volume_size: P.integer({
      description: 'Size of the block device in GB. If it is omitted, hypervisor driver calculates size.',
    }),
    delete_on_termination: P.boolean({
      description:
        'Indicate whether the volume should be deleted when the server is terminated. Defaults to "False" in case of a volume, snapshot or image and to "True" in case of swap or ephemeral.',
    }),
  },
});

const NETWORK = P.map({
  schema: {
    uuid: P.string({
      description: 'ID of network to create a port on.',
      constraints: [C.custom('neutron.network')],
      supportStatus: {
        status: 'HIDDEN',
        version: '5.0.0',
        previousStatus: { status: 'DEPRECATED', version: '2014.1', message: 'Use property network.' },
      },
    }),
    network: P.string({
      description: 'Name or ID of network to create a port on.',
      constraints: [C.custom('neutron.network')],
    }),
    allocate_network: P.string({
      description:
        'The special string values of network, auto: means either a network that is already available to the project will be used, or if one does not exist, will be automatically created for the project; none: means no networking will be allocated for the created server. Supported by Nova API since version "2.37". This property can not be used with other network keys.',
      constraints: [C.allowedValues(['none', 'auto'])],
      updateAllowed: true,
      supportStatus: { version: '9.0.0' },
    }),
    fixed_ip: P.string({
      description: 'Fixed IP address to specify for the port created on the requested network.',
      constraints: [C.custom('ip_addr')],
    }),
    port: P.string({
      description: 'ID of an existing port to associate with this server.',
      constraints: [C.custom('neutron.port')],
    }),
    subnet: P.string({
      description:
        'Subnet in which to allocate the IP address for port. Used for creating port, based on derived properties. If subnet is specified, network property becomes optional.',
      supportStatus: { version: '5.0.0' },
    }),
    floating_ip: P.string({ description: 'ID of the floating IP to associate.' }),
    tag: P.string({
      description: 'Port tag. Heat ignores any update on this property as nova does not support it.',
      supportStatus: { version: '9.0.0' },
    }),
  },
});

export const SERVER_PROPERTIES: PropertiesSchema = {
  name: P.string({ description: 'Server name.', updateAllowed: true }),
  image: P.string({
    description: 'The ID or name of the image to boot with.',
    constraints: [C.custom('glance.image')],
    updateAllowed: true,
  }),
  block_device_mapping: P.list({
    description: 'Block device mappings for this server.',
    items: BLOCK_DEVICE_V1,
  }),
  block_device_mapping_v2: P.list({
    description: 'Block device mappings v2 for this server.',
    items: BLOCK_DEVICE_V2,
    supportStatus: { version: '2015.1' },
  }),
  flavor: P.string({
    description: 'The ID or name of the flavor to boot onto.',
    required: true,
    updateAllowed: true,
    constraints: [C.custom('nova.flavor')],
  }),
  flavor_update_policy: P.string({
    description:
      'Policy on how to apply a flavor update; either by requesting a server resize or by replacing the entire server.',
    default: 'RESIZE',
    constraints: [C.allowedValues(['RESIZE', 'REPLACE'])],
    updateAllowed: true,
  }),
  image_update_policy: P.string({
    description:
      'Policy on how to apply an image-id update; either by requesting a server rebuild or by replacing the entire server.',
    default: 'REBUILD',
    constraints: [C.allowedValues(['REBUILD', 'REPLACE', 'REBUILD_PRESERVE_EPHEMERAL'])],
    updateAllowed: true,
  }),
  key_name: P.string({
    description: 'Name of keypair to inject into the server.',
    constraints: [C.custom('nova.keypair')],
  }),
  availability_zone: P.string({ description: 'Name of the availability zone for server placement.' }),
  security_groups: P.list({
    description:
      'List of security group names or IDs. Cannot be used if neutron ports are associated with this server; assign security groups to the ports instead.',
    default: [],
  }),
  networks: P.list({
    description:
      'An ordered list of nics to be added to this server, with information about connected networks, fixed ips, port etc.',
    items: NETWORK,
    updateAllowed: true,
  }),
  scheduler_hints: P.map({
    description: 'Arbitrary key-value pairs specified by the client to help boot a server.',
  }),
  metadata: P.map({
    description:
      'Arbitrary key/value metadata to store for this server. Both keys and values must be 255 characters or less. Non-string values will be serialized to JSON (and the serialized string must be 255 characters or less).',
    updateAllowed: true,
    default: {},
  }),
  user_data_format: P.string({
    description:
      'How the user_data should be formatted for the server. For HEAT_CFNTOOLS, the user_data is bundled as part of the heat-cfntools cloud-init boot configuration data. For RAW the user_data is passed to Nova unmodified. For SOFTWARE_CONFIG user_data is bundled as part of the software config data, and metadata is derived from any associated SoftwareDeployment resources. And if the user_data is in CoreOS ignition(json) format, the metadata will be injected into the user_data automatically by Heat.',
    default: 'HEAT_CFNTOOLS',
    constraints: [C.allowedValues(['HEAT_CFNTOOLS', 'RAW', 'SOFTWARE_CONFIG'])],
  }),
  software_config_transport: SOFTWARE_CONFIG_TRANSPORT,
  deployment_swift_data: DEPLOYMENT_SWIFT_DATA,
  user_data_update_policy: P.string({
    description:
      'Policy on how to apply a user_data update; by ignoring it, by replacing the entire server, or rebuild the server.',
    default: 'REPLACE',
    constraints: [C.allowedValues(['REPLACE', 'IGNORE', 'REBUILD'])],
    updateAllowed: true,
    supportStatus: { version: '6.0.0' },
  }),
  user_data: P.string({
    description:
      'User data script to be executed by cloud-init or CoreOS ignition. Changes cause replacement of the resource by default, but can be ignored altogether by setting the `user_data_update_policy` property.',
    default: '',
    updateAllowed: true,
  }),
  config_drive: P.boolean({ description: 'If True, enable config drive on the server.' }),
  diskConfig: P.string({
    description: 'Control how the disk is partitioned when the server is created.',
    constraints: [C.allowedValues(['AUTO', 'MANUAL'])],
  }),
  admin_pass: P.string({ description: 'The administrator password for the server.', updateAllowed: true }),
  reservation_id: P.string({ description: 'A UUID for the set of servers being requested.' }),
  tags: P.list({
    description: 'Server tags. Supported since client version 2.26.',
    items: P.string({}),
    updateAllowed: true,
    supportStatus: { version: '8.0.0' },
  }),
};

export const SERVER_ATTRIBUTES: AttributesSchema = {
  name: attr('Name of the server.', 'string'),
  addresses: attr(
    'A dict of all network addresses with corresponding port_id and subnets. Each network will have two keys in dict, they are network name and network id. The port ID may be obtained through the following expression: ``{get_attr: [<server>, addresses, <network name_or_id>, 0, port]}``. The subnets may be obtained trough the following expression: ``{get_attr: [<server>, addresses, <network name_or_id>, 0, subnets]}``. The network may be obtained through the following expression: ``{get_attr: [<server>, addresses, <network name_or_id>, 0, network]}``.',
    'map',
  ),
  networks: attr(
    'A dict of assigned network addresses of the form: {"public": [ip1, ip2...], "private": [ip3, ip4], "public_uuid": [ip1, ip2...], "private_uuid": [ip3, ip4]}. Each network will have two keys in dict, they are network name and network id.',
    'map',
  ),
  first_address: {
    description:
      'Convenience attribute to fetch the first assigned network address, or an empty string if nothing has been assigned at this time. Result may not be predictable if the server has addresses from more than one network.',
    supportStatus: {
      status: 'HIDDEN',
      version: '5.0.0',
      message:
        'Use the networks attribute instead of first_address. For example: "{get_attr: [<server name>, networks, <network name>, 0]}"',
      previousStatus: { status: 'DEPRECATED', version: '2014.2', previousStatus: { version: '2013.2' } },
    },
  },
  instance_name: attr('AWS compatible instance name.', 'string'),
  accessIPv4: {
    ...attr('The manually assigned alternative public IPv4 address of the server.', 'string'),
    supportStatus: { status: 'DEPRECATED', version: '14.0.0', previousStatus: { version: '2015.1' } },
  },
  accessIPv6: {
    ...attr('The manually assigned alternative public IPv6 address of the server.', 'string'),
    supportStatus: { status: 'DEPRECATED', version: '14.0.0', previousStatus: { version: '2015.1' } },
  },
  console_urls: {
    ...attr(
      "URLs of server's consoles. To get a specific console type, the requested type can be specified as parameter to the get_attr function, e.g. get_attr: [ <server>, console_urls, novnc ]. Currently supported types are novnc, xvpvnc, spice-html5, rdp-html5, serial and webmks.",
      'map',
    ),
    supportStatus: { version: '2015.1' },
  },
  tags: {
    ...attr('Tags from the server. Supported since client version 2.26.', 'list'),
    supportStatus: { version: '8.0.0' },
  },
  os_collect_config: OS_COLLECT_CONFIG,
  show: attr('Detailed information about resource.', 'map'),
};
