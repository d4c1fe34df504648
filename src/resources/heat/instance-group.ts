import type { Value } from '../../template/functions/types.js';
import { P } from '../../template/properties/index.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';
import {
  INSTANCE_LIST,
  instanceListAttributes,
  instanceMember,
  rollingUpdateOf,
  TAGS_PROPERTY,
} from './instance-members.js';
import { scaledChild } from './scaled-group.js';

const ref = (properties: Record<string, Value>) => String(properties.LaunchConfigurationName ?? '');

/**
 * OS::Heat::InstanceGroup: `Size` AWS::EC2::Instance members made from a launch configuration,
 * a child stack as OS::Heat::AutoScalingGroup's (scaled-group.ts): a new Size adds members or
 * removes the oldest, a new launch configuration replaces the members in the batches of the
 * UpdatePolicy's RollingUpdate. No policy scales it (Heat's AWS group adds that).
 */
export const instanceGroupPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: 'OS::Heat::InstanceGroup',
  description: 'A group of AWS::EC2::Instance resources of one launch configuration.',
  properties: {
    AvailabilityZones: P.list({ description: 'Not Implemented.', required: true }),
    LaunchConfigurationName: P.string({
      description: 'The reference to a LaunchConfiguration resource.',
      required: true,
      updateAllowed: true,
    }),
    Size: P.integer({ description: 'Desired number of instances.', required: true, updateAllowed: true }),
    LoadBalancerNames: P.list({ description: 'List of LoadBalancer resources.' }),
    Tags: TAGS_PROPERTY,
  },
  attributes: INSTANCE_LIST,

  nested: {
    peer: ref,
    child(properties, data, options = {}) {
      const member = instanceMember(options.peer, ref(properties), { tags: properties.Tags });
      const size = typeof properties.Size === 'number' ? Math.max(0, Math.trunc(properties.Size)) : 0;
      const rollingUpdate = rollingUpdateOf(options.updatePolicy, 'RollingUpdate');
      return scaledChild({ capacity: size, member, rollingUpdate, desired: size }, data, options);
    },
    attributes: instanceListAttributes,
  },
};
