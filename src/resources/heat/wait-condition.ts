import type { Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import { type Json, pyJsonDumps } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { type ActionResult, type PluginContext, type PollResult, ResourceFailure } from '../contract.js';
import { uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';
import { pyStr, receivedSignals, WAIT_CONDITION_HANDLE, type WaitSignal } from './wait-condition-handle.js';

/**
 * The longest a waiting condition stays parked without looking: a signal to its handle wakes it
 * at once (PollResult.wakeOnSignalTo), so this only bounds the cost of a wake-up never delivered.
 */
const LONGEST_PARK_MS = 60_000;

/** What a wait carries between its polls. */
interface WaitProgress {
  /** The handle's resource name. */
  handle: string;
  count: number;
  /** When the wait times out (ms since the epoch). */
  deadline: number;
}

/**
 * Starts waiting (create, and update as Heat does: the signals received so far count again, with
 * a new timeout): finds the handle, then lets the first poll read its signals. Reading them only
 * once the poll is parked on the handle's signals means none can arrive unnoticed in between.
 */
async function startWaiting(ctx: PluginContext, properties: Record<string, Value>): Promise<ActionResult> {
  const ref = String(properties.handle);
  const handle = await ctx.readResource(ref);
  if (!handle || handle.type !== WAIT_CONDITION_HANDLE) {
    throw new ResourceFailure(`${handle?.name ?? ref} is not a valid wait condition handle.`);
  }
  const progress: WaitProgress = {
    handle: handle.name,
    count: Number(properties.count ?? 1),
    deadline: ctx.now() + Number(properties.timeout) * 1000,
  };
  return {
    data: { handle: handle.name },
    progress: progress as unknown as Json,
    pollAfterMs: 0,
    wakeOnSignalTo: handle.name,
  };
}

/**
 * One look at the handle's signals: a FAILURE fails the wait with the failures' reasons, `count`
 * signals complete it, and the timeout fails it. Heat looks at the clock first; here the signals
 * come first, so that a wait polled late (its engine was down) still counts signals that arrived
 * in time.
 */
async function poll(ctx: PluginContext, state: Json): Promise<PollResult> {
  const progress = state as unknown as WaitProgress;
  const signals = receivedSignals((await ctx.readResource(progress.handle))?.data ?? {});
  const failed = reasons(signals, 'FAILURE');
  if (failed.length > 0) {
    throw new ResourceFailure(failed.join(';'), { heatClass: 'WaitConditionFailure' });
  }
  if (signals.length >= progress.count) return { done: true };
  const left = progress.deadline - ctx.now();
  if (left <= 0) {
    const received = reasons(signals, 'SUCCESS');
    const summary = `${received.length} of ${progress.count} received`;
    throw new ResourceFailure(received.length > 0 ? `${summary} - ${received.join(';')}` : summary, {
      heatClass: 'WaitConditionTimeout',
    });
  }
  return {
    done: false,
    progress: state,
    pollAfterMs: Math.min(left, LONGEST_PARK_MS),
    wakeOnSignalTo: progress.handle,
  };
}

function reasons(signals: readonly WaitSignal[], status: WaitSignal['status']): string[] {
  return signals.filter((s) => s.status === status).map((s) => pyStr(s.reason));
}

/**
 * OS::Heat::WaitCondition: stays CREATE_IN_PROGRESS until its handle (an
 * OS::Heat::WaitConditionHandle) has received `count` signals, failing at the first FAILURE signal
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

  async create(ctx, properties) {
    // Heat sets no physical id (get_resource gives the name); the engine needs one.
    return { ...(await startWaiting(ctx, properties)), physicalId: uuidFrom(ctx.idempotencyKey) };
  },
  checkCreateComplete: poll,
  update: startWaiting,
  checkUpdateComplete: poll,

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  /** `data`: the signals' data by id, in the order the ids first arrived, as Heat's JSON text. */
  async attribute(ctx, name, properties) {
    if (name !== 'data') return null;
    const handle = typeof ctx.data.handle === 'string' ? ctx.data.handle : String(properties.handle);
    const signals = receivedSignals((await ctx.readResource(handle))?.data ?? {});
    return `{${signals.map((s) => `${pyJsonDumps(s.id)}: ${pyJsonDumps(s.data)}`).join(', ')}}`;
  },

  referenceId(ctx) {
    return ctx.resourceName;
  },
};
