import type { PollResult, ResourcePlugin } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import { failNode } from './failure.js';
import { errorMessage } from '../core/failure-text.js';
import { type NodeScope, pluginContext, pollDelay } from '../context/node-work.js';

/**
 * Heat's prepare_for_replace and restore_prev_rsrc: a plugin may ready its old resource before the
 * replacement is created (a server frees the ports the replacement must bind), and undo that when
 * the old resource becomes the stack's again (a rollback took it back). Both run as persisted
 * polling on the old row: what they reached is kept in its data under REPLACE_PREP_KEY (with the
 * traversal that prepared it), so a unit run again after a crash goes on from there, and a later
 * traversal that finds the old row current again knows it must be restored.
 */
export const REPLACE_PREP_KEY = 'replacePrep';

interface Prep {
  /** The traversal that prepared the row for its replacement. */
  traversal: string;
  phase: 'prepare' | 'prepared' | 'restore';
  state: Json;
  polls: number;
}

function prepOf(row: Pick<ResourceRecord, 'data'>): Prep | undefined {
  const prep = row.data[REPLACE_PREP_KEY];
  return isPlainObject(prep) && typeof prep.traversal === 'string' ? (prep as unknown as Prep) : undefined;
}

/** Whether the row was readied for a replacement that another traversal (a rollback) gave up. */
export function needsRestore(row: Pick<ResourceRecord, 'data' | 'replacedBy'>, traversal: string): boolean {
  const prep = prepOf(row);
  return (
    prep !== undefined &&
    row.replacedBy === null &&
    (prep.traversal !== traversal || prep.phase === 'restore')
  );
}

/**
 * Runs the plugin's prepareForReplace on `row` (the old resource) until it reports done. Returns
 * the row (as written) once it is prepared; undefined when the step ended otherwise (it polls
 * again later, lost a race, or failed the resource).
 */
export async function prepareForReplace(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
): Promise<ResourceRecord | undefined> {
  // Nothing was made, or it is gone: there is nothing to ready.
  if (!plugin.prepareForReplace || row.physicalId === null || row.action === 'DELETE') return row;
  const traversal = scope.item.traversalId;
  const prep = prepOf(row);
  if (prep?.traversal === traversal && prep.phase === 'prepared') return row;
  const from = prep?.traversal === traversal && prep.phase === 'prepare' ? prep : undefined;
  return step(scope, row, 'prepare', from, (state) =>
    plugin.prepareForReplace!(pluginContext(scope, row), state),
  );
}

/**
 * Runs the plugin's restorePrevious on `row` until it reports done, then forgets the preparation.
 * Returns the row (as written) once restored; undefined when the step ended otherwise.
 */
export async function restorePrevious(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
): Promise<ResourceRecord | undefined> {
  const prep = prepOf(row);
  if (!prep) return row;
  const traversal = scope.item.traversalId;
  const from = prep.phase === 'restore' && prep.traversal === traversal ? prep : undefined;
  const restore = plugin.restorePrevious;
  if (!restore) return forget(scope, row);
  return step(scope, row, 'restore', from, (state) => restore.call(plugin, pluginContext(scope, row), state));
}

/** One call of a hook, its result written on the row; polls again later while it is not done. */
async function step(
  scope: NodeScope,
  row: ResourceRecord,
  phase: 'prepare' | 'restore',
  from: Prep | undefined,
  call: (state: Json | null) => Promise<PollResult>,
): Promise<ResourceRecord | undefined> {
  const { deps, item } = scope;
  let result: PollResult;
  try {
    result = await call(from ? from.state : null);
  } catch (err) {
    const what = phase === 'prepare' ? 'Preparing for replacement' : 'Restoring after rollback';
    await failNode(scope, row, `UPDATE failed: ${what} failed: ${errorMessage(err)}`, 'UPDATE');
    return undefined;
  }
  const polls = (from?.polls ?? 0) + 1;
  const done = result.done;
  const data: JsonObject = { ...row.data, ...result.data };
  if (done && phase === 'restore') delete data[REPLACE_PREP_KEY];
  else {
    const prep: Prep = {
      traversal: item.traversalId,
      phase: done ? 'prepared' : phase,
      state: done ? null : (result.progress ?? null),
      polls,
    };
    data[REPLACE_PREP_KEY] = prep as unknown as JsonObject;
  }
  const now = deps.clock.now();
  const written = await deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, { data });
    if (!next) {
      await tx.work.reschedule(item, now + 10, item.payload);
      return undefined;
    }
    if (!done) {
      // The node starts again later and comes back here (the decision is made afresh each time).
      await tx.work.reschedule(item, now + pollDelay(result.pollAfterMs, polls), { phase: 'start' });
    }
    return next;
  });
  return done ? written : undefined;
}

async function forget(scope: NodeScope, row: ResourceRecord): Promise<ResourceRecord | undefined> {
  const { [REPLACE_PREP_KEY]: _prep, ...data } = row.data;
  const { deps, item } = scope;
  return deps.store.tx(async (tx) => {
    const next = await tx.resources.update(row.id, row.atomicKey, row.engineId, { data });
    if (!next) await tx.work.reschedule(item, deps.clock.now() + 10, item.payload);
    return next ?? undefined;
  });
}
