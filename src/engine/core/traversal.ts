import { randomUUID } from 'node:crypto';
import {
  DRIFTED,
  type ConvergeScope,
  type ResourceHead,
  type ResourceState,
  type StackAction,
  type StackRecord,
  type Tx,
} from '../../store/contract.js';
import type { Json } from '../../util/json.js';
import { runSliced, yieldIfSliceSpent } from '../../util/loop-slice.js';

import { stackEvent } from './events.js';
import { initRow } from './rows.js';
import { finishTraversal } from './finish.js';
import { supersedeSnapshot } from './snapshot-state.js';
import { checkUnit, type NodeOutput, VISITS } from './nodes.js';
import { byDepthSteps, chooseRows, chooseRowsSteps, type DesiredResource, planGraphSteps } from './plan.js';
import { ConflictError } from './errors.js';

export interface BeginOptions {
  stack: StackRecord;
  action: StackAction;
  /** The template to converge to (null: an empty template, i.e. delete everything). */
  templateId: string | null;
  /** Desired resources of that template (empty for delete). */
  desired: readonly DesiredResource[];
  now: number;
  reason?: string;
  /** Stack fields to set along with the new traversal (timeout, rollback flag...). */
  stackChanges?: Partial<StackRecord>;
  /**
   * The desired resources that need no node, given the rows that will carry them and the names
   * that must get one whatever their stored state says (see unchanged.ts); absent, every resource
   * gets one.
   */
  unchanged?: (
    chosen: ReadonlyMap<string, ResourceState>,
    stackId: string,
    drifted: ReadonlySet<string>,
    scope?: DiffScope,
  ) => ReadonlyMap<string, NodeOutput>;
  /**
   * An update planned from a diff (operations/update-diff.ts): only the rows of the resources it
   * visits, of those they require and of removed names are read; absent, every row is.
   */
  diff?: PlannedDiff;
  /** An update that decides from the live state (converge.ts); absent: from the stored state. */
  converge?: ConvergeScope | null;
  /**
   * An ADOPT: the adopt document's `resources`, each entry kept in its resource's new row until
   * the row's node adopts it (adopt-node.ts).
   */
  adopt?: Readonly<Record<string, Json>>;
  /** The new traversal's id (absent: a new one), for a caller that records it beforehand (a snapshot). */
  traversalId?: string;
}

/** What an update planned from a diff visits (operations/update-diff.ts). */
export interface PlannedDiff {
  /** Names the previous template had and the new one has not. */
  removed: readonly string[];
  /** The resources that may need a node, given the names of the stack's unsettled (or drifted) rows. */
  affected(unsettled: ReadonlySet<string>): ReadonlySet<string>;
  /**
   * Planned over a partial bind (operations/partial-bind.ts): the full comparison cannot serve,
   * and where it would be needed the start throws `PartialMiss` (the caller binds whole, again).
   */
  partial?: true;
}

/** A partial bind does not cover what the traversal must visit: bind the whole template and start again. */
export class PartialMiss extends Error {
  constructor() {
    super('the partial bind does not cover the resources to visit');
  }
}

/** Which resources an update planned from a diff compares (`only`), and which are unchanged already (`given`). */
export interface DiffScope {
  only: readonly DesiredResource[];
  given: readonly string[];
}

interface Placed {
  chosen: Map<string, ResourceHead>;
  obsolete: ResourceHead[];
  unchanged: ReadonlyMap<string, NodeOutput>;
  /** The desired resources the graph is planned for (all of them, but from a diff). */
  planned: readonly DesiredResource[];
}

/**
 * Picks the row that carries each desired resource (inserting rows for new ones) and the obsolete
 * rows, and finds the unchanged resources. Whole rows are read only when there is a comparison to
 * make; otherwise (create, delete, check) only their heads.
 */
async function placeResources(tx: Tx, options: BeginOptions, checking: boolean): Promise<Placed> {
  const { stack, desired, now } = options;
  const target = options.templateId;
  // A CHECK takes the rows as they are: it inserts none and restores no link.
  const settle = async (
    chosen: Map<string, ResourceHead>,
    obsolete: ResourceHead[],
    missing: DesiredResource[],
  ) => {
    if (checking) return;
    await restoreOriginals(tx, chosen, obsolete);
    const rows = [];
    for (const want of await runSliced(byDepthSteps(missing))) {
      if (rows.length % 512 === 0) await yieldIfSliceSpent();
      rows.push(
        initRow(
          { stackId: stack.id, rootStackId: stack.rootId, name: want.name, type: want.type },
          now,
          null,
          options.adopt && Object.hasOwn(options.adopt, want.name) ? options.adopt[want.name] : undefined,
        ),
      );
    }
    const inserted = await tx.resources.insert(rows);
    for (let i = 0; i < inserted.length; i++) {
      if (i % 1024 === 0) await yieldIfSliceSpent();
      chosen.set(inserted[i]!.name, inserted[i]!);
    }
  };
  // A converge of every resource reads each one's live state: none is left alone.
  if (options.unchanged && !checking && options.converge?.mode !== 'all') {
    if (options.diff) {
      const placed = await placeFromDiff(tx, options, options.diff, options.unchanged, settle);
      if (placed) return placed;
      if (options.diff.partial) throw new PartialMiss();
    }
    const rows = await tx.resources.listStates(stack.id);
    await restampReleased(tx, stack, rows);
    const { chosen, obsolete, missing } = await runSliced(chooseRowsSteps(desired, rows, target));
    await settle(chosen, obsolete, missing);
    const drifted = await driftedNames(tx, options.converge, stack.id);
    return { chosen, obsolete, unchanged: options.unchanged(chosen, stack.id, drifted), planned: desired };
  }
  const heads = await tx.resources.listHeads(stack.id);
  if (!checking) await restampReleased(tx, stack, heads);
  const { chosen, obsolete, missing } = await runSliced(chooseRowsSteps(desired, heads, target));
  await settle(chosen, obsolete, missing);
  return { chosen, obsolete, unchanged: new Map(), planned: desired };
}

/**
 * Places an update planned from a diff: reads the stack's unsettled rows (an index of them),
 * then by name the rows of the resources that may need a node, of those they require and of
 * removed names, and compares only the first. Undefined (the caller reads every row instead)
 * when a required resource has no row.
 */
async function placeFromDiff(
  tx: Tx,
  options: BeginOptions,
  diff: PlannedDiff,
  unchangedOf: NonNullable<BeginOptions['unchanged']>,
  settle: (
    chosen: Map<string, ResourceHead>,
    obsolete: ResourceHead[],
    missing: DesiredResource[],
  ) => Promise<void>,
): Promise<Placed | undefined> {
  const { stack, desired } = options;
  const unsettled = await tx.resources.listUnsettled(stack.id);
  const drifted = await driftedNames(tx, options.converge, stack.id);
  const affected = diff.affected(new Set([...unsettled.map((r) => r.name), ...drifted]));
  const only = desired.filter((want) => affected.has(want.name));
  const given = new Set<string>();
  for (const want of only) for (const name of want.requires) if (!affected.has(name)) given.add(name);
  const names = new Set([...affected, ...given, ...diff.removed]);
  for (const row of unsettled) names.add(row.name);
  const rows = await tx.resources.listStatesByName(stack.id, [...names]);
  await restampCurrent(tx, stack, rows);
  const planned = given.size === 0 ? only : desired.filter((w) => affected.has(w.name) || given.has(w.name));
  const { chosen, obsolete, missing } = chooseRows(planned, rows, options.templateId);
  if (missing.some((want) => given.has(want.name))) return undefined;
  await settle(chosen, obsolete, missing);
  const unchanged = unchangedOf(chosen, stack.id, drifted, { only, given: [...given] });
  return { chosen, obsolete, unchanged, planned: only };
}

/*
 * A row's template id. An update planned from a diff leaves the rows of unchanged resources as
 * they are, template id included: a row may name a template released since (finish.ts). Its
 * definition is then the same in the stack's current template (every update that kept the row
 * found its definition unchanged, and a failed one left its rows' templates stored), so a
 * traversal that reads rows first points such rows at the stack's template: what a node, a
 * cleanup (deletion_policy, hooks) or a rollback's choice among a replaced pair reads is a
 * stored template, as when every row was rewritten.
 */

/** Points the rows read by an update from a diff at the stack's template (valid: its last traversal completed). */
async function restampCurrent(tx: Tx, stack: StackRecord, rows: ResourceHead[]): Promise<void> {
  const current = stack.templateId;
  if (!current) return;
  const stale = rows.filter((r) => r.templateId !== null && r.templateId !== current);
  if (stale.length === 0) return;
  await tx.resources.setTemplate(
    stale.map((r) => r.id),
    current,
  );
  for (const row of stale) row.templateId = current;
}

/** Points the rows that name a released template at the stack's template. */
async function restampReleased(tx: Tx, stack: StackRecord, rows: readonly ResourceHead[]): Promise<void> {
  const current = stack.templateId;
  if (!current) return;
  const named = new Set<string>();
  for (const row of rows)
    if (row.templateId !== null && row.templateId !== current) named.add(row.templateId);
  if (named.size === 0) return;
  const stored = await tx.templates.existing([...named]);
  const stale = rows.filter(
    (r) => r.templateId !== null && named.has(r.templateId) && !stored.has(r.templateId),
  );
  if (stale.length === 0) return;
  await tx.resources.setTemplate(
    stale.map((r) => r.id),
    current,
  );
  for (const row of stale) (row as { templateId: string | null }).templateId = current;
}

/**
 * A chosen row whose replacement is obsolete (a rollback took the original back) is no longer
 * replaced: its link goes, so its node converges it instead of following the link.
 */
async function restoreOriginals<R extends ResourceHead>(
  tx: Tx,
  chosen: Map<string, R>,
  obsolete: readonly ResourceHead[],
): Promise<void> {
  const going = new Set(obsolete.map((r) => r.id));
  for (const [name, row] of chosen) {
    if (row.replacedBy === null || !going.has(row.replacedBy)) continue;
    const restored = await tx.resources.update(row.id, row.atomicKey, row.engineId, { replacedBy: null });
    if (!restored)
      throw new ConflictError(`resource "${name}" changed while the operation started; try again`);
    chosen.set(name, { ...row, replacedBy: null, atomicKey: restored.atomicKey });
  }
}

/**
 * Starts a traversal, in the caller's transaction: claims the stack with a new traversal id
 * (compare-and-swap on the one it had, so a concurrent start is an explicit conflict, never a
 * silent drop), creates the rows new resources need, persists the graph as sync points and
 * enqueues its leaves. The previous traversal's sync points go, so its stragglers stop
 * propagating; its in-flight operations finish on their own (see worker.ts).
 */
export async function beginTraversal(tx: Tx, options: BeginOptions): Promise<string> {
  const { stack, action, templateId, desired, now } = options;
  const traversalId = options.traversalId ?? randomUUID();
  // A CHECK, SUSPEND or RESUME visits the rows the stack has: it creates none and deletes none.
  const checking = VISITS.has(action);
  const { chosen, obsolete, unchanged, planned } = await placeResources(tx, options, checking);
  // Planning 200,000 nodes takes about a second: in slices (the transaction stays open).
  const plan = await runSliced(
    checking
      ? planGraphSteps(
          traversalId,
          stack.id,
          desired.filter((want) => chosen.has(want.name)),
          chosen,
          [],
        )
      : planGraphSteps(traversalId, stack.id, planned, chosen, obsolete, unchanged),
  );

  const changes: Partial<StackRecord> = {
    ...options.stackChanges,
    traversalId,
    action,
    status: 'IN_PROGRESS',
    reason: options.reason ?? `Stack ${action} started`,
    templateId,
    updatedAt: new Date(now).toISOString(),
  };
  if (action === 'UPDATE' && stack.templateId !== templateId) changes.prevTemplateId = stack.templateId;
  if (!(await tx.stacks.update(stack.id, stack.traversalId, changes))) {
    throw new ConflictError(
      `stack "${stack.name}" was changed by another operation at the same time; try again`,
    );
  }
  if (stack.traversalId) {
    await supersedeSnapshot(tx, stack, action, now);
    await tx.sync.deleteTraversal(stack.traversalId);
    await tx.traversals.delete(stack.traversalId);
  }
  await tx.traversals.insert({
    id: traversalId,
    stackId: stack.id,
    rootStackId: stack.rootId,
    action,
    templateId,
    remaining: plan.points.length,
    createdAt: new Date(now).toISOString(),
    converge: options.converge ?? null,
  });
  await tx.sync.insert(plan.points);
  // Unchanged resources are converged to the new template as they are.
  if (templateId && unchanged.size > 0) {
    await tx.resources.setTemplate(
      [...unchanged.values()].map((output) => output.rowId),
      templateId,
    );
  }
  await tx.work.enqueue(plan.leaves.map((node) => checkUnit(stack, traversalId, node, now)));
  await tx.events.append([stackEvent(stack, action, 'IN_PROGRESS', changes.reason!, now)]);
  if (plan.points.length === 0) {
    await finishTraversal(tx, { ...stack, ...changes } as StackRecord, traversalId, now);
  }
  return traversalId;
}

/**
 * The resources of `stackId` an update traversal must give a node although their stored state
 * says unchanged: under a heal, those the last drift detection found drifted.
 */
export async function driftedNames(
  tx: Tx,
  converge: ConvergeScope | null | undefined,
  stackId: string,
): Promise<ReadonlySet<string>> {
  if (converge?.mode !== 'drifted' || !converge.stacks.includes(stackId)) return new Set();
  const records = await tx.drift.list(stackId);
  return new Set(records.filter((r) => DRIFTED.has(r.status)).map((r) => r.resourceName));
}
