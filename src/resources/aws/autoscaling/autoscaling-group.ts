import type { DocPath } from '../../../template/errors.js';
import { TemplateError } from '../../../template/errors.js';
import { isUnknown, type Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../../nested-type.js';
import {
  INSTANCE_LIST,
  instanceListAttributes,
  instanceMember,
  rollingUpdateOf,
  TAGS_PROPERTY,
} from '../../heat/instance-members.js';
import { scaledChild } from '../../heat/scaled-group.js';
import { CFN_SIZE_KEYS, groupCapacity } from '../../heat/scaling.js';

export const AWS_AUTOSCALING_GROUP = 'AWS::AutoScaling::AutoScalingGroup';

const ref = (properties: Record<string, Value>) =>
  typeof properties.LaunchConfigurationName === 'string' ? properties.LaunchConfigurationName : undefined;

const fail = (message: string, path: DocPath) => {
  throw new TemplateError('property', message, path);
};

/** Heat's validate of the sizes, the one subnet, and InstanceId or LaunchConfigurationName. */
function validate(properties: Record<string, Value>, path: DocPath): void {
  const { MinSize: min, MaxSize: max, DesiredCapacity: desired } = properties;
  if (typeof min === 'number' && typeof max === 'number' && max < min)
    fail('MinSize can not be greater than MaxSize', path);
  if (typeof min === 'number' && min < 0)
    fail('The size of AutoScalingGroup can not be less than zero', path);
  if (typeof desired === 'number' && typeof min === 'number' && typeof max === 'number') {
    if (desired < min || desired > max) fail('DesiredCapacity must be between MinSize and MaxSize', path);
  }
  const zones = properties.VPCZoneIdentifier;
  if (Array.isArray(zones) && zones.length > 0 && zones.length !== 1)
    fail('Anything other than one VPCZoneIdentifier is not supported', [...path, 'VPCZoneIdentifier']);
  const instance = properties.InstanceId;
  const conf = properties.LaunchConfigurationName;
  if (isUnknown(instance) || isUnknown(conf)) return;
  if (Boolean(instance) === Boolean(conf))
    fail("Either 'InstanceId' or 'LaunchConfigurationName' must be provided.", path);
}

/**
 * AWS::AutoScaling::AutoScalingGroup: Heat's AWS group, OS::Heat::AutoScalingGroup's machinery
 * (scaled-group.ts, scaling.ts) with AWS::EC2::Instance members made from its launch
 * configuration (instance-members.ts): DesiredCapacity (else MinSize) members at first, then what
 * AWS::AutoScaling::ScalingPolicy signals set, within [MinSize, MaxSize]; a new launch
 * configuration rolls through the members in AutoScalingRollingUpdate's batches. Its Ref is the
 * child stack's id, as for every nested-stack type.
 */
export const awsAutoScalingGroupPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: AWS_AUTOSCALING_GROUP,
  description: 'An autoscaling group of AWS::EC2::Instance resources made from a launch configuration.',
  supportStatus: { version: '2014.1' },
  properties: {
    AvailabilityZones: P.list({ description: 'Not Implemented.', required: true }),
    LaunchConfigurationName: P.string({
      description: 'The reference to a LaunchConfiguration resource.',
      updateAllowed: true,
    }),
    InstanceId: P.string({
      description:
        'The ID of an existing instance to make the members from instead of a launch configuration.',
      constraints: [C.custom('nova.server')],
    }),
    MaxSize: P.integer({
      description: 'Maximum number of instances in the group.',
      required: true,
      updateAllowed: true,
    }),
    MinSize: P.integer({
      description: 'Minimum number of instances in the group.',
      required: true,
      updateAllowed: true,
    }),
    Cooldown: P.integer({ description: 'Cooldown period, in seconds.', updateAllowed: true }),
    DesiredCapacity: P.integer({ description: 'Desired initial number of instances.', updateAllowed: true }),
    HealthCheckGracePeriod: P.integer({ description: 'Not Implemented.', implemented: false }),
    HealthCheckType: P.string({
      description: 'Not Implemented.',
      implemented: false,
      constraints: [C.allowedValues(['EC2', 'ELB'])],
    }),
    LoadBalancerNames: P.list({ description: 'List of LoadBalancer resources.' }),
    VPCZoneIdentifier: P.list({
      description: 'The internal subnet the instances are attached to; exactly one.',
      items: P.string({ description: 'UUID of the internal subnet to which the instance will be attached.' }),
    }),
    Tags: TAGS_PROPERTY,
  },
  attributes: INSTANCE_LIST,

  validate,

  nested: {
    peer: ref,
    child(properties, data, options = {}) {
      const conf = ref(properties);
      if (conf === undefined) {
        // Heat reads the server's image, flavor, key and groups here; Hearth's child is made
        // without a cloud call, so the launch configuration's InstanceId does that instead.
        throw new TemplateError(
          'property',
          'InstanceId is not supported on the group; give a LaunchConfiguration whose InstanceId names the server',
          ['InstanceId'],
        );
      }
      const zones = properties.VPCZoneIdentifier;
      const subnet = Array.isArray(zones) && typeof zones[0] === 'string' ? zones[0] : undefined;
      const member = instanceMember(options.peer, conf, { tags: properties.Tags, subnet });
      const capacity = groupCapacity(properties, data, CFN_SIZE_KEYS);
      const desired = typeof properties.DesiredCapacity === 'number' ? properties.DesiredCapacity : null;
      const rollingUpdate = rollingUpdateOf(options.updatePolicy, 'AutoScalingRollingUpdate');
      return scaledChild({ capacity, member, rollingUpdate, desired }, data, options);
    },
    attributes: instanceListAttributes,
  },
};
