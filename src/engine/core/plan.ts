import type { ResourceHead, SyncPointRecord } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import type { Json } from '../../util/json.js';
import { runToEnd, type Sliceable } from '../../util/loop-slice.js';
import { type NodeOutput, nodeKey } from './nodes.js';

/** How many resources the planner handles between points where it may pause. */
const STEP = 512;

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
  return runToEnd(chooseRowsSteps(desired, existing, targetTemplateId));
}

/** `chooseRows` as sliceable work. */
export function* chooseRowsSteps<R extends ResourceHead>(
  desired: readonly DesiredResource[],
  existing: readonly R[],
  targetTemplateId: string | null = null,
): Sliceable<{ chosen: Map<string, R>; obsolete: R[]; missing: DesiredResource[] }> {
  let step = 0;
  const byName = new Map<string, R[]>();
  for (const row of existing) {
    if (++step % STEP === 0) yield;
    const list = byName.get(row.name);
    if (list) list.push(row);
    else byName.set(row.name, [row]);
  }
  const chosen = new Map<string, R>();
  const missing: DesiredResource[] = [];
  for (const want of desired) {
    if (++step % STEP === 0) yield;
    const rows = byName.get(want.name) ?? [];
    const best = convergedTo(rows, targetTemplateId) ?? pickBest(rows);
    if (best) chosen.set(want.name, best);
    else missing.push(want);
  }
  const keep = new Set<number>();
  for (const r of chosen.values()) keep.add(r.id);
  yield;
  const obsolete: R[] = [];
  for (const r of existing) {
    if (++step % STEP === 0) yield;
    if (!keep.has(r.id)) obsolete.push(r);
  }
  return { chosen, obsolete, missing };
}

/** The newest COMPLETE row of several already converged to the target template. */
function convergedTo<R extends ResourceHead>(rows: readonly R[], templateId: string | null): R | undefined {
  if (templateId === null || rows.length < 2) return undefined;
  return rows
    .filter((r) => r.templateId === templateId && r.status === 'COMPLETE' && r.action !== 'DELETE')
    .at(-1);
}

/**
 * Whether a replaced row lost its name to its replacement: it did unless the replacement failed
 * (Heat then prefers the original, so going back to the old definition keeps the original).
 */
function replaced(row: ResourceHead, byId: ReadonlyMap<number, ResourceHead>): boolean {
  if (row.replacedBy === null) return false;
  const replacement = byId.get(row.replacedBy);
  return replacement !== undefined && replacement.status !== 'FAILED';
}

function score(row: ResourceHead, byId: ReadonlyMap<number, ResourceHead>): number {
  let s = 0;
  if (replaced(row, byId)) s -= 100; // the replacement carries the name now
  if (row.action === 'DELETE') s -= 50;
  if (row.status === 'FAILED') s -= 30;
  if (row.status === 'COMPLETE') s += 5;
  return s;
}

function pickBest<R extends ResourceHead>(rows: readonly R[]): R | undefined {
  const byId = new Map<number, ResourceHead>(rows.map((r) => [r.id, r]));
  let best: R | undefined;
  for (const row of rows) {
    if (replaced(row, byId)) continue;
    const s = score(row, byId);
    const b = best && score(best, byId);
    if (!best || s > b! || (s === b && row.id > best.id)) best = row;
  }
  return best;
}

/**
 * Resources by dependency depth: those needing none of the others first, then those needing only
 * them, and so on (template order within a depth). New rows are inserted in this order so that
 * the nodes of one wave of a traversal, which are claimed and recorded together, sit side by
 * side in the table: a batch's writes dirty a few neighbouring pages instead of one page per row.
 */
export function byDepth<D extends DesiredResource>(resources: readonly D[]): D[] {
  return runToEnd(byDepthSteps(resources));
}

/** `byDepth` as sliceable work. */
export function* byDepthSteps<D extends DesiredResource>(resources: readonly D[]): Sliceable<D[]> {
  let step = 0;
  const index = new Map<string, number>();
  for (let i = 0; i < resources.length; i++) {
    if (++step % STEP === 0) yield;
    index.set(resources[i]!.name, i);
  }
  const depth = new Float64Array(resources.length);
  const waiting = new Int32Array(resources.length);
  // Most resources have no dependents: their lists are made only when needed.
  const dependents: (number[] | undefined)[] = new Array(resources.length);
  for (let i = 0; i < resources.length; i++) {
    if (++step % STEP === 0) yield;
    const requires = resources[i]!.requires;
    for (const name of requires.length > 1 ? new Set(requires) : requires) {
      const j = index.get(name);
      if (j === undefined || j === i) continue;
      waiting[i]!++;
      (dependents[j] ??= []).push(i);
    }
  }
  const ready: number[] = [];
  for (let i = 0; i < resources.length; i++) if (waiting[i] === 0) ready.push(i);
  yield;
  for (let k = 0; k < ready.length; k++) {
    if (++step % STEP === 0) yield;
    const i = ready[k]!;
    for (const d of dependents[i] ?? []) {
      depth[d] = Math.max(depth[d]!, depth[i]! + 1);
      if (--waiting[d]! === 0) ready.push(d);
    }
  }
  // A cycle cannot reach here (templates are validated); were one to, its members go last.
  for (let i = 0; i < resources.length; i++) if (waiting[i]! > 0) depth[i] = Infinity;
  // Buckets by depth (the cycle's last): a stable order in linear time, in slices.
  const buckets: D[][] = [];
  const last: D[] = [];
  for (let i = 0; i < resources.length; i++) {
    if (++step % STEP === 0) yield;
    const d = depth[i]!;
    if (d === Infinity) last.push(resources[i]!);
    else (buckets[d] ??= []).push(resources[i]!);
  }
  const ordered: D[] = [];
  for (const bucket of buckets) if (bucket) for (const r of bucket) ordered.push(r);
  for (const r of last) ordered.push(r);
  return ordered;
}

/**
 * Builds the graph. Update nodes follow the template's dependencies. Only rows that must go get a
 * cleanup node (Heat gives every row one, doubling the graph): a cleanup runs after every update
 * node whose resource used to depend on the row (they move away first), and after the cleanup of
 * every obsolete row that depended on it (dependents are deleted first).
 *
 * Resources in `unchanged` get no node: a node that needs one finds its output among its inputs
 * from the start, as if it had reported already. Sliceable work (util/loop-slice.ts): planning
 * 200,000 nodes takes about a second.
 */
export function* planGraphSteps(
  traversalId: string,
  stackId: string,
  desired: readonly DesiredResource[],
  chosen: ReadonlyMap<string, ResourceHead>,
  obsolete: readonly ResourceHead[],
  unchanged: ReadonlyMap<string, NodeOutput> = new Map(),
): Sliceable<ConvergencePlan> {
  let step = 0;
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
    if (++step % STEP === 0) yield;
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
    if (++step % STEP === 0) yield;
    chosenById.set(row.id, row);
    for (const req of row.requires) {
      if (obsoleteIds.has(req)) addEdge(nodeKey('c', req), nodeKey('u', row.id));
    }
  }
  for (const row of obsolete) {
    if (++step % STEP === 0) yield;
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
    if (++step % STEP === 0) yield;
    for (const req of reqs) {
      const list = dependents.get(req);
      if (list) list.push(node);
      else dependents.set(req, [node]);
    }
  }
  // A node waiting on one predecessor and nothing prefilled is that predecessor's direct
  // dependent: enqueued with its output, no input row or countdown (a chain's links all are).
  const isDirect = (node: string) => requires.get(node)!.size === 1 && !prefilled.has(node);
  const points: SyncPointRecord[] = [];
  const leaves: string[] = [];
  for (const [node, reqs] of requires) {
    if (++step % STEP === 0) yield;
    const list = dependents.get(node) ?? [];
    let direct = 0;
    for (const d of list) if (isDirect(d)) direct++;
    points.push({
      traversalId,
      node,
      stackId,
      waiting: reqs.size,
      // Direct dependents first: `direct` counts them (later additions go after them).
      dependents: direct === 0 || direct === list.length ? list : directFirst(list, isDirect),
      direct,
      inputs: prefilled.get(node) ?? {},
      done: false,
    });
    if (reqs.size === 0) leaves.push(node);
  }
  return { points, leaves };
}

function directFirst(list: readonly string[], isDirect: (node: string) => boolean): string[] {
  return [...list.filter(isDirect), ...list.filter((d) => !isDirect(d))];
}

export function desiredOf(definition: StackDefinition): DesiredResource[] {
  return [...definition.resources].map(([name, resource]) => ({
    name,
    type: resource.implementation.type,
    requires: resource.requires,
  }));
}
