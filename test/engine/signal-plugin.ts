import {
  type ActionResult,
  NoActionRequired,
  type PollResult,
  type ResourcePlugin,
  type SignalContext,
} from '../../src/resources/contract.js';
import type { Value } from '../../src/template/functions/types.js';
import { P } from '../../src/template/properties/index.js';
import type { Json, JsonObject } from '../../src/util/json.js';

export const SIGNALLED = 'Test::Signalled';

/** A call of the handler, as the test sees it. */
export interface SignalCall {
  signalId: string;
  details: JsonObject | null;
  /** The resource's data the handler was given. */
  data: JsonObject;
}

/** An operation that waits `secs` (fake time) before it completes. */
function waitFor(ctx: { now(): number }, secs: Value | undefined): ActionResult {
  return typeof secs === 'number' && secs > 0 ? { progress: { until: ctx.now() + secs * 1000 } } : {};
}

function poll(ctx: { now(): number }, progress: Json, data?: JsonObject): PollResult {
  const until = (progress as { until: number }).until;
  return ctx.now() >= until ? { done: true, ...(data ? { data } : {}) } : { done: false, progress };
}

/**
 * A resource type that handles signals, for tests only (no built-in type does yet): it appends
 * each signal's data to `signals` in its persisted data. Data `{say: text}` makes the handler
 * return text, `{fail: true}` throw, `{ignore: true}` throw NoActionRequired.
 */
export class SignalProbe {
  readonly calls: SignalCall[] = [];
  /** Runs inside the handler once it has recorded its change (e.g. to write the row meanwhile). */
  during?: (ctx: SignalContext) => Promise<void>;
  /** Runs inside an update's completion check, between the engine's read of the row and its write. */
  duringUpdate?: () => Promise<void>;

  readonly plugin: ResourcePlugin = {
    type: SIGNALLED,
    description: 'Records the signals it receives (tests only).',
    properties: {
      value: P.string({ updateAllowed: true }),
      update_wait_secs: P.number({ updateAllowed: true }),
      delete_wait_secs: P.number({ updateAllowed: true }),
    },
    attributes: {},
    create: async (ctx) => ({ physicalId: `signalled-${ctx.idempotencyKey}` }),
    update: async (ctx, properties) => waitFor(ctx, properties.update_wait_secs),
    checkUpdateComplete: async (ctx, progress) => {
      await this.duringUpdate?.();
      return poll(ctx, progress, { updated: true });
    },
    delete: async (ctx) => waitFor(ctx, ctx.storedProperties?.delete_wait_secs),
    checkDeleteComplete: async (ctx, progress) => poll(ctx, progress),
    getReality: async (ctx) => ({ state: 'present', properties: { ...(ctx.storedProperties ?? {}) } }),
    attribute: async () => null,
    handleSignal: async (ctx, details) => {
      this.calls.push({ signalId: ctx.signalId, details, data: { ...ctx.data } });
      const seen = Array.isArray(ctx.data.signals) ? ctx.data.signals : [];
      ctx.setData({ signals: [...seen, details] });
      await this.during?.(ctx);
      if (details?.fail) throw new Error('cannot take it');
      if (details?.ignore) throw new NoActionRequired();
      return typeof details?.say === 'string' ? details.say : undefined;
    },
  };
}
