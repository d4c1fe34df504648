import { type Adjacency, NONE } from './adjacency.js';

const UNVISITED = 0;
const ON_PATH = 1;
const DONE = 2; // fully explored: no cycle passes through it

/**
 * Finds one cycle by depth-first search along requirement edges, with an explicit stack so that a
 * million-node chain cannot overflow the call stack. Starts are tried in id order and edges in
 * insertion order, so the answer is deterministic; it is then rotated to begin at its smallest id,
 * so the same cycle is always reported the same way. Returns [a, b, ..., a] or undefined. O(V + E).
 */
export function findCycleIds(graph: Adjacency): number[] | undefined {
  const n = graph.nodeCount;
  const { outHead, nextOut, edgeTo } = graph;
  const state = new Uint8Array(n);
  const path = new Int32Array(n); // the current DFS path; path[0] is where it started
  const cursor = new Int32Array(n); // per path depth: the next out-edge to follow
  const depthOf = new Int32Array(n); // per node on the path: its depth
  for (let start = 0; start < n; start++) {
    if (state[start] !== UNVISITED) continue;
    let depth = 0;
    path[0] = start;
    cursor[0] = outHead[start]!;
    state[start] = ON_PATH;
    depthOf[start] = 0;
    while (depth >= 0) {
      const edge = cursor[depth]!;
      if (edge === NONE) {
        state[path[depth]!] = DONE;
        depth--;
        continue;
      }
      cursor[depth] = nextOut[edge]!;
      const target = edgeTo[edge]!;
      if (state[target] === ON_PATH)
        return closeCycle(Array.from(path.subarray(depthOf[target]!, depth + 1)));
      if (state[target] === UNVISITED) {
        depth++;
        path[depth] = target;
        cursor[depth] = outHead[target]!;
        state[target] = ON_PATH;
        depthOf[target] = depth;
      }
    }
  }
  return undefined;
}

/** Rotates a cycle's nodes to start at the smallest id and repeats that node at the end. */
function closeCycle(nodes: number[]): number[] {
  let first = 0;
  for (let i = 1; i < nodes.length; i++) if (nodes[i]! < nodes[first]!) first = i;
  const rotated = [...nodes.slice(first), ...nodes.slice(0, first)];
  rotated.push(rotated[0]!);
  return rotated;
}
