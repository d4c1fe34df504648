import type {
  EventRecord,
  ResourceRecord,
  StackRecord,
  SyncPointRecord,
  TraversalRecord,
  WorkItem,
} from '../../../store/contract.js';
import type { Json } from '../../../util/json.js';
import type { EngineDeps } from '../../core/deps.js';
import { hasTimedOut } from '../failure.js';
import { holderOf } from '../locks.js';
import { type NodeScope, withCarriedInputs } from '../../context/node-work.js';
import { parseNodeKey, VISITS } from '../../core/nodes.js';
import { type ClaimReady, propagateMany } from '../../core/propagate.js';
import type { TemplateCache } from '../../core/templates.js';

/*
 * The transactions that batches of graph nodes share (update-batch.ts, cleanup-batch.ts): one
 * loads the batch (a read, on SQLite's read connection), one takes locks (none for in-row types),
 * one records results and propagates them, enqueueing the dependents made ready already claimed
 * by this engine (its next batch: no claim of its own). Each is a multi-row statement per table
 * where it can be; each node keeps its own compare-and-swap.
 */

/** Where a batch hands the units it enqueued already claimed: the worker runs them next. */
export interface ClaimedNext {
  /** How many more the worker takes now. */
  room(): number;
  add(items: readonly WorkItem[]): void;
}

type NewEvent = Omit<EventRecord, 'id'>;

export interface Loaded {
  scope: NodeScope;
  /** Undefined when the row is gone. */
  row: ResourceRecord | undefined;
}

/**
 * One transaction: the stacks, traversals, sync points (with inputs, unless `inputs` is false:
 * cleanup nodes read none) and rows of a batch. A unit whose stack is gone, whose traversal is a
 * visit (CHECK...) or whose stack timed out maps to undefined: the single path knows what to do with it.
 */
export async function loadBatch(
  deps: EngineDeps,
  cache: TemplateCache,
  running: ReadonlySet<number>,
  items: readonly WorkItem[],
  inputs = true,
): Promise<Map<WorkItem, Loaded | undefined>> {
  const byTraversal = new Map<string, WorkItem[]>();
  for (const item of items) {
    const list = byTraversal.get(item.traversalId);
    if (list) list.push(item);
    else byTraversal.set(item.traversalId, [item]);
  }
  // A read: the claims were committed before, and each write of the batch compares and swaps.
  const state = await deps.store.read(async (tx) => {
    const stacks = new Map<string, StackRecord | undefined>();
    const points = new Map<string, SyncPointRecord>();
    const traversals = new Map<string, TraversalRecord | undefined>();
    for (const [traversalId, group] of byTraversal) {
      const stackId = group[0]!.stackId;
      if (!stacks.has(stackId)) stacks.set(stackId, await tx.stacks.get(stackId));
      traversals.set(traversalId, await tx.traversals.get(traversalId));
      // Units carrying their inputs (direct dependents) read none from the sync point (getMany
      // of no nodes reads nothing).
      const nodes = (carrying: boolean) => group.filter((i) => !!i.inputs === carrying).map((i) => i.node);
      const found = [
        ...(await tx.sync.getMany(traversalId, nodes(false), { inputs })),
        ...(await tx.sync.getMany(traversalId, nodes(true), { inputs: false })),
      ];
      for (const point of found) points.set(`${traversalId} ${point.node}`, point);
    }
    const rows = await tx.resources.getMany(items.map((i) => parseNodeKey(i.node).rowId));
    return { stacks, traversals, points, rows: new Map(rows.map((r) => [r.id, r])) };
  });
  const out = new Map<WorkItem, Loaded | undefined>();
  for (const item of items) {
    const stack = state.stacks.get(item.stackId);
    const traversal = state.traversals.get(item.traversalId);
    if (!stack || VISITS.has(traversal?.action ?? '')) {
      out.set(item, undefined);
      continue;
    }
    const scope: NodeScope = {
      deps,
      cache,
      item,
      stack,
      traversal,
      point: withCarriedInputs(state.points.get(`${item.traversalId} ${item.node}`), item),
      current: stack.traversalId === item.traversalId && traversal !== undefined,
      holder: holderOf(deps.engineId, item.id),
      running,
    };
    if (scope.current && hasTimedOut(deps, stack)) out.set(item, undefined);
    else out.set(item, { scope, row: state.rows.get(parseNodeKey(item.node).rowId) });
  }
  return out;
}

/** A row write of a batch: compare-and-swap on the row's key and lock holder. */
export interface BatchWrite {
  row: ResourceRecord;
  expectedEngine: string | null;
  /** What the row becomes; with `remove`, what its events tell it became. */
  changes: Partial<ResourceRecord>;
  /** The row leaves the table instead (a stack's delete: nothing reads it again). */
  remove?: true;
}

/**
 * One transaction locks the rows of `writes` (each write's changes take the lock) and tells each
 * start by the event `started` makes of the locked row. Returns the index of each write that won
 * its compare-and-swap, with the row as written.
 */
export async function lockBatch(
  deps: EngineDeps,
  writes: readonly BatchWrite[],
  started: (index: number, next: ResourceRecord) => NewEvent,
): Promise<Map<number, ResourceRecord>> {
  const locked = new Map<number, ResourceRecord>();
  if (writes.length === 0) return locked;
  await deps.store.tx(async (tx) => {
    const won = await tx.resources.updateMany(writes.map(toLockedWrite));
    const events: NewEvent[] = [];
    writes.forEach((write, index) => {
      if (!won.has(write.row.id)) return;
      const next = { ...write.row, ...write.changes, atomicKey: write.row.atomicKey + 1 };
      events.push(started(index, next));
      locked.set(index, next);
    });
    await tx.events.append(events);
  });
  return locked;
}

/** A finished node of a batch: its row write (if any), the events it tells, what it reports. */
export interface BatchResult {
  scope: NodeScope;
  write?: BatchWrite;
  events: (next: ResourceRecord) => NewEvent[];
  output: Json;
}

/**
 * One transaction records every finished node: rows (compare-and-swap each), events, reports to
 * dependents and completed work, propagated per traversal with multi-row statements. `drop` are
 * units to complete with nothing else done. Returns the nodes whose row changed meanwhile (they
 * run again).
 */
export async function recordBatch(
  deps: EngineDeps,
  results: readonly BatchResult[],
  drop: readonly NodeScope[],
  next?: ClaimedNext,
): Promise<NodeScope[]> {
  if (results.length === 0 && drop.length === 0) return [];
  const now = deps.clock.now();
  const { lost, claimed } = await deps.store.tx(async (tx) => {
    const claimed: WorkItem[] = [];
    const claim: ClaimReady | undefined = next && {
      engineId: deps.engineId,
      expires: now + deps.settings.workLeaseMs,
      room: next.room(),
    };
    const lost: NodeScope[] = [];
    const events: NewEvent[] = [];
    const completed = drop.map((scope) => scope.item);
    const reports = new Map<string, { stack: StackRecord; finished: Map<string, Json> }>();
    const writes = results.flatMap((result) => (result.write ? [result.write] : []));
    const written = await tx.resources.updateMany(writes.filter((w) => !w.remove).map(toLockedWrite));
    const removals = writes.filter((w) => w.remove);
    if (removals.length > 0)
      for (const id of await tx.resources.removeMany(removals.map(toLockedWrite))) written.add(id);
    for (const { scope, write, events: told, output } of results) {
      if (write) {
        if (!written.has(write.row.id)) {
          lost.push(scope);
          continue;
        }
        events.push(...told({ ...write.row, ...write.changes, atomicKey: write.row.atomicKey + 1 }));
      }
      completed.push(scope.item);
      if (!scope.current) continue;
      const key = scope.item.traversalId;
      let group = reports.get(key);
      if (!group) reports.set(key, (group = { stack: scope.stack, finished: new Map() }));
      group.finished.set(scope.item.node, output);
    }
    await tx.events.append(events);
    for (const [traversalId, group] of reports) {
      const enqueued = await propagateMany(tx, group.stack, traversalId, group.finished, now, claim);
      if (claim) claim.room -= enqueued.length;
      claimed.push(...enqueued);
    }
    await tx.work.completeMany(completed);
    return { lost, claimed };
  });
  // Only once committed. A commit whose outcome is unknown (the connection lost) throws: should it
  // have committed, its units are held by no one, so not renewed, and claimed again at lease end.
  if (claimed.length > 0) next!.add(claimed);
  return lost;
}

function toLockedWrite(write: BatchWrite) {
  return {
    id: write.row.id,
    expectedKey: write.row.atomicKey,
    expectedEngine: write.expectedEngine,
    changes: write.changes,
  };
}
