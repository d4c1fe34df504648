import { type Adjacency, NONE } from './adjacency.js';

/**
 * Kahn's algorithm, first-in first-out: the nodes that require nothing come first in insertion
 * order, then each node as soon as everything it requires is placed. Returns node ids, required
 * before requirer, or undefined when a cycle leaves some nodes unplaced. O(V + E), no recursion.
 */
export function topologicalIds(graph: Adjacency): Int32Array | undefined {
  const n = graph.nodeCount;
  const { inHead, nextIn, edgeFrom } = graph;
  const unplaced = graph.outDegree.slice(0, n); // per node: requirements not yet placed
  const order = new Int32Array(n); // doubles as the FIFO queue: [head, tail) are placed, not yet expanded
  let tail = 0;
  for (let node = 0; node < n; node++) if (unplaced[node] === 0) order[tail++] = node;
  for (let head = 0; head < tail; head++) {
    for (let edge = inHead[order[head]!]!; edge !== NONE; edge = nextIn[edge]!) {
      const requirer = edgeFrom[edge]!;
      if (--unplaced[requirer]! === 0) order[tail++] = requirer;
    }
  }
  return tail === n ? order : undefined;
}
