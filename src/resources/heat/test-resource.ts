import type { Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import {
  type ActionResult,
  type PhysicalObject,
  type PluginContext,
  type PollResult,
  type RealityState,
  ResourceFailure,
  ResourceInError,
  UpdateReplace,
} from '../contract.js';
import { physicalResourceName } from './physical-name.js';

const TYPE = 'OS::Heat::TestResource';

type Action = 'create' | 'update' | 'delete';

/** What an action leaves for its completion checks (persisted with the resource). */
interface Waiting {
  action: Action;
  /** Epoch ms at which the wait ends; null waits forever (a wait of -1). */
  deadline: number | null;
  /** Fail once the wait is over (never for delete). */
  fail: boolean;
}

/** The longest pause between two checks of a wait. */
const MAX_POLL_MS = 1000;

/** The wait for an action: `action_wait_secs.<action>` when set, otherwise `wait_secs`. */
function waitSecs(properties: Record<string, Value>, action: Action): number {
  const perAction = properties.action_wait_secs;
  if (isPlainObject(perAction)) {
    const secs = Object.hasOwn(perAction, action) ? perAction[action] : undefined;
    if (typeof secs === 'number') return secs;
  }
  const secs = properties.wait_secs;
  return typeof secs === 'number' ? secs : 0;
}

function failure(ctx: PluginContext): ResourceFailure {
  // Heat's TestResource raises a ValueError, which its reasons name.
  return new ResourceFailure(`Test Resource failed ${ctx.resourceName}`, { heatClass: 'ValueError' });
}

/**
 * Finishes an action after its wait: at once for a wait of 0 (failing now if asked to), otherwise
 * by returning the deadline as progress for check*Complete to poll.
 */
function waitThen(
  ctx: PluginContext,
  result: ActionResult,
  action: Action,
  secs: number,
  fail: boolean,
): ActionResult {
  if (secs === 0) {
    if (fail && action !== 'delete') throw failure(ctx);
    return result;
  }
  const waiting: Waiting = { action, deadline: secs < 0 ? null : ctx.now() + secs * 1000, fail };
  const pollAfterMs = secs < 0 ? MAX_POLL_MS : Math.min(secs * 1000, MAX_POLL_MS);
  return { ...result, progress: { ...waiting }, pollAfterMs };
}

function readWaiting(progress: Json): Waiting {
  if (!isPlainObject(progress)) throw new Error(`${TYPE}: malformed progress ${JSON.stringify(progress)}`);
  const { action, deadline, fail } = progress;
  if (
    (action !== 'create' && action !== 'update' && action !== 'delete') ||
    (deadline !== null && typeof deadline !== 'number') ||
    typeof fail !== 'boolean'
  ) {
    throw new Error(`${TYPE}: malformed progress ${JSON.stringify(progress)}`);
  }
  return { action, deadline, fail };
}

/** The physical object the resource row refers to; one left by an interrupted create if it has no id yet. */
async function findObject(ctx: PluginContext): Promise<PhysicalObject | undefined> {
  if (ctx.physicalId !== null) return ctx.reality.get(TYPE, ctx.physicalId);
  return ctx.reality.findByKey(TYPE, ctx.idempotencyKey);
}

/**
 * The fake cloud may hold an object in status ERROR (a test puts it there): like a real cloud
 * resource in error, it fails the action retryably (Heat's ResourceInError).
 */
function failIfInError(object: PhysicalObject | undefined): void {
  if (object?.status === 'ERROR') {
    throw new ResourceInError(`Went to status ERROR due to "Unknown" (${TYPE} ${object.id})`);
  }
}

async function removeObject(ctx: PluginContext): Promise<void> {
  const object = await findObject(ctx);
  if (object !== undefined) await ctx.reality.delete(TYPE, object.id);
}

async function checkComplete(ctx: PluginContext, progress: Json): Promise<PollResult> {
  const waiting = readWaiting(progress);
  if (waiting.action !== 'delete') failIfInError(await findObject(ctx));
  const now = ctx.now();
  if (waiting.deadline !== null && now >= waiting.deadline) {
    if (waiting.action === 'delete') {
      await removeObject(ctx);
    } else if (waiting.fail) {
      throw failure(ctx);
    }
    return { done: true };
  }
  const pollAfterMs = waiting.deadline === null ? MAX_POLL_MS : Math.min(waiting.deadline - now, MAX_POLL_MS);
  return { done: false, progress: { ...waiting }, pollAfterMs };
}

/**
 * OS::Heat::TestResource, the workhorse of convergence tests: it stores `value` (its `output`
 * attribute) in a physical object in `ctx.reality`, and has knobs to wait after an action
 * (`wait_secs`, `action_wait_secs`; -1 waits forever), to fail after the wait (`fail`; never on
 * delete) and to be replaced when `value` changes (`update_replace`); an object its reality holds
 * in status ERROR fails a create or update retryably. Waits are persisted polling
 * against `ctx.now()`: nothing sleeps. `attr_wait_secs`, `constraint_prop_secs`, `client_name` and
 * `entity_name` are accepted and ignored (in Heat they sleep or poll a real cloud client).
 */
export const testResourcePlugin: CatalogPlugin = {
  type: TYPE,
  description:
    'A resource which stores the string value that was provided. This resource is to be used ' +
    "only for testing. It has control knobs such as 'update_replace', 'fail', 'wait_secs'.",
  supportStatus: { version: '5.0.0' },
  properties: {
    constraint_prop_secs: P.number({
      description: 'Number value for delay during resolve constraint.',
      default: 0,
      updateAllowed: true,
      constraints: [C.custom('test_constr')],
      supportStatus: { version: '6.0.0' },
    }),
    attr_wait_secs: P.number({
      description: 'Number value for timeout during resolving output value.',
      default: 0,
      updateAllowed: true,
      supportStatus: { version: '6.0.0' },
    }),
    value: P.string({
      description: 'The input string to be stored.',
      default: 'test_string',
      updateAllowed: true,
    }),
    update_replace_value: P.string({
      description: 'Some value that can be stored but can not be updated.',
      supportStatus: { version: '7.0.0' },
    }),
    fail: P.boolean({
      description: 'Value which can be set to fail the resource operation to test failure scenarios.',
      updateAllowed: true,
      default: false,
    }),
    update_replace: P.boolean({
      description: 'Value which can be set to trigger update replace for the particular resource.',
      updateAllowed: true,
      default: false,
    }),
    wait_secs: P.number({
      description: 'Seconds to wait after an action (-1 is infinite).',
      updateAllowed: true,
      default: 0,
    }),
    action_wait_secs: P.map({
      description: 'Options for simulating waiting.',
      updateAllowed: true,
      schema: {
        create: P.number({
          description: 'Seconds to wait after a create. Defaults to the global wait_secs.',
          updateAllowed: true,
        }),
        update: P.number({
          description: 'Seconds to wait after an update. Defaults to the global wait_secs.',
          updateAllowed: true,
        }),
        delete: P.number({
          description: 'Seconds to wait after a delete. Defaults to the global wait_secs.',
          updateAllowed: true,
        }),
      },
    }),
    client_name: P.string({ description: 'Client to poll.', default: '', updateAllowed: true }),
    entity_name: P.string({ description: 'Client entity to poll.', default: '', updateAllowed: true }),
  },
  attributes: {
    output: attr('The string that was stored. This value is also available by referencing the resource.'),
  },

  async create(ctx: PluginContext, properties: Record<string, Value>): Promise<ActionResult> {
    const fail = properties.fail === true;
    const result: ActionResult = {};
    // Failing, Heat's TestResource sets neither a physical id nor a value.
    if (!fail) {
      // A retried create finds the object an earlier attempt made.
      let object = await ctx.reality.findByKey(TYPE, ctx.idempotencyKey);
      failIfInError(object);
      if (object === undefined) {
        object = {
          id: physicalResourceName(ctx),
          key: ctx.idempotencyKey,
          type: TYPE,
          properties: properties as JsonObject,
          status: 'ACTIVE',
        };
        await ctx.reality.put(object);
      }
      result.physicalId = object.id;
      result.data = { value: properties.value as Json };
    }
    return waitThen(ctx, result, 'create', waitSecs(properties, 'create'), fail);
  },
  checkCreateComplete: checkComplete,

  // The fake cloud is told the adopted object exists (a stack abandoned elsewhere left it in its
  // own cloud): later updates and deletes then find it, as they would a real one.
  async adopt(ctx: PluginContext, properties: Record<string, Value>): Promise<void> {
    if (ctx.physicalId === null || (await ctx.reality.get(TYPE, ctx.physicalId)) !== undefined) return;
    await ctx.reality.put({
      id: ctx.physicalId,
      key: ctx.idempotencyKey,
      type: TYPE,
      properties: properties as JsonObject,
      status: 'ACTIVE',
    });
  },

  // A new value with update_replace set makes a new resource (decided up front, as Heat's
  // needs_replace_with_prop_diff, so previews and restricted_actions see it).
  needsReplace(properties, _previous, changed): boolean {
    return changed.includes('value') && properties.update_replace === true;
  },

  async update(ctx, properties, _previous, changed): Promise<ActionResult> {
    const valueChanged = changed.includes('value');
    if (valueChanged && properties.update_replace === true) {
      throw new UpdateReplace(`${ctx.resourceName}: value changed and update_replace is set`);
    }
    // A failed create left nothing to update: only a new resource can take the properties.
    if (ctx.physicalId === null) throw new UpdateReplace(`${ctx.resourceName} was never created`);
    const fail = properties.fail === true;
    const result: ActionResult = {};
    if (!fail) {
      const object = await ctx.reality.get(TYPE, ctx.physicalId);
      if (object === undefined) throw new ResourceFailure(`${TYPE} ${ctx.physicalId} not found`);
      await ctx.reality.put({ ...object, properties: properties as JsonObject });
      if (valueChanged) result.data = { value: properties.value as Json };
    }
    // As Heat: only a change of value waits; a failing update fails either way.
    return waitThen(ctx, result, 'update', valueChanged ? waitSecs(properties, 'update') : 0, fail);
  },
  checkUpdateComplete: checkComplete,

  async delete(ctx: PluginContext): Promise<ActionResult> {
    const properties = ctx.storedProperties ?? {};
    const secs = waitSecs(properties, 'delete');
    // The object goes when the wait is over, so a delete still waiting has not removed it yet.
    if (secs === 0) await removeObject(ctx);
    return waitThen(ctx, {}, 'delete', secs, false);
  },
  checkDeleteComplete: checkComplete,

  async check(ctx: PluginContext): Promise<void> {
    if (ctx.physicalId === null) throw new ResourceFailure('Resource not created');
    if ((await ctx.reality.get(TYPE, ctx.physicalId)) === undefined) {
      throw new ResourceFailure(`${TYPE} ${ctx.physicalId} not found`);
    }
  },

  async getReality(ctx: PluginContext): Promise<RealityState> {
    if (ctx.physicalId === null) return { state: 'gone' };
    const object = await ctx.reality.get(TYPE, ctx.physicalId);
    if (object === undefined) return { state: 'gone' };
    return { state: 'present', properties: { ...object.properties } };
  },

  async attribute(ctx: PluginContext, name: string) {
    const value = ctx.data.value;
    return name === 'output' && value !== undefined ? value : null;
  },
};
