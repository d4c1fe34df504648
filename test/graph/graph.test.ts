import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleError, DependencyGraph, UnknownNodeError } from '../../src/graph/index.js';

/** Builds a graph from [requirer, required] pairs. */
function graphOf(edges: [string, string][], nodes: string[] = []): DependencyGraph {
  const graph = new DependencyGraph();
  for (const node of nodes) graph.addNode(node);
  for (const [requirer, required] of edges) graph.addEdge(requirer, required);
  return graph;
}

/** Asserts `cycle` is a closed walk along edges of `graph` that visits no node twice. */
function assertRealCycle(graph: DependencyGraph, cycle: string[] | undefined): void {
  assert.ok(cycle, 'expected a cycle');
  assert.ok(cycle.length >= 2);
  assert.equal(cycle[0], cycle.at(-1));
  for (let i = 0; i + 1 < cycle.length; i++) assert.ok(graph.hasEdge(cycle[i]!, cycle[i + 1]!));
  assert.equal(new Set(cycle.slice(0, -1)).size, cycle.length - 1);
}

describe('DependencyGraph nodes', () => {
  it('starts empty', () => {
    const graph = new DependencyGraph();
    assert.equal(graph.size, 0);
    assert.equal(graph.edgeCount, 0);
    assert.deepEqual(graph.nodes(), []);
    assert.deepEqual(graph.edges(), []);
    assert.deepEqual(graph.topologicalOrder(), []);
    assert.equal(graph.findCycle(), undefined);
  });

  it('adds nodes idempotently, in insertion order', () => {
    const graph = new DependencyGraph();
    graph.addNode('b');
    graph.addNode('a');
    graph.addNode('b');
    assert.equal(graph.size, 2);
    assert.deepEqual(graph.nodes(), ['b', 'a']);
    assert.ok(graph.has('a'));
    assert.ok(!graph.has('c'));
  });

  it('returns copies, so callers cannot corrupt the graph', () => {
    const graph = graphOf([['a', 'b']]);
    graph.nodes().push('x');
    graph.requires('a').push('x');
    graph.edges().pop();
    assert.deepEqual(graph.nodes(), ['a', 'b']);
    assert.deepEqual(graph.requires('a'), ['b']);
    assert.deepEqual(graph.edges(), [['a', 'b']]);
  });

  it('treats keys by identity, so any key type works', () => {
    const graph = new DependencyGraph<number>();
    graph.addEdge(2, 1);
    graph.addEdge(3, 2);
    assert.deepEqual(graph.topologicalOrder(), [1, 2, 3]);
    const a = { name: 'a' };
    const b = { name: 'a' };
    const objects = new DependencyGraph<{ name: string }>();
    objects.addEdge(a, b);
    assert.equal(objects.size, 2);
    assert.deepEqual(objects.requires(a), [b]);
    assert.equal(objects.requires(a)[0], b);
  });
});

describe('DependencyGraph edges', () => {
  it('adds missing nodes: requirer first, then required', () => {
    const graph = graphOf([['web', 'db']]);
    assert.deepEqual(graph.nodes(), ['web', 'db']);
    assert.equal(graph.edgeCount, 1);
  });

  it('ignores duplicate edges', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['a', 'c'],
      ['a', 'b'],
      ['a', 'b'],
    ]);
    assert.equal(graph.edgeCount, 2);
    assert.deepEqual(graph.requires('a'), ['b', 'c']);
    assert.deepEqual(graph.neededBy('b'), ['a']);
    assert.deepEqual(graph.edges(), [
      ['a', 'b'],
      ['a', 'c'],
    ]);
  });

  it('ignores duplicate edges of a node with a large out-degree', () => {
    const graph = new DependencyGraph();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 100; i++) graph.addEdge('hub', `n${i}`);
    }
    assert.equal(graph.edgeCount, 100);
    assert.equal(graph.requires('hub').length, 100);
    assert.ok(graph.hasEdge('hub', 'n99'));
    assert.ok(!graph.hasEdge('n99', 'hub'));
    // The reversed copy checks duplicates on its own lists.
    const reversed = graph.reversed();
    for (let i = 0; i < 100; i++) reversed.addEdge(`n${i}`, 'hub');
    assert.equal(reversed.edgeCount, 100);
    const fanIn = graph.reversed().reversed();
    for (let i = 0; i < 100; i++) fanIn.addEdge('hub', `n${i}`);
    assert.equal(fanIn.edgeCount, 100);
  });

  it('distinguishes an edge from its reverse', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    assert.equal(graph.edgeCount, 2);
    assert.ok(graph.hasEdge('a', 'b'));
    assert.ok(graph.hasEdge('b', 'a'));
    assert.ok(!graph.hasEdge('a', 'missing'));
    assert.ok(!graph.hasEdge('missing', 'a'));
  });

  it('lists neighbours in edge insertion order', () => {
    const graph = graphOf([
      ['app', 'net'],
      ['lb', 'app'],
      ['app', 'db'],
      ['mon', 'app'],
      ['app', 'key'],
    ]);
    assert.deepEqual(graph.requires('app'), ['net', 'db', 'key']);
    assert.deepEqual(graph.neededBy('app'), ['lb', 'mon']);
    assert.deepEqual(graph.requires('net'), []);
    assert.deepEqual(graph.neededBy('lb'), []);
  });

  it('lists edges in the order they were added', () => {
    const graph = graphOf([
      ['c', 'a'],
      ['b', 'a'],
      ['c', 'b'],
    ]);
    assert.deepEqual(graph.edges(), [
      ['c', 'a'],
      ['b', 'a'],
      ['c', 'b'],
    ]);
  });

  it('throws UnknownNodeError when asked about a missing node', () => {
    const graph = graphOf([['a', 'b']]);
    assert.throws(() => graph.requires('x'), UnknownNodeError);
    assert.throws(() => graph.neededBy('x'), { name: 'UnknownNodeError', message: 'unknown node: x' });
  });

  it('keeps a self-loop as an ordinary edge', () => {
    const graph = graphOf([['a', 'a']], ['b']);
    assert.equal(graph.edgeCount, 1);
    assert.deepEqual(graph.requires('a'), ['a']);
    assert.deepEqual(graph.neededBy('a'), ['a']);
    assert.deepEqual(graph.leaves(), ['b']);
    assert.deepEqual(graph.roots(), ['b']);
  });
});

describe('leaves and roots', () => {
  it('finds the nodes that require nothing and the nodes nothing needs', () => {
    // lb -> app -> {db, net}; db -> net; lonely stands alone.
    const graph = graphOf(
      [
        ['lb', 'app'],
        ['app', 'db'],
        ['app', 'net'],
        ['db', 'net'],
      ],
      ['lonely'],
    );
    assert.deepEqual(graph.leaves(), ['lonely', 'net']);
    assert.deepEqual(graph.roots(), ['lonely', 'lb']);
  });

  it('finds one leaf and one root per component', () => {
    const graph = graphOf([
      ['a2', 'a1'],
      ['b2', 'b1'],
      ['a3', 'a2'],
    ]);
    assert.deepEqual(graph.leaves(), ['a1', 'b1']);
    assert.deepEqual(graph.roots(), ['b2', 'a3']);
  });
});

describe('findCycle', () => {
  it('finds nothing in a DAG, even with shared dependencies (diamonds)', () => {
    const graph = graphOf([
      ['top', 'left'],
      ['top', 'right'],
      ['left', 'bottom'],
      ['right', 'bottom'],
    ]);
    assert.equal(graph.findCycle(), undefined);
  });

  it('reports a self-loop as [a, a]', () => {
    assert.deepEqual(graphOf([['a', 'a']]).findCycle(), ['a', 'a']);
  });

  it('reports a two-node cycle', () => {
    assert.deepEqual(
      graphOf([
        ['a', 'b'],
        ['b', 'a'],
      ]).findCycle(),
      ['a', 'b', 'a'],
    );
  });

  it('follows requirement edges and starts at the earliest-added node of the cycle', () => {
    // z was added first; the cycle x -> y -> z -> x must be reported from z.
    const graph = graphOf(
      [
        ['x', 'y'],
        ['y', 'z'],
        ['z', 'x'],
      ],
      ['z'],
    );
    const cycle = graph.findCycle();
    assert.deepEqual(cycle, ['z', 'x', 'y', 'z']);
    assertRealCycle(graph, cycle);
  });

  it('leaves out the path that leads into the cycle', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'b'],
    ]);
    assert.deepEqual(graph.findCycle(), ['b', 'c', 'd', 'b']);
  });

  it('finds a cycle in a later disconnected component', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'd'],
    ]);
    assert.deepEqual(graph.findCycle(), ['d', 'e', 'd']);
  });

  it('finds a cycle behind nodes already explored from another start', () => {
    // From `a` the search finishes b and c; the cycle c <-> e is only entered later, from d.
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['d', 'e'],
      ['e', 'c'],
      ['c', 'f'],
    ]);
    assert.equal(graph.findCycle(), undefined);
    graph.addEdge('f', 'e');
    const cycle = graph.findCycle();
    assert.deepEqual(cycle, ['c', 'f', 'e', 'c']);
    assertRealCycle(graph, cycle);
  });

  it('is deterministic', () => {
    const build = () =>
      graphOf([
        ['a', 'b'],
        ['b', 'a'],
        ['c', 'd'],
        ['d', 'c'],
        ['b', 'c'],
      ]);
    assert.deepEqual(build().findCycle(), ['a', 'b', 'a']);
    assert.deepEqual(build().findCycle(), build().findCycle());
  });
});

describe('topologicalOrder', () => {
  it('puts every required node before its requirer', () => {
    const graph = graphOf([
      ['lb', 'app'],
      ['app', 'db'],
      ['app', 'net'],
      ['db', 'net'],
    ]);
    assert.deepEqual(graph.topologicalOrder(), ['net', 'db', 'app', 'lb']);
  });

  it('orders ready nodes first-in first-out, by insertion order', () => {
    const graph = graphOf(
      [
        ['c', 'a'],
        ['d', 'b'],
        ['e', 'c'],
        ['e', 'd'],
      ],
      ['a', 'b', 'x'],
    );
    assert.deepEqual(graph.topologicalOrder(), ['a', 'b', 'x', 'c', 'd', 'e']);
  });

  it('includes every node of disconnected components', () => {
    const graph = graphOf([
      ['a2', 'a1'],
      ['b2', 'b1'],
    ]);
    graph.addNode('solo');
    assert.deepEqual(graph.topologicalOrder(), ['a1', 'b1', 'solo', 'a2', 'b2']);
  });

  it('throws a CycleError that carries the cycle', () => {
    const graph = graphOf([
      ['ok', 'a'],
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
    ]);
    assert.throws(
      () => graph.topologicalOrder(),
      (err: unknown) => {
        assert.ok(err instanceof CycleError);
        assert.ok(err instanceof Error);
        assert.equal(err.name, 'CycleError');
        assert.deepEqual(err.cycle, ['a', 'b', 'c', 'a']);
        assert.equal(err.message, 'dependency cycle: a -> b -> c -> a');
        return true;
      },
    );
  });

  it('throws on a self-loop', () => {
    assert.throws(() => graphOf([['a', 'a']]).topologicalOrder(), { name: 'CycleError', cycle: ['a', 'a'] });
  });

  it('keeps the whole of a long cycle on the error, and a short message', () => {
    const graph = new DependencyGraph<number>();
    for (let i = 0; i < 100; i++) graph.addEdge(i, (i + 1) % 100);
    assert.throws(
      () => graph.topologicalOrder(),
      (err: unknown) => {
        assert.ok(err instanceof CycleError);
        assert.equal(err.cycle.length, 101);
        assert.match(err.message, /^dependency cycle: 0 -> 1 -> .* -> 19 -> \.\.\. \(100 nodes\)$/);
        return true;
      },
    );
  });
});

describe('reversed', () => {
  it('keeps the nodes and turns every edge around', () => {
    const graph = graphOf(
      [
        ['lb', 'app'],
        ['app', 'db'],
      ],
      ['solo'],
    );
    const reversed = graph.reversed();
    assert.deepEqual(reversed.nodes(), ['solo', 'lb', 'app', 'db']);
    assert.deepEqual(reversed.edges(), [
      ['app', 'lb'],
      ['db', 'app'],
    ]);
    assert.deepEqual(reversed.requires('app'), graph.neededBy('app'));
    assert.deepEqual(reversed.neededBy('app'), graph.requires('app'));
    assert.deepEqual(reversed.leaves(), graph.roots());
    assert.deepEqual(reversed.topologicalOrder(), ['solo', 'lb', 'app', 'db']);
  });

  it('is independent of the original', () => {
    const graph = graphOf([['a', 'b']]);
    const reversed = graph.reversed();
    reversed.addEdge('c', 'a');
    reversed.addEdge('a', 'b');
    graph.addEdge('d', 'b');
    assert.deepEqual(graph.nodes(), ['a', 'b', 'd']);
    assert.deepEqual(graph.edges(), [
      ['a', 'b'],
      ['d', 'b'],
    ]);
    assert.deepEqual(reversed.nodes(), ['a', 'b', 'c']);
    assert.deepEqual(reversed.edges(), [
      ['b', 'a'],
      ['c', 'a'],
      ['a', 'b'],
    ]);
    assert.ok(!graph.has('c'));
    assert.ok(!reversed.has('d'));
  });

  it('reverses a cycle', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
    ]);
    assert.deepEqual(graph.reversed().findCycle(), ['a', 'c', 'b', 'a']);
  });

  it('reverses an empty graph', () => {
    const reversed = new DependencyGraph().reversed();
    assert.equal(reversed.size, 0);
    reversed.addEdge('a', 'b');
    assert.deepEqual(reversed.topologicalOrder(), ['b', 'a']);
  });
});

describe('subgraph', () => {
  it('keeps the accepted nodes in order and the edges between them', () => {
    const graph = graphOf([
      ['lb', 'app'],
      ['app', 'db'],
      ['app', 'net'],
      ['db', 'net'],
      ['lb', 'net'],
    ]);
    const sub = graph.subgraph((key) => key !== 'app');
    assert.deepEqual(sub.nodes(), ['lb', 'db', 'net']);
    assert.deepEqual(sub.edges(), [
      ['db', 'net'],
      ['lb', 'net'],
    ]);
    assert.equal(sub.edgeCount, 2);
    assert.deepEqual(sub.neededBy('net'), ['db', 'lb']);
  });

  it('can keep everything or nothing', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    const all = graph.subgraph(() => true);
    assert.deepEqual(all.edges(), graph.edges());
    assert.deepEqual(all.findCycle(), ['a', 'b', 'a']);
    const none = graph.subgraph(() => false);
    assert.equal(none.size, 0);
    assert.equal(none.edgeCount, 0);
  });

  it('is independent of the original', () => {
    const graph = graphOf([['a', 'b']]);
    const sub = graph.subgraph(() => true);
    sub.addEdge('b', 'c');
    assert.equal(graph.size, 2);
    assert.equal(graph.edgeCount, 1);
  });

  it('drops a cycle when one of its nodes is left out', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
    ]);
    assert.deepEqual(graph.subgraph((key) => key !== 'c').topologicalOrder(), ['b', 'a']);
  });
});
