import type { Json } from '../../../util/json.js';
import type { ActionResult } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { uuidFrom } from '../../heat/physical-name.js';
import { rowReality } from '../../heat/row-reality.js';
import {
  AWS_WAIT_CONDITION_HANDLE,
  mergeSignal,
  receivedSignals,
  type SignalKeys,
  signalReason,
} from '../../wait-condition-base.js';

/** The keys of cfn-signal's body, every one of them required (Heat's AWS METADATA_KEYS). */
const KEYS: SignalKeys = { id: 'UniqueId', status: 'Status', reason: 'Reason', data: 'Data' };

/**
 * AWS::CloudFormation::WaitConditionHandle: its reference (`Ref`, get_resource) is a pre-signed
 * URL that `cfn-signal`, or curl with cfn-signal's JSON body, PUTs or POSTs to without any other
 * credential; an AWS::CloudFormation::WaitCondition (or an OS::Heat one) waits for its signals.
 * The URL is made once, at create, and kept in the row's data (Heat keeps its `ec2_signed_url`);
 * it names the handle by its stack's ARN and carries its physical id and a signature, so it works
 * while this handle lives and a replacement gets another. Without a signing key (tests), the
 * reference is the resource's name, as Heat's is before it has a physical id.
 */
export const awsWaitConditionHandlePlugin: CatalogPlugin = {
  type: AWS_WAIT_CONDITION_HANDLE,
  inRow: true,
  description:
    'A URL that instances signal (cfn-signal) to report that they are ready; a WaitCondition ' +
    'given the URL waits for those signals.',
  supportStatus: { version: '2014.1' },
  properties: {},
  attributes: {},

  async create(ctx): Promise<ActionResult> {
    const physicalId = uuidFrom(ctx.idempotencyKey);
    const url = ctx.signalCredentials()?.waitConditionUrl(physicalId);
    return url === undefined ? { physicalId } : { physicalId, data: { url } };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute() {
    return null;
  },

  referenceId(ctx) {
    return typeof ctx.data.url === 'string' ? ctx.data.url : ctx.resourceName;
  },

  /** Heat's AWS handle ignores a signal without a body; anything else is merged by its UniqueId. */
  async handleSignal(ctx, details) {
    if (details === null) return;
    const { signals, signal } = mergeSignal(receivedSignals(ctx.data), details, KEYS);
    ctx.setData({ signals: signals as unknown as Json });
    return signalReason(signal);
  },
};
