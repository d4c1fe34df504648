import type { Json } from '../../util/json.js';
import type { StackAction } from './actions.js';

/* Traversals: an operation's graph, persisted as sync points that finished nodes report to. */

/** One traversal's graph, persisted: nodes with the count of predecessors not yet done. */
export interface TraversalRecord {
  id: string;
  stackId: string;
  rootStackId: string;
  action: StackAction;
  templateId: string | null;
  /** Nodes not yet finished; the traversal is complete at 0. */
  remaining: number;
  createdAt: string;
  /**
   * Whether this update compares resources with their live state before deciding (engine/nodes/converge.ts):
   * every resource (`--converge`, `observe_on_update`), or only those the last drift detection found
   * changed, in the listed stacks (a heal); null: with the stored state, as usual.
   */
  converge: ConvergeScope | null;
}

export type ConvergeScope = { mode: 'all' } | { mode: 'drifted'; stacks: string[] };

export interface SyncPointRecord {
  traversalId: string;
  node: string;
  stackId: string;
  /** Predecessors that have not reported yet. */
  waiting: number;
  /** Nodes that need this one (the edges out), so a finishing node knows whom to notify. */
  dependents: string[];
  /**
   * How many of `dependents`, from the first, wait on this node alone (direct dependents): they
   * are enqueued with this node's output as their one input (NewWork.inputs) instead of being
   * reported to, so they get no input row and no countdown. Their own `waiting` stays as planned.
   * 0 when absent; nodes added later (addDependent) are never direct.
   */
  direct?: number;
  /** Data reported by finished predecessors, by predecessor node. */
  inputs: Record<string, Json>;
  done: boolean;
}

/** A finished node's data for one node that needs it. */
export interface SyncReport {
  /** The node reported to. */
  node: string;
  /** The finished node. */
  from: string;
  data: Json;
  /**
   * The node reads no inputs (a cleanup node): the report only counts down, storing nothing.
   * Not idempotent then: the caller reports once (propagate does, after marking the sender done
   * in the same transaction).
   */
  counted?: true;
}

/** The traversals table: one persisted graph per running operation. */
export interface TraversalRepository {
  insert(traversal: TraversalRecord): Promise<void>;
  get(id: string): Promise<TraversalRecord | undefined>;
  /**
   * Decrements `remaining` by `count` (negative: nodes added) and returns the new value.
   * Throws if the traversal does not exist.
   */
  finishNodes(id: string, count: number): Promise<number>;
  delete(id: string): Promise<void>;
}

/** The sync points of traversals: one per node. */
export interface SyncPointRepository {
  insert(points: SyncPointRecord[]): Promise<void>;
  get(traversalId: string, node: string): Promise<SyncPointRecord | undefined>;
  /**
   * The points of `nodes` that exist, inputs included (one query for a batch of nodes), or with
   * `inputs` false none read (`inputs` is {}: cleanup nodes read none).
   */
  getMany(
    traversalId: string,
    nodes: readonly string[],
    options?: { inputs?: boolean },
  ): Promise<SyncPointRecord[]>;
  /**
   * Finished predecessors report: each report stores its data in the node's inputs and
   * decrements the node's `waiting`. Idempotent per (node, from): a repeated report changes
   * nothing, so a unit of work that runs twice counts once (but a `counted` one). Reports to points that are gone (a
   * superseded traversal) are ignored. Returns the nodes whose `waiting` these reports brought to
   * 0 and that are not done: each node is returned once, by the call that completed it.
   */
  report(traversalId: string, reports: readonly SyncReport[]): Promise<string[]>;
  /**
   * Marks nodes done. Returns the ones this call marked (not done before, still there), each with
   * its dependents as they are now: the caller reports to exactly those, exactly once.
   */
  markDone(
    traversalId: string,
    nodes: readonly string[],
  ): Promise<{ node: string; dependents: string[]; direct: number }[]>;
  /** Adds `dependent` to the dependents of `node` (a cleanup node added during the traversal). */
  addDependent(traversalId: string, node: string, dependent: string): Promise<void>;
  deleteTraversal(traversalId: string): Promise<void>;
}
