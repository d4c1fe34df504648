import { type Json, type JsonObject, pyJsonDumps } from '../util/json.js';
import type { Value } from '../template/functions/types.js';
import {
  type ActionResult,
  type PeerResource,
  type PluginContext,
  type PollResult,
  ResourceFailure,
  type ResourcePlugin,
} from './contract.js';
import { uuidFrom } from './heat/physical-name.js';
import { rowReality } from './heat/row-reality.js';

/**
 * What every wait condition handle and wait condition shares (Heat's resources/wait_condition.py):
 * a handle keeps the signals it received by id; a condition waits, as persisted polling parked on
 * the handle's signals, until `count` of them arrived, failing at the first FAILURE or when its
 * timeout passes. The OS::Heat and AWS::CloudFormation types differ in the signal's key names,
 * whether missing keys take defaults, and how a condition names its handle.
 */

export const HEAT_WAIT_CONDITION_HANDLE = 'OS::Heat::WaitConditionHandle';
export const AWS_WAIT_CONDITION_HANDLE = 'AWS::CloudFormation::WaitConditionHandle';
export const UPDATE_WAIT_CONDITION_HANDLE = 'OS::Heat::UpdateWaitConditionHandle';

/** The AWS handle and the one built on it (Heat: subclasses of aws WaitConditionHandle). */
export const AWS_HANDLE_TYPES: readonly string[] = [AWS_WAIT_CONDITION_HANDLE, UPDATE_WAIT_CONDITION_HANDLE];

/** Every handle type (Heat: subclasses of BaseWaitConditionHandle), which OS::Heat::WaitCondition takes. */
export const HANDLE_TYPES: readonly string[] = [HEAT_WAIT_CONDITION_HANDLE, ...AWS_HANDLE_TYPES];

/** One signal a handle received, as it keeps it (Heat: an entry of the resource's metadata, by id). */
export interface WaitSignal {
  id: string;
  status: 'SUCCESS' | 'FAILURE';
  reason: Json;
  data: Json;
}

/** The names a signal's four keys have in one flavour of handle (Heat's METADATA_KEYS). */
export interface SignalKeys {
  id: string;
  status: string;
  reason: string;
  data: string;
}

/** The signals a handle has received (from its data), in the order their ids first arrived. */
export function receivedSignals(data: Readonly<JsonObject>): WaitSignal[] {
  return Array.isArray(data.signals) ? (data.signals as unknown as WaitSignal[]) : [];
}

/** Python's str() of a JSON value, as Heat turns an id or a reason into text. */
export function pyStr(value: Json): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'number' ? String(value) : pyJsonDumps(value);
}

/**
 * Heat's merge of one signal into a handle's signals: the body must have exactly the four keys
 * and a status of SUCCESS or FAILURE, else "Metadata format invalid". A signal whose id was seen
 * replaces that entry in place.
 */
export function mergeSignal(
  signals: readonly WaitSignal[],
  body: Readonly<JsonObject>,
  keys: SignalKeys,
): { signals: WaitSignal[]; signal: WaitSignal } {
  const wanted = [keys.data, keys.id, keys.reason, keys.status].sort();
  const given = Object.keys(body).sort();
  const status = body[keys.status];
  if (
    given.length !== wanted.length ||
    given.some((k, i) => k !== wanted[i]) ||
    (status !== 'SUCCESS' && status !== 'FAILURE')
  ) {
    throw new ResourceFailure('Metadata format invalid');
  }
  const signal: WaitSignal = {
    id: pyStr(body[keys.id] ?? null),
    status,
    reason: body[keys.reason] ?? null,
    data: body[keys.data] ?? null,
  };
  const at = signals.findIndex((s) => s.id === signal.id);
  const next = at < 0 ? [...signals, signal] : signals.map((s, i) => (i === at ? signal : s));
  return { signals: next, signal };
}

/** The text of a handled signal's event (Heat's handle_signal answer). */
export function signalReason(signal: WaitSignal): string {
  return `status:${signal.status} reason:${pyStr(signal.reason)}`;
}

/** A wait condition's `data` attribute: the signals' data by id, in arrival order, as Heat's JSON text. */
export function signalsData(handle: PeerResource | undefined): string {
  const signals = receivedSignals(handle?.data ?? {});
  return `{${signals.map((s) => `${pyJsonDumps(s.id)}: ${pyJsonDumps(s.data)}`).join(', ')}}`;
}

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
 * Starts waiting on `handle` (create, and update as Heat does: the signals received so far count
 * again, with a new timeout); the first poll reads its signals. Reading them only once the poll is
 * parked on the handle's signals means none can arrive unnoticed in between.
 */
export function startWaiting(
  ctx: PluginContext,
  handle: PeerResource,
  count: number,
  timeoutSeconds: number,
): ActionResult {
  const progress: WaitProgress = { handle: handle.name, count, deadline: ctx.now() + timeoutSeconds * 1000 };
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
export async function pollWait(ctx: PluginContext, state: Json): Promise<PollResult> {
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
 * A wait condition's life, the same for the OS::Heat and AWS::CloudFormation types: `start` finds
 * the handle its properties name and starts waiting (create, and an update waits again: the signals
 * received so far count, with a new timeout); nothing is made in the cloud, nothing is deleted;
 * its reference is its name.
 */
export function waitConditionLifecycle(
  start: (ctx: PluginContext, properties: Record<string, Value>) => Promise<ActionResult>,
): Pick<
  ResourcePlugin,
  | 'create'
  | 'checkCreateComplete'
  | 'update'
  | 'checkUpdateComplete'
  | 'delete'
  | 'observes'
  | 'getReality'
  | 'referenceId'
> {
  return {
    async create(ctx, properties) {
      // Heat sets no physical id (a reference gives the name); the engine needs one.
      return { ...(await start(ctx, properties)), physicalId: uuidFrom(ctx.idempotencyKey) };
    },
    checkCreateComplete: pollWait,
    update: start,
    checkUpdateComplete: pollWait,
    async delete() {
      return {};
    },
    observes: false,
    getReality: rowReality,
    referenceId(ctx) {
      return ctx.resourceName;
    },
  };
}
