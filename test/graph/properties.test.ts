import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CycleError, DependencyGraph } from '../../src/graph/index.js';

/**
 * A random DAG on nodes 0..n-1: an edge [a, b] always has a > b (a requires b), so no cycle is
 * possible. Nodes are added in a random order, and edges (with duplicates) in random order, so
 * that insertion order does not follow the numbering.
 */
const dag = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.record({
    nodeOrder: fc.shuffledSubarray(
      Array.from({ length: n }, (_, i) => i),
      { minLength: n, maxLength: n },
    ),
    // [a, b] with b < a; mapped rather than filtered, since one node has no such pair.
    edges: fc.array(
      fc
        .tuple(fc.integer({ min: 1, max: Math.max(1, n - 1) }), fc.nat())
        .map(([a, b]): [number, number] => [a, b % a]),
      { maxLength: n > 1 ? 120 : 0 },
    ),
  }),
);

/** Any directed graph, self-loops and cycles allowed. */
const anyGraph = fc.integer({ min: 1, max: 25 }).chain((n) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), {
    maxLength: 60,
  }),
);

function build(
  edges: readonly [number, number][],
  nodeOrder: readonly number[] = [],
): DependencyGraph<number> {
  const graph = new DependencyGraph<number>();
  for (const node of nodeOrder) graph.addNode(node);
  for (const [requirer, required] of edges) graph.addEdge(requirer, required);
  return graph;
}

function assertRequiredFirst(graph: DependencyGraph<number>, order: number[]): void {
  assert.equal(order.length, graph.size);
  assert.equal(new Set(order).size, graph.size);
  const position = new Map(order.map((node, i) => [node, i]));
  for (const [requirer, required] of graph.edges()) {
    assert.ok(position.get(required)! < position.get(requirer)!, `${required} must precede ${requirer}`);
  }
}

function assertRealCycle(graph: DependencyGraph<number>, cycle: number[]): void {
  assert.ok(cycle.length >= 2);
  assert.equal(cycle[0], cycle.at(-1));
  for (let i = 0; i + 1 < cycle.length; i++) {
    assert.ok(graph.hasEdge(cycle[i]!, cycle[i + 1]!), `${cycle[i]} -> ${cycle[i + 1]} is not an edge`);
  }
  assert.equal(new Set(cycle.slice(0, -1)).size, cycle.length - 1, 'a cycle visits each node once');
}

describe('graph properties', () => {
  it('orders a random DAG with every required node before its requirer', () => {
    fc.assert(
      fc.property(dag, ({ nodeOrder, edges }) => {
        const graph = build(edges, nodeOrder);
        assert.equal(graph.findCycle(), undefined);
        assertRequiredFirst(graph, graph.topologicalOrder());
        // Every edge appears once, whatever the duplicates.
        assert.equal(graph.edgeCount, new Set(edges.map(([a, b]) => `${a},${b}`)).size);
      }),
    );
  });

  it('orders the reversed DAG with every requirer before what it requires', () => {
    fc.assert(
      fc.property(dag, ({ nodeOrder, edges }) => {
        const graph = build(edges, nodeOrder);
        const reversed = graph.reversed();
        assertRequiredFirst(reversed, reversed.topologicalOrder());
        assert.deepEqual(
          reversed.edges(),
          graph.edges().map(([a, b]) => [b, a]),
        );
        for (const node of graph.nodes()) assert.deepEqual(reversed.requires(node), graph.neededBy(node));
      }),
    );
  });

  it('finds a real cycle once a back edge closes a path of a random DAG', () => {
    fc.assert(
      fc.property(dag, fc.nat(), fc.nat(), (input, startPick, stepsPick) => {
        const graph = build(input.edges, input.nodeOrder);
        // Walk down requirement edges from some node that has any, then link the end back.
        const starts = graph.nodes().filter((node) => graph.requires(node).length > 0);
        fc.pre(starts.length > 0);
        const start = starts[startPick % starts.length]!;
        let end = start;
        for (let step = 0, steps = 1 + (stepsPick % 5); step < steps; step++) {
          const next = graph.requires(end);
          if (next.length === 0) break;
          end = next[(startPick + step) % next.length]!;
        }
        graph.addEdge(end, start);
        const cycle = graph.findCycle();
        assert.ok(cycle, 'a cycle must be found');
        assertRealCycle(graph, cycle);
        assert.throws(
          () => graph.topologicalOrder(),
          (err: unknown) => {
            assert.ok(err instanceof CycleError);
            assert.deepEqual(err.cycle, cycle);
            return true;
          },
        );
      }),
    );
  });

  it('on any graph, either orders it or reports a real cycle', () => {
    fc.assert(
      fc.property(anyGraph, (edges) => {
        const graph = build(edges);
        const cycle = graph.findCycle();
        if (cycle) {
          assertRealCycle(graph, cycle);
          assert.throws(() => graph.topologicalOrder(), CycleError);
          // The cycle starts at its earliest-added node.
          const nodes = graph.nodes();
          const earliest = Math.min(...cycle.map((node) => nodes.indexOf(node)));
          assert.equal(nodes.indexOf(cycle[0]!), earliest);
        } else {
          assertRequiredFirst(graph, graph.topologicalOrder());
        }
      }),
    );
  });

  it('keeps exactly the edges between kept nodes in a subgraph', () => {
    fc.assert(
      fc.property(anyGraph, fc.func(fc.boolean()), (edges, pick) => {
        const keep = (node: number) => pick(node); // one argument: filter() passes three
        const graph = build(edges);
        const sub = graph.subgraph(keep);
        assert.deepEqual(sub.nodes(), graph.nodes().filter(keep));
        assert.deepEqual(
          sub.edges(),
          graph.edges().filter(([a, b]) => keep(a) && keep(b)),
        );
      }),
    );
  });

  it('lists edges and neighbours consistently', () => {
    fc.assert(
      fc.property(anyGraph, (edges) => {
        const graph = build(edges);
        const listed = graph.edges();
        for (const node of graph.nodes()) {
          assert.deepEqual(
            graph.requires(node),
            listed.filter(([a]) => a === node).map(([, b]) => b),
          );
          assert.deepEqual(
            graph.neededBy(node),
            listed.filter(([, b]) => b === node).map(([a]) => a),
          );
        }
        assert.deepEqual(
          graph.leaves(),
          graph.nodes().filter((node) => graph.requires(node).length === 0),
        );
        assert.deepEqual(
          graph.roots(),
          graph.nodes().filter((node) => graph.neededBy(node).length === 0),
        );
      }),
    );
  });
});
