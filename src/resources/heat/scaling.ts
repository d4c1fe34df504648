import type { Value } from '../../template/functions/types.js';
import type { JsonObject } from '../../util/json.js';

/*
 * Capacity rules shared by OS::Heat::AutoScalingGroup (which sizes its child from them) and
 * OS::Heat::ScalingPolicy (which changes them by signal).
 */

export const ADJUSTMENT_TYPES = [
  'change_in_capacity',
  'exact_capacity',
  'percent_change_in_capacity',
] as const;
export type AdjustmentType = (typeof ADJUSTMENT_TYPES)[number];

/** Row data keys of a group: the capacity scaling set, and the desired_capacity it last followed. */
export const CAPACITY_KEY = 'capacity';
export const DESIRED_SEEN_KEY = 'desired_capacity_seen';

/**
 * The new capacity after an adjustment, kept within [minimum, maximum] (Heat's
 * scalingutil.calculate_new_capacity): a percentage rounds away from zero below one member and
 * towards zero above, then is raised to `minStep` members if it moves fewer.
 */
export function newCapacity(
  current: number,
  adjustment: number,
  type: AdjustmentType,
  minStep: number | undefined,
  minimum: number,
  maximum: number,
): number {
  let capacity: number;
  if (type === 'change_in_capacity') capacity = current + adjustment;
  else if (type === 'exact_capacity') capacity = adjustment;
  else {
    const delta = (current * adjustment) / 100;
    let rounded =
      Math.abs(delta) < 1 ? (delta > 0 ? Math.ceil(delta) : Math.floor(delta)) : Math.trunc(delta);
    if (minStep && minStep > Math.abs(rounded)) rounded = rounded > 0 ? minStep : -minStep;
    capacity = current + rounded;
  }
  return Math.min(maximum, Math.max(minimum, capacity));
}

function int(value: Value | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : undefined;
}

/** The property names a group type gives its bounds and desired size. */
export interface SizeKeys {
  min: string;
  max: string;
  desired: string;
}

export const HOT_SIZE_KEYS: SizeKeys = { min: 'min_size', max: 'max_size', desired: 'desired_capacity' };
/** AWS::AutoScaling::AutoScalingGroup's. */
export const CFN_SIZE_KEYS: SizeKeys = { min: 'MinSize', max: 'MaxSize', desired: 'DesiredCapacity' };

/** The size properties of a group type a scaling policy can scale; undefined for any other type. */
export function sizeKeysOf(type: string): SizeKeys | undefined {
  if (type === 'OS::Heat::AutoScalingGroup') return HOT_SIZE_KEYS;
  if (type === 'AWS::AutoScaling::AutoScalingGroup') return CFN_SIZE_KEYS;
  return undefined;
}

function own(properties: Readonly<Record<string, Value>>, key: string): Value | undefined {
  return Object.hasOwn(properties, key) ? properties[key] : undefined;
}

export function bounds(
  properties: Readonly<Record<string, Value>>,
  keys: SizeKeys = HOT_SIZE_KEYS,
): { min: number; max: number } {
  const min = int(own(properties, keys.min)) ?? 0;
  return { min, max: Math.max(min, int(own(properties, keys.max)) ?? min) };
}

/**
 * The size a group converges to: what scaling last set, unless the template's desired_capacity
 * changed since the group last followed it (a user's new desired state wins; an update that leaves
 * it as it was keeps the scaled size), within [min_size, max_size].
 */
export function groupCapacity(
  properties: Readonly<Record<string, Value>>,
  data: Readonly<JsonObject>,
  keys: SizeKeys = HOT_SIZE_KEYS,
): number {
  const { min, max } = bounds(properties, keys);
  const desired = int(own(properties, keys.desired));
  const scaled = int(data[CAPACITY_KEY] as Value);
  const followed = data[DESIRED_SEEN_KEY] ?? null;
  let capacity = scaled ?? desired ?? min;
  if (desired !== undefined && followed !== desired) capacity = desired;
  return Math.min(max, Math.max(min, capacity));
}
