import type { Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import type { JsonObject } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NoActionRequired, type SignalContext } from '../contract.js';
import { uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';
import {
  ADJUSTMENT_TYPES,
  type AdjustmentType,
  bounds,
  CAPACITY_KEY,
  groupCapacity,
  newCapacity,
  sizeKeysOf,
} from './scaling.js';

/** Row data key: when the policy last scaled its group (ms), for its cooldown. */
const LAST_SCALED_KEY = 'last_scaled';

/** An alarm's notification whose state is not `alarm` asks for nothing (as in Heat). */
function notAlarming(details: JsonObject | null): string | undefined {
  const current = details?.current;
  if (typeof current !== 'string' || current.toLowerCase() === 'alarm') return undefined;
  return current;
}

/** What a policy asks of its group (OS::Heat's and AWS's names read into one). */
export interface ScalingRequest {
  /** The group's reference id, or its name. */
  group: string;
  type: AdjustmentType;
  adjustment: number;
  minStep: number | undefined;
  /** Seconds after the policy's last adjustment during which its signals ask nothing. */
  cooldown: number;
}

/**
 * A policy's signal: unless the alarm is not alarming or the policy is in its cooldown, the
 * group's new capacity is written as its desired state (SignalContext.adjustResource).
 */
export function scaleGroup(ctx: SignalContext, details: JsonObject | null, request: ScalingRequest): string {
  const state = notAlarming(details);
  if (state !== undefined) throw new NoActionRequired(`alarm state is ${state}`);
  const last = ctx.data[LAST_SCALED_KEY];
  if (request.cooldown > 0 && typeof last === 'number' && ctx.now() < last + request.cooldown * 1000) {
    throw new NoActionRequired('the policy is in cooldown');
  }
  const { type, adjustment, minStep } = request;
  ctx.adjustResource(request.group, (group) => {
    const keys = sizeKeysOf(group.type);
    if (!keys) return undefined;
    const current = groupCapacity(group.properties as Record<string, Value>, group.data, keys);
    const { min, max } = bounds(group.properties, keys);
    return { [CAPACITY_KEY]: newCapacity(current, adjustment, type, minStep, min, max) };
  });
  ctx.setData({ [LAST_SCALED_KEY]: ctx.now() });
  return `${type} ${adjustment}`;
}

/**
 * OS::Heat::ScalingPolicy: a signal (an alarm's, or `stack resource signal`) adjusts its group's
 * capacity by `scaling_adjustment` of `adjustment_type` (scaling.ts), unless within `cooldown`
 * seconds of its last adjustment. The new capacity is the group's desired state, written with the
 * signal and converged like a user's update (SignalContext.adjustResource): a signal never waits
 * for, fails, or is lost behind an update that is running.
 */
export const scalingPolicyPlugin: CatalogPlugin = {
  type: 'OS::Heat::ScalingPolicy',
  inRow: true,
  description: 'A resource to manage scaling of `OS::Heat::AutoScalingGroup`.',
  properties: {
    auto_scaling_group_id: P.string({
      description: 'AutoScaling group ID to apply policy to.',
      required: true,
    }),
    adjustment_type: P.string({
      description: 'Type of adjustment (absolute or percentage).',
      required: true,
      updateAllowed: true,
      constraints: [C.allowedValues([...ADJUSTMENT_TYPES])],
    }),
    scaling_adjustment: P.number({ description: 'Size of adjustment.', required: true, updateAllowed: true }),
    cooldown: P.number({ description: 'Cooldown period, in seconds.', updateAllowed: true }),
    min_adjustment_step: P.integer({
      description:
        'Minimum number of resources that are added or removed when the AutoScaling group scales ' +
        'up or down. This can be used only when specifying percent_change_in_capacity for the ' +
        'adjustment_type property.',
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
  },
  attributes: {
    alarm_url: attr('A signed url to handle the alarm: a POST to it needs no credentials.', 'string'),
    signal_url: attr(
      'A url to handle the alarm using native API (a POST with a token, e.g. a signal token).',
      'string',
    ),
  },

  async create(ctx) {
    return { physicalId: uuidFrom(ctx.idempotencyKey) };
  },
  async delete() {
    return {};
  },
  observes: false,
  getReality: rowReality,
  async attribute(ctx, name) {
    const credentials = ctx.signalCredentials();
    if (!credentials) return null;
    if (name === 'alarm_url') return credentials.alarmUrl;
    if (name === 'signal_url') return credentials.endpoint;
    return null;
  },

  async handleSignal(ctx, details) {
    const props = ctx.storedProperties ?? {};
    return scaleGroup(ctx, details, {
      group: String(props.auto_scaling_group_id),
      type: props.adjustment_type as AdjustmentType,
      adjustment: Number(props.scaling_adjustment),
      minStep: typeof props.min_adjustment_step === 'number' ? props.min_adjustment_step : undefined,
      cooldown: typeof props.cooldown === 'number' ? props.cooldown : 0,
    });
  },
};
