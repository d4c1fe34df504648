/** Marks the end of a neighbour list. */
export const NONE = -1;

/**
 * Out-degree above which a node gets a Set of its out-neighbours for duplicate-edge checks. Below
 * it walking the list is cheaper than a Set, and almost every node stays below it.
 */
const SCAN_LIMIT = 16;

/**
 * The integer core of a dependency graph: nodes are dense ids 0..n-1 and edges are ids in the
 * order they were added. Adjacency is a "forward star" in growable typed arrays: each node heads
 * two linked lists of edge ids (out and in), appended at the tail so every list stays in edge
 * insertion order. That costs 16 bytes per edge and 24 per node, with no per-node JS array, so a
 * million nodes and millions of edges fit comfortably, and algorithms never hash inside a loop.
 */
export class Adjacency {
  nodeCount = 0;
  edgeCount = 0;
  // Per node.
  outHead: Int32Array = new Int32Array(16);
  outTail: Int32Array = new Int32Array(16);
  inHead: Int32Array = new Int32Array(16);
  inTail: Int32Array = new Int32Array(16);
  outDegree: Int32Array = new Int32Array(16);
  inDegree: Int32Array = new Int32Array(16);
  // Per edge.
  edgeFrom: Int32Array = new Int32Array(16);
  edgeTo: Int32Array = new Int32Array(16);
  nextOut: Int32Array = new Int32Array(16); // the next edge in edgeFrom's out-list
  nextIn: Int32Array = new Int32Array(16); // the next edge in edgeTo's in-list
  /** Out-neighbour sets of high out-degree nodes, built on first need. */
  private outSets = new Map<number, Set<number>>();

  addNode(): number {
    const node = this.nodeCount;
    if (node === this.outHead.length) this.growNodes(Math.max(16, node * 2));
    this.outHead[node] = this.outTail[node] = this.inHead[node] = this.inTail[node] = NONE;
    this.outDegree[node] = this.inDegree[node] = 0;
    this.nodeCount++;
    return node;
  }

  /** Adds the edge unless it exists; returns whether it was added. */
  addEdge(from: number, to: number): boolean {
    if (this.hasEdge(from, to)) return false;
    const edge = this.edgeCount;
    if (edge === this.edgeFrom.length) this.growEdges(Math.max(16, edge * 2));
    this.edgeFrom[edge] = from;
    this.edgeTo[edge] = to;
    this.nextOut[edge] = this.nextIn[edge] = NONE;
    const outTail = this.outTail[from]!;
    if (outTail === NONE) this.outHead[from] = edge;
    else this.nextOut[outTail] = edge;
    this.outTail[from] = edge;
    const inTail = this.inTail[to]!;
    if (inTail === NONE) this.inHead[to] = edge;
    else this.nextIn[inTail] = edge;
    this.inTail[to] = edge;
    this.outDegree[from]!++;
    this.inDegree[to]!++;
    this.outSets.get(from)?.add(to);
    this.edgeCount++;
    return true;
  }

  hasEdge(from: number, to: number): boolean {
    if (this.outDegree[from]! > SCAN_LIMIT) {
      let set = this.outSets.get(from);
      if (!set) this.outSets.set(from, (set = new Set(this.outNeighbours(from))));
      return set.has(to);
    }
    for (let edge = this.outHead[from]!; edge !== NONE; edge = this.nextOut[edge]!) {
      if (this.edgeTo[edge] === to) return true;
    }
    return false;
  }

  /** The nodes `node` requires, in edge order. */
  outNeighbours(node: number): number[] {
    const result: number[] = [];
    for (let edge = this.outHead[node]!; edge !== NONE; edge = this.nextOut[edge]!)
      result.push(this.edgeTo[edge]!);
    return result;
  }

  /** The nodes that require `node`, in edge order. */
  inNeighbours(node: number): number[] {
    const result: number[] = [];
    for (let edge = this.inHead[node]!; edge !== NONE; edge = this.nextIn[edge]!)
      result.push(this.edgeFrom[edge]!);
    return result;
  }

  /** A copy with every edge turned around: out-lists become in-lists, with the same edge ids. */
  reversed(): Adjacency {
    const copy = new Adjacency();
    copy.nodeCount = this.nodeCount;
    copy.edgeCount = this.edgeCount;
    copy.outHead = this.inHead.slice(0, this.nodeCount);
    copy.outTail = this.inTail.slice(0, this.nodeCount);
    copy.inHead = this.outHead.slice(0, this.nodeCount);
    copy.inTail = this.outTail.slice(0, this.nodeCount);
    copy.outDegree = this.inDegree.slice(0, this.nodeCount);
    copy.inDegree = this.outDegree.slice(0, this.nodeCount);
    copy.edgeFrom = this.edgeTo.slice(0, this.edgeCount);
    copy.edgeTo = this.edgeFrom.slice(0, this.edgeCount);
    copy.nextOut = this.nextIn.slice(0, this.edgeCount);
    copy.nextIn = this.nextOut.slice(0, this.edgeCount);
    return copy;
  }

  private growNodes(capacity: number): void {
    this.outHead = resized(this.outHead, capacity);
    this.outTail = resized(this.outTail, capacity);
    this.inHead = resized(this.inHead, capacity);
    this.inTail = resized(this.inTail, capacity);
    this.outDegree = resized(this.outDegree, capacity);
    this.inDegree = resized(this.inDegree, capacity);
  }

  private growEdges(capacity: number): void {
    this.edgeFrom = resized(this.edgeFrom, capacity);
    this.edgeTo = resized(this.edgeTo, capacity);
    this.nextOut = resized(this.nextOut, capacity);
    this.nextIn = resized(this.nextIn, capacity);
  }
}

function resized(array: Int32Array, capacity: number): Int32Array {
  const next = new Int32Array(capacity);
  next.set(array.subarray(0, Math.min(array.length, capacity)));
  return next;
}
