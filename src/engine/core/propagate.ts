import type { NewWork, StackRecord, SyncReport, Tx, WorkItem } from '../../store/contract.js';
import type { Json } from '../../util/json.js';
import { finishTraversal } from './finish.js';
import { checkUnit, nodeKey, parseNodeKey } from './nodes.js';

/**
 * A node finished: tell every node that needs it, enqueue those that now have all their inputs
 * (the last reporter triggers a node, exactly once), and count the node done; the last node of the
 * traversal completes the stack. All in the caller's transaction, with the state change it follows.
 * Nothing happens when the traversal is gone (superseded or failed).
 */
export async function propagate(
  tx: Tx,
  stack: StackRecord,
  traversalId: string,
  node: string,
  output: Json,
  now: number,
): Promise<void> {
  await propagateMany(tx, stack, traversalId, new Map([[node, output]]), now);
}

/**
 * Up to `room` of the nodes made ready are enqueued already claimed by `engineId` (lease until
 * `expires`), for the caller to run next without claiming them; the rest are enqueued due.
 */
export interface ClaimReady {
  engineId: string;
  expires: number;
  room: number;
}

/**
 * propagate() for many finished nodes of one traversal, with a statement per batch where it can.
 * Returns the items it enqueued claimed (`claim`).
 */
export async function propagateMany(
  tx: Tx,
  stack: StackRecord,
  traversalId: string,
  finished: ReadonlyMap<string, Json>,
  now: number,
  claim?: ClaimReady,
): Promise<WorkItem[]> {
  // Marking done first, with the dependents as they are at this moment, makes a node that runs
  // twice report once, and a dependent added meanwhile (a replacement's cleanup) is not missed.
  const marked = await tx.sync.markDone(traversalId, [...finished.keys()]);
  if (marked.length === 0) return [];
  const work: NewWork[] = [];
  const reports: SyncReport[] = [];
  for (const { node, dependents, direct } of marked) {
    const data = finished.get(node)!;
    for (let i = 0; i < dependents.length; i++) {
      const dependent = dependents[i]!;
      // A cleanup node reads no inputs: it is only counted down, or enqueued with none.
      const cleanup = parseNodeKey(dependent).kind === 'c';
      if (i < direct) {
        // It waits on this node alone, marked done once (above): enqueued now, exactly once.
        work.push(checkUnit(stack, traversalId, dependent, now, cleanup ? undefined : { [node]: data }));
      } else {
        const report = { node: dependent, from: node, data };
        reports.push(cleanup ? { counted: true, ...report } : report);
      }
    }
  }
  for (const n of reports.length > 0 ? await tx.sync.report(traversalId, reports) : [])
    work.push(checkUnit(stack, traversalId, n, now));
  let claimed: WorkItem[] = [];
  if (work.length > 0) {
    const take = Math.max(0, Math.min(claim?.room ?? 0, work.length));
    if (take > 0)
      claimed = await tx.work.enqueueClaimed(work.slice(0, take), claim!.engineId, claim!.expires);
    await tx.work.enqueue(work.slice(take));
  }
  const remaining = await tx.traversals.finishNodes(traversalId, marked.length);
  if (remaining === 0) await finishTraversal(tx, stack, traversalId, now);
  return claimed;
}

/**
 * A resource was replaced during this traversal: its old row gets a cleanup node that runs after
 * every update node that depended on it has moved to the replacement (create before delete).
 */
export async function addReplacementCleanup(
  tx: Tx,
  stack: StackRecord,
  traversalId: string,
  replacedNode: string,
  oldRowId: number,
  now: number,
): Promise<void> {
  const point = await tx.sync.get(traversalId, replacedNode);
  if (!point) return;
  const cleanup = nodeKey('c', oldRowId);
  if (await tx.sync.get(traversalId, cleanup)) return;
  const waitFor = point.dependents.filter((d) => d.startsWith('u:'));
  await tx.sync.insert([
    {
      traversalId,
      node: cleanup,
      stackId: stack.id,
      waiting: waitFor.length,
      dependents: [],
      inputs: {},
      done: false,
    },
  ]);
  for (const dependent of waitFor) await tx.sync.addDependent(traversalId, dependent, cleanup);
  await tx.traversals.finishNodes(traversalId, -1);
  if (waitFor.length === 0) {
    await tx.work.enqueue([checkUnit(stack, traversalId, cleanup, now)]);
  }
}
