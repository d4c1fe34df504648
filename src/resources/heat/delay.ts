import type { Value } from '../../template/functions/types.js';
import { C, P } from '../../template/properties/index.js';
import type { Json } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import type { ActionResult, PluginContext, PollResult } from '../contract.js';
import { uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

/** The actions Heat's Delay may wait in (it has no UPDATE: an update only stores the properties). */
const ACTIONS = ['CREATE', 'DELETE', 'SUSPEND', 'RESUME'];

/** What an action persists: when the wait ends (ms since the epoch), computed once. */
interface Wait {
  deadline: number;
}

function num(value: Value | undefined, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/** The wait of `action` in ms: min_wait plus up to max_jitter × jitter_multiplier, drawn once. */
function waitMs(ctx: PluginContext, properties: Readonly<Record<string, Value>>, action: string): number {
  const actions = Array.isArray(properties.actions) ? properties.actions : ['CREATE'];
  if (!actions.includes(action)) return 0;
  const jitter = num(properties.max_jitter, 0) * num(properties.jitter_multiplier, 1);
  return Math.round((num(properties.min_wait, 0) + jitter * ctx.random()) * 1000);
}

/**
 * Starts a wait: its deadline travels as the action's progress, which the engine persists with
 * the row, so a check run again after a crash (or by another engine) waits for the same deadline.
 */
function begin(ctx: PluginContext, ms: number, result: ActionResult = {}): ActionResult {
  if (ms <= 0) return result;
  const wait: Wait = { deadline: ctx.now() + ms };
  return { ...result, progress: wait as unknown as Json, pollAfterMs: ms };
}

/** The wait of an action after the create; a delay that was never created has nothing to wait for. */
function waitAfterCreate(ctx: PluginContext, action: string): ActionResult {
  return ctx.storedProperties ? begin(ctx, waitMs(ctx, ctx.storedProperties, action)) : {};
}

function check(ctx: PluginContext, progress: Json): PollResult {
  const deadline = (progress as Partial<Wait> | null)?.deadline;
  if (typeof deadline !== 'number') return { done: true };
  const remaining = deadline - ctx.now();
  return remaining <= 0 ? { done: true } : { done: false, pollAfterMs: remaining };
}

/**
 * OS::Heat::Delay: pauses for `min_wait` seconds (plus random jitter) during the listed actions,
 * by persisted polling (no worker sleeps). Placed by dependencies, it delays what depends on it
 * on CREATE and RESUME, and what it depends on on DELETE and SUSPEND (those go against the
 * dependencies).
 */
export const delayPlugin: CatalogPlugin = {
  type: 'OS::Heat::Delay',
  inRow: true,
  description:
    'A resource that pauses for a configurable delay. By manipulating the dependency ' +
    'relationships between resources in the template, a delay can be inserted at an arbitrary ' +
    'point during e.g. stack creation or deletion.',
  supportStatus: { version: '11.0.0' },
  properties: {
    min_wait: P.number({
      description: 'Minimum time in seconds to wait during the specified actions.',
      default: 0,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
    max_jitter: P.number({
      description: 'Maximum jitter to add to the minimum wait time.',
      default: 0,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
    jitter_multiplier: P.number({
      description: 'Number of seconds to multiply the maximum jitter value by.',
      default: 1.0,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
    actions: P.list({
      description: 'Actions during which the delay will occur.',
      default: ['CREATE'],
      updateAllowed: true,
      constraints: [C.allowedValues(ACTIONS)],
    }),
  },
  attributes: {},

  async create(ctx, properties) {
    // Heat's Delay has no physical id; one is needed here to tell a created row from a new one.
    return begin(ctx, waitMs(ctx, properties, 'CREATE'), { physicalId: uuidFrom(ctx.idempotencyKey) });
  },

  async checkCreateComplete(ctx, progress) {
    return check(ctx, progress);
  },

  delete: async (ctx) => waitAfterCreate(ctx, 'DELETE'),
  checkDeleteComplete: async (ctx, progress) => check(ctx, progress),
  suspend: async (ctx) => waitAfterCreate(ctx, 'SUSPEND'),
  checkSuspendComplete: async (ctx, progress) => check(ctx, progress),
  resume: async (ctx) => waitAfterCreate(ctx, 'RESUME'),
  checkResumeComplete: async (ctx, progress) => check(ctx, progress),

  observes: false,
  getReality: rowReality,

  async attribute() {
    return null;
  },
};
