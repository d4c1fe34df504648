import type { ResourceHead, SyncPointRecord } from '../store/contract.js';
import type { Json } from '../util/json.js';
import { type NodeOutput, nodeKey } from './nodes.js';

/** What the planner needs of the desired state: resources by name, with the names each requires. */
export interface DesiredResource {
  name: string;
  type: string;
  requires: readonly string[];
}

/** The convergence graph of one traversal, ready to persist. */
export interface ConvergencePlan {
  /** Sync points, one per node, with predecessor counts and dependents. */
  points: SyncPointRecord[];
  /** Nodes that need nothing: their work is enqueued when the traversal starts. */
  leaves: string[];
}

/**
 * Picks, for each desired resource, the existing row that will carry it: the live row of that name
 * (not replaced, not deleted), preferring a COMPLETE one. Rows not picked are obsolete and get a
 * cleanup node. Returns the names that need a new row.
 *
 * A settled row already converged to `targetTemplateId` wins over any other (Heat scores it
 * highest): when an update is rolled back, the original of a replacement made during the update
 * carries its resource again, and the replacement is the one cleaned up.
 */
export function chooseRows<R extends ResourceHead>(
  desired: readonly DesiredResource[],
  existing: readonly R[],
  targetTemplateId: string | null = null,
): { chosen: Map<string, R>; obsolete: R[]; missing: DesiredResource[] } {
  const byName = new Map<string, R[]>();
  for (const row of existing) {
    const list = byName.get(row.name);
    if (list) list.push(row);
    else byName.set(row.name, [row]);
  }
  const chosen = new Map<string, R>();
  const missing: DesiredResource[] = [];
  for (const want of desired) {
    const rows = byName.get(want.name) ?? [];
    const best = convergedTo(rows, targetTemplateId) ?? pickBest(rows);
    if (best) chosen.set(want.name, best);
    else missing.push(want);
  }
  const keep = new Set([...chosen.values()].map((r) => r.id));
  const obsolete = existing.filter((r) => !keep.has(r.id));
  return { chosen, obsolete, missing };
}

/** The newest COMPLETE row of several already converged to the target template. */
function convergedTo<R extends ResourceHead>(rows: readonly R[], templateId: string | null): R | undefined {
  if (templateId === null || rows.length < 2) return undefined;
  return rows
    .filter((r) => r.templateId === templateId && r.status === 'COMPLETE' && r.action !== 'DELETE')
    .at(-1);
}

function score(row: ResourceHead): number {
  let s = 0;
  if (row.replacedBy !== null) s -= 100; // the replacement carries the name now
  if (row.action === 'DELETE') s -= 50;
  if (row.status === 'FAILED') s -= 30;
  if (row.status === 'COMPLETE') s += 5;
  return s;
}

function pickBest<R extends ResourceHead>(rows: readonly R[]): R | undefined {
  let best: R | undefined;
  for (const row of rows) {
    if (row.replacedBy !== null && rows.some((r) => r.id === row.replacedBy)) continue;
    if (!best || score(row) > score(best) || (score(row) === score(best) && row.id > best.id)) best = row;
  }
  return best;
}

/**
 * Builds the graph. Update nodes follow the template's dependencies. Only rows that must go get a
 * cleanup node (Heat gives every row one, doubling the graph): a cleanup runs after every update
 * node whose resource used to depend on the row (they move away first), and after the cleanup of
 * every obsolete row that depended on it (dependents are deleted first).
 *
 * Resources in `unchanged` get no node: a node that needs one finds its output among its inputs
 * from the start, as if it had reported already.
 */
export function planGraph(
  traversalId: string,
  stackId: string,
  desired: readonly DesiredResource[],
  chosen: ReadonlyMap<string, ResourceHead>,
  obsolete: readonly ResourceHead[],
  unchanged: ReadonlyMap<string, NodeOutput> = new Map(),
): ConvergencePlan {
  const requires = new Map<string, Set<string>>();
  const addNode = (key: string) => {
    if (!requires.has(key)) requires.set(key, new Set());
  };
  const addEdge = (from: string, to: string) => {
    addNode(from);
    addNode(to);
    requires.get(from)!.add(to);
  };

  const prefilled = new Map<string, Record<string, Json>>();
  for (const want of desired) {
    if (unchanged.has(want.name)) continue;
    const row = chosen.get(want.name)!;
    const key = nodeKey('u', row.id);
    addNode(key);
    for (const dep of want.requires) {
      const target = chosen.get(dep);
      if (!target) continue;
      const output = unchanged.get(dep);
      if (!output) {
        addEdge(key, nodeKey('u', target.id));
        continue;
      }
      const inputs = prefilled.get(key) ?? {};
      inputs[nodeKey('u', target.id)] = output as unknown as Json;
      prefilled.set(key, inputs);
    }
  }

  const obsoleteIds = new Set(obsolete.map((r) => r.id));
  for (const row of obsolete) addNode(nodeKey('c', row.id));
  // Rows that stay, by the ids they used to require (an unchanged row requires no obsolete one).
  const chosenById = new Map<number, ResourceHead>();
  for (const row of chosen.values()) {
    chosenById.set(row.id, row);
    for (const req of row.requires) {
      if (obsoleteIds.has(req)) addEdge(nodeKey('c', req), nodeKey('u', row.id));
    }
  }
  for (const row of obsolete) {
    for (const req of row.requires) {
      if (obsoleteIds.has(req) && req !== row.id) addEdge(nodeKey('c', req), nodeKey('c', row.id));
    }
    // An old row replaced by a row that stays goes after the replacement is up to date (at
    // once if the replacement is unchanged).
    const replacement = row.replacedBy === null ? undefined : chosenById.get(row.replacedBy);
    if (replacement && !unchanged.has(replacement.name)) {
      addEdge(nodeKey('c', row.id), nodeKey('u', replacement.id));
    }
  }

  const dependents = new Map<string, string[]>();
  for (const [node, reqs] of requires) {
    for (const req of reqs) {
      const list = dependents.get(req);
      if (list) list.push(node);
      else dependents.set(req, [node]);
    }
  }
  const points: SyncPointRecord[] = [];
  const leaves: string[] = [];
  for (const [node, reqs] of requires) {
    points.push({
      traversalId,
      node,
      stackId,
      waiting: reqs.size,
      dependents: dependents.get(node) ?? [],
      inputs: prefilled.get(node) ?? {},
      done: false,
    });
    if (reqs.size === 0) leaves.push(node);
  }
  return { points, leaves };
}
