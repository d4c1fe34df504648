import type { Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { type ActionResult, type PluginContext, ResourceFailure } from '../contract.js';
import { HANDLE_TYPES, signalsData, startWaiting, waitConditionLifecycle } from '../wait-condition-base.js';

/**
 * Finds the handle `handle` names (its reference id, or a name) and starts waiting on it (create,
 * and update as Heat does: the signals received so far count again, with a new timeout).
 */
async function start(ctx: PluginContext, properties: Record<string, Value>): Promise<ActionResult> {
  const ref = String(properties.handle);
  const handle = await ctx.readResource(ref);
  if (!handle || !HANDLE_TYPES.includes(handle.type)) {
    throw new ResourceFailure(`${handle?.name ?? ref} is not a valid wait condition handle.`);
  }
  return startWaiting(ctx, handle, Number(properties.count ?? 1), Number(properties.timeout));
}

/**
 * OS::Heat::WaitCondition: stays CREATE_IN_PROGRESS until its handle (an
 * OS::Heat::WaitConditionHandle, or an AWS one) has received `count` signals, failing at the first FAILURE signal
 * or after `timeout` seconds. The wait is persisted polling parked on the handle's signals: no
 * worker waits, and a signal wakes it at once. Its `data` attribute is cached when the wait ends
 * (Heat reads it afresh each time); deleting it leaves the handle's signals (Heat clears them).
 */
export const waitConditionPlugin: CatalogPlugin = {
  type: 'OS::Heat::WaitCondition',
  description:
    'Resource for handling signals received by WaitConditionHandle. Resource takes ' +
    'WaitConditionHandle and starts to create. Resource is in CREATE_IN_PROGRESS status until ' +
    "WaitConditionHandle doesn't receive sufficient number of successful signals (this number can " +
    'be specified with count property) and successfully creates after that, or fails due to timeout.',
  supportStatus: { version: '2014.2' },
  properties: {
    handle: P.string({
      description: 'A reference to the wait condition handle used to signal this wait condition.',
      required: true,
    }),
    timeout: P.number({
      description: 'The number of seconds to wait for the correct number of signals to arrive.',
      required: true,
      constraints: [C.range({ min: 1, max: 43200 })],
    }),
    count: P.integer({
      description:
        'The number of success signals that must be received before the stack creation process continues.',
      default: 1,
      constraints: [C.range({ min: 1 })],
      updateAllowed: true,
    }),
  },
  attributes: {
    data: attr(
      'JSON string containing data associated with wait condition signals sent to the handle.',
      'string',
    ),
  },

  ...waitConditionLifecycle(start),

  /** `data`: the signals' data by id, in the order the ids first arrived, as Heat's JSON text. */
  async attribute(ctx, name, properties) {
    if (name !== 'data') return null;
    const handle = typeof ctx.data.handle === 'string' ? ctx.data.handle : String(properties.handle);
    return signalsData(await ctx.readResource(handle));
  },
};
