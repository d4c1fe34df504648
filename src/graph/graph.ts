import { Adjacency } from './adjacency.js';
import { findCycleIds } from './cycles.js';
import { CycleError, UnknownNodeError } from './errors.js';
import { topologicalIds } from './order.js';

/**
 * A directed graph of "requirer depends on required" edges. Keys map to dense integer ids over an
 * array-based adjacency, so every algorithm is iterative and O(V + E): the graph is sized for
 * stacks of a million resources.
 *
 * Every listing is deterministic: nodes in the order they were added, edges and neighbours in the
 * order their edges were added.
 */
export class DependencyGraph<K = string> {
  private ids = new Map<K, number>();
  private keys: K[] = [];
  /**
   * Whether `ids` and `keys` are shared with a reversed() copy. Copying a million-entry Map costs
   * more than reversing the edges, so both graphs share them until one adds a node.
   */
  private keysShared = false;
  private adjacency = new Adjacency();

  /** Adds `key` unless present. */
  addNode(key: K): void {
    this.idOf(key);
  }

  /** Records that `requirer` depends on `required`, adding either node if missing. Idempotent. */
  addEdge(requirer: K, required: K): void {
    const from = this.idOf(requirer);
    this.adjacency.addEdge(from, this.idOf(required));
  }

  has(key: K): boolean {
    return this.ids.has(key);
  }

  /** Whether `requirer` directly depends on `required`. */
  hasEdge(requirer: K, required: K): boolean {
    const from = this.ids.get(requirer);
    const to = this.ids.get(required);
    return from !== undefined && to !== undefined && this.adjacency.hasEdge(from, to);
  }

  /** Number of nodes. */
  get size(): number {
    return this.keys.length;
  }

  get edgeCount(): number {
    return this.adjacency.edgeCount;
  }

  /** What `key` directly depends on. Throws UnknownNodeError for a missing node. */
  requires(key: K): K[] {
    return this.keysOf(this.adjacency.outNeighbours(this.existingId(key)));
  }

  /** What directly depends on `key`. Throws UnknownNodeError for a missing node. */
  neededBy(key: K): K[] {
    return this.keysOf(this.adjacency.inNeighbours(this.existingId(key)));
  }

  nodes(): K[] {
    return this.keys.slice();
  }

  /** Every edge as [requirer, required], in the order edges were added. */
  edges(): [K, K][] {
    const { edgeCount, edgeFrom, edgeTo } = this.adjacency;
    const edges = new Array<[K, K]>(edgeCount);
    for (let edge = 0; edge < edgeCount; edge++) {
      edges[edge] = [this.keys[edgeFrom[edge]!]!, this.keys[edgeTo[edge]!]!];
    }
    return edges;
  }

  /** Nodes that require nothing: where a create traversal starts. */
  leaves(): K[] {
    const { outDegree } = this.adjacency;
    return this.keys.filter((_, id) => outDegree[id] === 0);
  }

  /** Nodes nothing requires: where a delete traversal starts. */
  roots(): K[] {
    const { inDegree } = this.adjacency;
    return this.keys.filter((_, id) => inDegree[id] === 0);
  }

  /** One cycle as [a, b, ..., a], each node requiring the next, starting at its earliest-added node. */
  findCycle(): K[] | undefined {
    const cycle = findCycleIds(this.adjacency);
    return cycle && this.keysOf(cycle);
  }

  /** Every node, each after everything it requires (create order). Throws CycleError on a cycle. */
  topologicalOrder(): K[] {
    const order = topologicalIds(this.adjacency);
    if (!order) throw new CycleError(this.findCycle()!);
    const keys = new Array<K>(order.length);
    for (let i = 0; i < order.length; i++) keys[i] = this.keys[order[i]!]!;
    return keys;
  }

  /** The same nodes with every edge turned around; its topological order is a delete order. */
  reversed(): DependencyGraph<K> {
    const graph = new DependencyGraph<K>();
    graph.ids = this.ids;
    graph.keys = this.keys;
    graph.keysShared = this.keysShared = true;
    graph.adjacency = this.adjacency.reversed();
    return graph;
  }

  /** The nodes `keep` accepts, in the same order, with the edges between them in the same order. */
  subgraph(keep: (key: K) => boolean): DependencyGraph<K> {
    const graph = new DependencyGraph<K>();
    const newId = new Int32Array(this.keys.length).fill(-1);
    for (let id = 0; id < this.keys.length; id++) {
      const key = this.keys[id]!;
      if (keep(key)) newId[id] = graph.idOf(key);
    }
    const { edgeCount, edgeFrom, edgeTo } = this.adjacency;
    for (let edge = 0; edge < edgeCount; edge++) {
      const from = newId[edgeFrom[edge]!]!;
      const to = newId[edgeTo[edge]!]!;
      if (from >= 0 && to >= 0) graph.adjacency.addEdge(from, to);
    }
    return graph;
  }

  private idOf(key: K): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      if (this.keysShared) {
        this.ids = new Map(this.ids);
        this.keys = this.keys.slice();
        this.keysShared = false;
      }
      id = this.adjacency.addNode();
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }

  private existingId(key: K): number {
    const id = this.ids.get(key);
    if (id === undefined) throw new UnknownNodeError(key);
    return id;
  }

  private keysOf(ids: readonly number[]): K[] {
    return ids.map((id) => this.keys[id]!);
  }
}
