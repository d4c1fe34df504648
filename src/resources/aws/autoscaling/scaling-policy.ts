import { TemplateError, type DocPath } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { ActionResult } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { uuidFrom } from '../../heat/physical-name.js';
import { rowReality } from '../../heat/row-reality.js';
import { scaleGroup } from '../../heat/scaling-policy.js';
import type { AdjustmentType } from '../../heat/scaling.js';

/** The CFN adjustment types and the shared capacity rules' names for them (Heat's scalingutil). */
const ADJUSTMENT: Record<string, AdjustmentType> = {
  ChangeInCapacity: 'change_in_capacity',
  ExactCapacity: 'exact_capacity',
  PercentChangeInCapacity: 'percent_change_in_capacity',
};

/** Heat's ResourcePropertyValueDependency: a minimum step means something to a percentage only. */
function validate(properties: Record<string, Value>, path: DocPath): void {
  const type = properties.AdjustmentType;
  if (
    typeof type === 'string' &&
    type !== 'PercentChangeInCapacity' &&
    typeof properties.MinAdjustmentStep === 'number'
  ) {
    throw new TemplateError(
      'property',
      'MinAdjustmentStep property should only be specified for AdjustmentType with value PercentChangeInCapacity.',
      [...path, 'MinAdjustmentStep'],
    );
  }
}

/**
 * AWS::AutoScaling::ScalingPolicy: OS::Heat::ScalingPolicy's signal (heat/scaling-policy.ts) in
 * CFN's names, for an AWS::AutoScaling::AutoScalingGroup. Its AlarmUrl, which is also its Ref, is
 * Heat's pre-signed URL on the CFN API (`/cfn/v1/signal/<arn>?AWSAccessKeyId=&Signature=`): a POST
 * to it, with no other credential, signals the policy. Made once at create and kept in the row's
 * data, it names the policy by its physical id, so a replacement's URL is another.
 */
export const awsScalingPolicyPlugin: CatalogPlugin = {
  type: 'AWS::AutoScaling::ScalingPolicy',
  inRow: true,
  description: 'A policy that scales an AWS::AutoScaling::AutoScalingGroup when its AlarmUrl is signalled.',
  properties: {
    AutoScalingGroupName: P.string({
      description: 'AutoScaling group name to apply policy to.',
      required: true,
    }),
    ScalingAdjustment: P.integer({ description: 'Size of adjustment.', required: true, updateAllowed: true }),
    AdjustmentType: P.string({
      description: 'Type of adjustment (absolute or percentage).',
      required: true,
      updateAllowed: true,
      constraints: [C.allowedValues(Object.keys(ADJUSTMENT))],
    }),
    Cooldown: P.integer({ description: 'Cooldown period, in seconds.', updateAllowed: true }),
    MinAdjustmentStep: P.integer({
      description:
        'Minimum number of resources added or removed when the group scales; only with ' +
        'PercentChangeInCapacity.',
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
  },
  attributes: {
    AlarmUrl: attr('A signed url to handle the alarm. (Heat extension).', 'string'),
  },

  validate,

  async create(ctx): Promise<ActionResult> {
    const physicalId = uuidFrom(ctx.idempotencyKey);
    const url = ctx.signalCredentials()?.cfnSignalUrl(physicalId);
    return url === undefined ? { physicalId } : { physicalId, data: { url } };
  },
  async delete() {
    return {};
  },
  observes: false,
  getReality: rowReality,

  async attribute(ctx, name) {
    return name === 'AlarmUrl' && typeof ctx.data.url === 'string' ? ctx.data.url : null;
  },

  referenceId(ctx) {
    return typeof ctx.data.url === 'string' ? ctx.data.url : ctx.resourceName;
  },

  async handleSignal(ctx, details) {
    const props = ctx.storedProperties ?? {};
    return scaleGroup(ctx, details, {
      group: String(props.AutoScalingGroupName),
      type: ADJUSTMENT[String(props.AdjustmentType)]!,
      adjustment: Number(props.ScalingAdjustment),
      minStep: typeof props.MinAdjustmentStep === 'number' ? props.MinAdjustmentStep : undefined,
      cooldown: typeof props.Cooldown === 'number' ? props.Cooldown : 0,
    });
  },
};
