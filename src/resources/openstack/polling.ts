import type { Json } from '../../util/json.js';
import {
  type ActionResult,
  type PluginContext,
  type PollResult,
  ResourceFailure,
  ResourceInError,
} from '../contract.js';

/**
 * Persisted polling of OpenStack objects whose status changes by itself (a volume `creating`, a
 * server `BUILD`): what each status means for the wait, and the results that ask to be polled again.
 */

/** How soon an object whose status is changing is looked at again (the engine backs off from it). */
export const STATUS_POLL_MS = 1000;

/** What a wait makes of an object's statuses (compared without case: Nova's are upper case). */
export interface StatusWait {
  /** For messages: "volume 1234". */
  what: string;
  /** The statuses that end the wait. */
  ready: readonly string[];
  /** The statuses the object passes through on the way. */
  pending: readonly string[];
  /** The statuses that mean it failed: deleting it and trying again may pass (ResourceInError). */
  errors?: readonly string[];
}

/**
 * True when `status` ends the wait, false while it is on the way. An error status throws
 * ResourceInError; any other throws ResourceFailure (Heat's ResourceUnknownStatus).
 */
export function reached(status: string, wait: StatusWait, reason?: string | null): boolean {
  const s = status.toLowerCase();
  const has = (list: readonly string[] | undefined) => list?.some((x) => x.toLowerCase() === s) ?? false;
  if (has(wait.ready)) return true;
  if (has(wait.pending)) return false;
  // Heat's ResourceInError and ResourceUnknownStatus texts; which object follows in parentheses.
  if (has(wait.errors)) {
    throw new ResourceInError(`Went to status ${status} due to "${reason || 'Unknown'}" (${wait.what})`);
  }
  throw new ResourceFailure(
    `Resource failed - Unknown status ${status} due to "${reason || 'Unknown'}" ` +
      `(${wait.what}, expected ${wait.ready.join(' or ')})`,
    { heatClass: 'ResourceUnknownStatus' },
  );
}

/** Not done yet: poll again with `progress`. */
export function again(progress: Json, pollAfterMs = STATUS_POLL_MS): PollResult {
  return { done: false, progress, pollAfterMs };
}

/** An action's result from the first check it made at once: done, or the progress to poll. */
export function asAction(result: PollResult): ActionResult {
  const { done, progress, pollAfterMs, ...rest } = result;
  if (done) return rest;
  return { ...rest, progress: progress ?? null, pollAfterMs: pollAfterMs ?? STATUS_POLL_MS };
}

const loaded = new WeakMap<PluginContext, Map<string, Promise<unknown>>>();

/**
 * `load()` once per plugin context: the engine reads every attribute of a resource with one
 * context after an action, so one GET serves them all. Only for attribute reads.
 */
export function oncePerContext<T>(ctx: PluginContext, key: string, load: () => Promise<T>): Promise<T> {
  let byKey = loaded.get(ctx);
  if (!byKey) loaded.set(ctx, (byKey = new Map()));
  let value = byKey.get(key) as Promise<T> | undefined;
  if (!value) {
    value = load();
    byKey.set(key, value);
    // A failed read is not kept: the next attribute asks again.
    value.catch(() => byKey.delete(key));
  }
  return value;
}
