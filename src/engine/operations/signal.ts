import { randomUUID } from 'node:crypto';
import { type AdjustedResource, NoActionRequired, type SignalContext } from '../../resources/contract.js';
import {
  ClaimLostError,
  type EventRecord,
  type ResourceRecord,
  type StackRecord,
  type Tx,
  type WorkItem,
} from '../../store/contract.js';
import type { Value } from '../../template/functions/types.js';
import type { Json, JsonObject } from '../../util/json.js';
import type { EngineDeps } from '../core/deps.js';
import { resourceEvent } from '../core/events.js';
import { clearHook } from '../context/hooks.js';
import { errorMessage } from '../core/failure-text.js';
import { pluginContext } from '../context/node-work.js';
import { OperationError } from '../core/errors.js';
import { reconvergeStack } from './update.js';
import { signalWaitKey } from '../context/peers.js';
import { currentRow } from '../core/rows.js';
import type { TemplateCache } from '../core/templates.js';
import { ConflictError } from '../core/errors.js';

/**
 * Resource signals (Heat's resource_signal). Accepting a signal queues a unit of work in the
 * transaction that checks it, so it survives a crash; any engine then runs the type's handler and
 * records what it changed together with the signal's event and the unit's completion. A signal
 * takes no resource lock, so it never waits behind an update: its write is a compare-and-swap on
 * the row, and a lost race runs the handler again on fresh data.
 */

/** Work kind: handle one signal. Its traversalId is the signal's id, so the sender can find it. */
export const SIGNAL = 'signal';

/** Resource actions during which Heat refuses signals (its no_signal_actions), unless the type says. */
const NO_SIGNAL_ACTIONS: readonly string[] = ['SUSPEND', 'DELETE'];

function refusesSignals(deps: EngineDeps, row: ResourceRecord): boolean {
  return (deps.plugins.plugin(row.type)?.noSignalActions ?? NO_SIGNAL_ACTIONS).includes(row.action);
}

/** How soon a signal waiting for an earlier one of its resource looks again. */
const SIGNAL_TURN_MS = 20;

/** Lost compare-and-swaps in a row before the unit steps back and runs again a little later. */
const CAS_ATTEMPTS = 5;

type SignalPayload = { signalId: string; row: number; details: JsonObject | null };

/** A change of another resource's desired state asked by a handler (SignalContext.adjustResource). */
interface Adjustment {
  ref: string;
  change: (peer: AdjustedResource) => JsonObject | undefined;
}

type Outcome =
  | { kind: 'handled'; reason: string; data: JsonObject | undefined; adjust?: Adjustment }
  /** The handler had nothing to do: no event. */
  | { kind: 'ignored' }
  | { kind: 'failed'; reason: string }
  /** The resource is being suspended or deleted now. */
  | { kind: 'refused' };

/**
 * Accepts a signal for a stack's resource and queues it; returns the signal's id. Refused, in
 * Heat's order: while the resource is being suspended or deleted (recording Heat's event saying so),
 * then when its type has no handler.
 */
export async function signalResource(
  deps: EngineDeps,
  stackId: string,
  resourceName: string,
  details: JsonObject | null,
): Promise<string> {
  const now = deps.clock.now();
  const signalId = randomUUID();
  const refusal = await deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(stackId);
    if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
    const row = currentRow(await tx.resources.findByName(stack.id, resourceName));
    if (!row) {
      throw new OperationError(`resource "${resourceName}" not found in stack "${stack.name}"`, 'not_found');
    }
    if (refusesSignals(deps, row)) {
      // Committed although the signal is refused: Heat records the attempt.
      await tx.events.append([cannotSignalEvent(row, now)]);
      return notSupportedDuring(row.action);
    }
    if (details !== null && Object.hasOwn(details, 'unset_hook')) {
      // A breakpoint is the engine's, not the type's: cleared here, at once (hooks.ts).
      await clearHook(tx, row, details.unset_hook, now);
      return undefined;
    }
    if (!deps.plugins.plugin(row.type)?.handleSignal) {
      throw new OperationError(notSupported(row), 'invalid');
    }
    const payload: SignalPayload = { signalId, row: row.id, details };
    await tx.work.enqueue([
      {
        rootStackId: stack.rootId,
        stackId: stack.id,
        traversalId: signalId,
        kind: SIGNAL,
        node: `signal:${row.id}`,
        payload,
        runAt: now,
      },
    ]);
    return undefined;
  });
  if (refusal) throw new OperationError(refusal, 'conflict');
  return signalId;
}

/** Whether a signal's unit of work is over (handled, or dropped with its resource). */
export async function signalSettled(deps: EngineDeps, signalId: string): Promise<boolean> {
  return (await deps.store.tx((tx) => tx.work.listForTraversal(signalId))).length === 0;
}

/** Why a settled signal was not handled, from its event; undefined if it was (or needed nothing). */
export async function signalError(
  deps: EngineDeps,
  stackId: string,
  resourceName: string,
  signalId: string,
): Promise<string | undefined> {
  const events = await deps.store.tx((tx) => tx.events.list(stackId, { resourceName }));
  const event = events.find((e) => e.uuid === signalId);
  if (!event || (event.action === 'SIGNAL' && event.status === 'COMPLETE')) return undefined;
  return event.action === 'SIGNAL' ? event.reason : notSupportedDuring(event.action);
}

/** Runs one signal's unit of work: the handler, then its changes, event and completion at once. */
export async function runSignal(deps: EngineDeps, cache: TemplateCache, item: WorkItem): Promise<void> {
  const payload = item.payload as SignalPayload;
  // A resource's signals are handled in the order they were accepted: a later one waits its turn.
  const waiting = await deps.store.tx(async (tx) => {
    if (!(await tx.work.signalQueuedBefore(item.node, item.id))) return false;
    await tx.work.reschedule(item, deps.clock.now() + SIGNAL_TURN_MS, item.payload);
    return true;
  });
  if (waiting) return;
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const { stack, row } = await deps.store.tx(async (tx) => ({
      stack: await tx.stacks.get(item.stackId),
      row: await tx.resources.get(payload.row),
    }));
    // The resource is gone (its stack was deleted) since the signal was accepted.
    if (!stack || !row) {
      await record(deps, cache, item, undefined, { kind: 'ignored' }, payload);
      return;
    }
    const outcome: Outcome = refusesSignals(deps, row)
      ? { kind: 'refused' }
      : await handle(deps, stack, row, payload);
    if (await record(deps, cache, item, row, outcome, payload)) return;
  }
  await deps.store.tx((tx) => tx.work.reschedule(item, deps.clock.now() + 100, item.payload));
}

async function handle(
  deps: EngineDeps,
  stack: StackRecord,
  row: ResourceRecord,
  payload: SignalPayload,
): Promise<Outcome> {
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin?.handleSignal) return { kind: 'failed', reason: notSupported(row) };
  let data: JsonObject | undefined;
  let adjust: Adjustment | undefined;
  const ctx: SignalContext = {
    ...pluginContext({ deps, stack }, row),
    signalId: payload.signalId,
    setData: (changes) => {
      data = { ...data, ...changes };
    },
    adjustResource: (ref, change) => {
      adjust = { ref, change };
    },
  };
  try {
    const result = await plugin.handleSignal(ctx, payload.details);
    const reason = result ? `Signal: ${String(result)}` : detailsText(payload.details);
    return { kind: 'handled', reason, data, ...(adjust ? { adjust } : {}) };
  } catch (err) {
    if (err instanceof NoActionRequired) return { kind: 'ignored' };
    return { kind: 'failed', reason: `Signal failed: ${errorMessage(err)}` };
  }
}

/**
 * Records a signal's outcome and completes its unit, in one transaction. False when the row
 * changed since it was read (the handler runs again). A unit whose claim ran out meanwhile records
 * nothing: the engine that claimed it since records it.
 */
async function record(
  deps: EngineDeps,
  cache: TemplateCache,
  item: WorkItem,
  row: ResourceRecord | undefined,
  outcome: Outcome,
  payload: SignalPayload,
): Promise<boolean> {
  const now = deps.clock.now();
  return deps.store
    .tx(async (tx) => {
      // Another resource's desired state first: a handler whose change cannot be made records
      // nothing of its own (a policy's cooldown does not start).
      if (row && outcome.kind === 'handled' && outcome.adjust) {
        const failure = await applyAdjustment(tx, row, outcome.adjust);
        if (failure === 'lost') throw new LostRace();
        if (failure) outcome = { kind: 'failed', reason: `Signal failed: ${failure}` };
        else await reconvergeStack(tx, deps, cache, row.stackId, now);
      }
      if (row && outcome.kind === 'handled' && outcome.data) {
        // The expected engine is whoever holds the lock now: it stays theirs.
        const written = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
          data: { ...row.data, ...outcome.data },
        });
        // Thrown, not returned: what this transaction wrote already is rolled back with it.
        if (!written) throw new LostRace();
        // A poll waiting for this resource's signals (a wait condition's) looks again now.
        await tx.work.wakeWaiting(signalWaitKey(row.stackId, row.name), now);
      }
      const event = row && eventOf(row, outcome, now);
      if (event) await tx.events.append([{ ...event, uuid: payload.signalId }]);
      await tx.work.complete(item);
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof ClaimLostError) return true;
      // A row changed meanwhile, or the stack's traversal did (another update started): run again.
      if (err instanceof LostRace || err instanceof ConflictError) return false;
      throw err;
    });
}

/** A compare-and-swap lost inside the recording transaction: it rolls back, the signal runs again. */
class LostRace extends Error {}

/**
 * Writes a handler's change of another resource's desired state (compare-and-swap: 'lost' when
 * that row changed meanwhile, and the signal runs again); a reason when there is no such resource.
 */
async function applyAdjustment(
  tx: Tx,
  row: ResourceRecord,
  adjust: Adjustment,
): Promise<string | 'lost' | undefined> {
  // The adjusted resource is one the signalled one depends on (get_resource): among its requires.
  const required = (await tx.resources.getMany(row.requires)).filter((r) => r.physicalId === adjust.ref);
  const peer = currentRow(
    required.length > 0 ? required : await tx.resources.findByName(row.stackId, adjust.ref),
  );
  if (!peer) return `no resource "${adjust.ref}" in the stack`;
  const changes = adjust.change({
    name: peer.name,
    type: peer.type,
    properties: (peer.properties ?? {}) as Record<string, Value>,
    data: peer.data,
  });
  if (!changes) return undefined;
  const written = await tx.resources.update(peer.id, peer.atomicKey, peer.engineId, {
    data: { ...peer.data, ...changes },
  });
  return written ? undefined : 'lost';
}

function eventOf(row: ResourceRecord, outcome: Outcome, now: number): Omit<EventRecord, 'id'> | undefined {
  if (outcome.kind === 'ignored') return undefined;
  if (outcome.kind === 'refused') return cannotSignalEvent(row, now);
  // Heat gives a SIGNAL event the resource's status; here it is the signal's own, so that
  // SIGNAL_FAILED always means the handler failed.
  return resourceEvent(
    row,
    'SIGNAL',
    outcome.kind === 'handled' ? 'COMPLETE' : 'FAILED',
    outcome.reason,
    now,
  );
}

/** The row that carries the resource now: the newest not replaced (a replacement is in progress). */
function cannotSignalEvent(row: ResourceRecord, now: number): Omit<EventRecord, 'id'> {
  return resourceEvent(row, row.action, row.status, `Cannot signal resource during ${row.action}`, now);
}

function notSupportedDuring(action: string): string {
  return `Signal resource during ${action} is not supported.`;
}

function notSupported(row: ResourceRecord): string {
  return `signal is not supported for resource "${row.name}" of type ${row.type}`;
}

/** The event text of a signal whose handler returned nothing (Heat's wording). */
function detailsText(details: JsonObject | null): string {
  if (details === null) return 'No signal details provided';
  if (['previous', 'current', 'reason'].every((key) => Object.hasOwn(details, key))) {
    // An alarm's notification (Aodh, formerly Ceilometer).
    const text = (value: Json | undefined) => (typeof value === 'string' ? value : JSON.stringify(value));
    return `alarm state changed from ${text(details.previous)} to ${text(details.current)} (${text(details.reason)})`;
  }
  return 'Unknown';
}
