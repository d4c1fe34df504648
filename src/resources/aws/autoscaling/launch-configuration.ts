import { TemplateError, type DocPath } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import { isPlainObject, type JsonObject } from '../../../util/json.js';
import type { ActionResult } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { rowReality } from '../../heat/row-reality.js';
import { getServer } from '../../openstack/nova/compute.js';
import { INSTANCE_PROPERTIES } from '../ec2/instance-schema.js';

export const LAUNCH_CONFIGURATION = 'AWS::AutoScaling::LaunchConfiguration';

/** Row data key: what an InstanceId's server gave the properties the template left out (Heat's rebuild). */
export const FROM_INSTANCE_KEY = 'from_instance';

const notImplemented = () => P.string({ description: 'Not Implemented.', implemented: false });

/** Heat's validate: a block device is a snapshot, and without InstanceId an image and a flavor are given. */
function validate(properties: Record<string, Value>, path: DocPath): void {
  const mappings = Array.isArray(properties.BlockDeviceMappings) ? properties.BlockDeviceMappings : [];
  for (const mapping of mappings) {
    const ebs = isPlainObject(mapping) ? mapping.Ebs : undefined;
    if (!isPlainObject(ebs)) {
      throw new TemplateError(
        'property',
        'Ebs is missing, this is required when specifying BlockDeviceMappings.',
        [...path, 'BlockDeviceMappings'],
      );
    }
    if (!ebs.SnapshotId) {
      throw new TemplateError(
        'property',
        'SnapshotId is missing, this is required when specifying BlockDeviceMappings.',
        [...path, 'BlockDeviceMappings'],
      );
    }
  }
  if (!properties.InstanceId && (!properties.ImageId || !properties.InstanceType)) {
    throw new TemplateError(
      'property',
      'If without InstanceId, ImageId and InstanceType are required.',
      path,
    );
  }
}

/**
 * AWS::AutoScaling::LaunchConfiguration: only a definition, as in Heat (nothing is created in the
 * cloud). Its Ref is its physical name; the groups naming it build their AWS::EC2::Instance members
 * from its properties (heat/instance-members.ts). Every property change replaces it, so a group
 * sees a new name and rolls its members. With InstanceId, the create reads that server's image,
 * flavor, key and security groups for the properties the template left out.
 */
export const launchConfigurationPlugin: CatalogPlugin = {
  type: LAUNCH_CONFIGURATION,
  inRow: true,
  description: 'The definition of the instances an AWS AutoScalingGroup or an InstanceGroup launches.',
  properties: {
    ImageId: P.string({ description: 'Glance image ID or name.', constraints: [C.custom('glance.image')] }),
    InstanceType: P.string({
      description: 'Nova instance type (flavor).',
      constraints: [C.custom('nova.flavor')],
    }),
    KeyName: INSTANCE_PROPERTIES.KeyName!,
    UserData: INSTANCE_PROPERTIES.UserData!,
    SecurityGroups: INSTANCE_PROPERTIES.SecurityGroups!,
    KernelId: notImplemented(),
    RamDiskId: notImplemented(),
    BlockDeviceMappings: INSTANCE_PROPERTIES.BlockDeviceMappings!,
    NovaSchedulerHints: INSTANCE_PROPERTIES.NovaSchedulerHints!,
    InstanceId: P.string({
      description:
        'The ID of an existing instance whose image, flavor, key and security groups the ' +
        'properties not given are taken from.',
      constraints: [C.custom('nova.server')],
    }),
  },
  attributes: {},

  validate,

  async create(ctx, properties): Promise<ActionResult> {
    const physicalId = physicalResourceName(ctx);
    const instanceId = typeof properties.InstanceId === 'string' ? properties.InstanceId : '';
    if (!instanceId) return { physicalId };
    const server = await getServer(ctx, instanceId);
    const fromInstance: JsonObject = {
      ImageId: server.image === '' ? null : server.image.id,
      InstanceType: server.flavor.original_name ?? server.flavor.id ?? null,
      KeyName: server.key_name,
      SecurityGroups: ((server as { security_groups?: { name: string }[] }).security_groups ?? []).map(
        (g) => g.name,
      ),
    };
    return { physicalId, data: { [FROM_INSTANCE_KEY]: fromInstance } };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute() {
    return null;
  },
};
