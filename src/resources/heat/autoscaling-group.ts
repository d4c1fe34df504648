import type { DocPath } from '../../template/errors.js';
import { TemplateError } from '../../template/errors.js';
import { isUnknown, type Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';
import { isPause } from './batches.js';
import { memberAttributes } from './member-attributes.js';
import { bounds, groupCapacity } from './scaling.js';
import { scaledChild } from './scaled-group.js';

const TYPE = 'OS::Heat::AutoScalingGroup';

const OWN: readonly string[] = ['outputs', 'outputs_list', 'current_size', 'refs', 'refs_map'];
const members = memberAttributes(['current_size']);

/** Reads the cached attributes: Heat's outputs (a map per attribute) and outputs_list (a list). */
function readAttribute(cached: Readonly<Record<string, Json>>, name: string | undefined): Json | undefined {
  if (name === 'outputs') return members.read(cached, 'attributes');
  if (name === 'outputs_list') {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(cached)) {
      if (Array.isArray(value) && !OWN.includes(key) && !key.startsWith('OS::')) setOwn(out, key, value);
    }
    return out;
  }
  return members.read(cached, name);
}

function checkBounds(properties: Record<string, Value>, path: DocPath): void {
  const { min_size: min, max_size: max, desired_capacity: desired } = properties;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    throw new TemplateError('property', 'min_size can not be greater than max_size', [...path, 'min_size']);
  }
  if (typeof desired === 'number' && !isUnknown(min) && !isUnknown(max)) {
    const { min: lo, max: hi } = bounds(properties);
    if (desired < lo || desired > hi) {
      throw new TemplateError('property', `desired_capacity must be between ${lo} and ${hi}, inclusive`, [
        ...path,
        'desired_capacity',
      ]);
    }
  }
}

/**
 * OS::Heat::AutoScalingGroup: a child stack of identical members (`resource`), as many as the
 * group's capacity: desired_capacity (or min_size) at first, then what ScalingPolicy signals set
 * (scaling.ts), always within [min_size, max_size]. Growing adds newly named members; shrinking
 * removes the oldest first, as Heat does. Attributes are cached from the members once the child is
 * done, in the compact form of member-attributes.ts.
 */
export const autoScalingGroupPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: TYPE,
  description: 'An autoscaling group that can scale arbitrary resources.',
  supportStatus: { version: '2014.1' },
  properties: {
    resource: P.map({
      description: 'Resource definition for the resources in the group, in HOT format.',
      required: true,
      updateAllowed: true,
    }),
    max_size: P.integer({
      description: 'Maximum number of resources in the group.',
      required: true,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
    min_size: P.integer({
      description: 'Minimum number of resources in the group.',
      required: true,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
    cooldown: P.integer({ description: 'Cooldown period, in seconds.', updateAllowed: true }),
    desired_capacity: P.integer({ description: 'Desired initial number of resources.', updateAllowed: true }),
    rolling_updates: P.map({
      description: 'Policy for rolling updates for this scaling group.',
      updateAllowed: true,
      default: { min_in_service: 0, max_batch_size: 1, pause_time: 0 },
      schema: {
        min_in_service: P.integer({
          description: 'The minimum number of resources in service.',
          default: 0,
          constraints: [C.range({ min: 0 })],
        }),
        max_batch_size: P.integer({
          description: 'The maximum number of resources to replace at once.',
          default: 1,
          constraints: [C.range({ min: 1 })],
        }),
        pause_time: P.number({
          description: 'The number of seconds to wait between batches.',
          default: 0,
          constraints: [C.range({ min: 0 })],
        }),
      },
    }),
  },
  attributes: {
    outputs: attr('A map of resource names to the specified attribute of each individual resource.', 'map'),
    outputs_list: attr('A list of the specified attribute of each individual resource.', 'list'),
    current_size: attr('The current size of AutoscalingResourceGroup.', 'integer'),
    refs: attr('A list of resource IDs for the resources in the group.', 'list'),
    refs_map: attr('A map of resource names to IDs for the resources in the group.', 'map'),
  },
  dynamicAttribute: (name) => !OWN.includes(name),
  readAttribute,

  validate(properties: Record<string, Value>, path: DocPath): void {
    checkBounds(properties, path);
  },

  nested: {
    child(properties, data, options = {}) {
      const member = isPlainObject(properties.resource) ? (properties.resource as JsonObject) : {};
      const desired = typeof properties.desired_capacity === 'number' ? properties.desired_capacity : null;
      const capacity = groupCapacity(properties, data);
      return scaledChild(
        { capacity, member, rollingUpdate: properties.rolling_updates, desired },
        data,
        options,
      );
    },
    attributes: (view) => {
      const kept = view.members.filter((m) => !isPause(m.name));
      return members.cache({ ...view, members: kept }, { current_size: kept.length });
    },
  },
};
