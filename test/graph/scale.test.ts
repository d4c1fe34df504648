import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleError, DependencyGraph } from '../../src/graph/index.js';

// Generous bounds: these take a few hundred milliseconds, but a shared 2-core CI machine is slow.
const BOUND_MS = 3000;

function timed<T>(run: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = run();
  return { result, ms: performance.now() - start };
}

/**
 * 200,000 nodes: a chain of 100,000 (each link requires the previous one, so a recursive
 * algorithm would overflow the stack), and 100,000 fan nodes that each require the chain's end
 * and a shared base (fan-in), all required by one top node (a huge out-degree).
 */
function chainAndFan(): DependencyGraph {
  const graph = new DependencyGraph();
  const half = 100_000;
  for (let i = 1; i < half; i++) graph.addEdge(`chain${i}`, `chain${i - 1}`);
  for (let i = 0; i < half; i++) {
    graph.addEdge(`fan${i}`, 'base');
    graph.addEdge(`fan${i}`, `chain${half - 1}`);
    graph.addEdge('top', `fan${i}`);
  }
  return graph;
}

describe('graph at scale', () => {
  it('orders a 200,000-node chain and fan-in graph quickly', () => {
    const { result: graph, ms: buildMs } = timed(chainAndFan);
    assert.equal(graph.size, 200_002);
    assert.equal(graph.edgeCount, 99_999 + 300_000);
    assert.ok(buildMs < BOUND_MS * 2, `building took ${buildMs} ms`);

    const { result: order, ms } = timed(() => graph.topologicalOrder());
    assert.ok(ms < BOUND_MS, `ordering took ${ms} ms`);
    const position = new Map(order.map((node, i) => [node, i]));
    assert.equal(position.size, graph.size);
    for (const [requirer, required] of graph.edges())
      assert.ok(position.get(required)! < position.get(requirer)!);
    assert.equal(order.at(-1), 'top');

    const { result: cycle, ms: cycleMs } = timed(() => graph.findCycle());
    assert.equal(cycle, undefined);
    assert.ok(cycleMs < BOUND_MS, `cycle search took ${cycleMs} ms`);

    const { result: deleteOrder, ms: reverseMs } = timed(() => graph.reversed().topologicalOrder());
    assert.ok(reverseMs < BOUND_MS, `reversing and ordering took ${reverseMs} ms`);
    assert.equal(deleteOrder[0], 'top');
  });

  it('finds a 200,000-node cycle without overflowing the stack', () => {
    const graph = new DependencyGraph<number>();
    const n = 200_000;
    for (let i = 0; i < n; i++) graph.addEdge(i, (i + 1) % n);
    const { result: cycle, ms } = timed(() => graph.findCycle());
    assert.ok(ms < BOUND_MS, `cycle search took ${ms} ms`);
    assert.equal(cycle?.length, n + 1);
    assert.equal(cycle[0], 0);
    assert.equal(cycle[n - 1], n - 1);
    assert.equal(cycle[n], 0);
    assert.throws(() => graph.topologicalOrder(), CycleError);
  });
});
