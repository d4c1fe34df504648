import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DependencyGraph, toDot, toJSON } from '../../src/graph/index.js';

function sample(): DependencyGraph {
  const graph = new DependencyGraph();
  graph.addEdge('lb', 'app');
  graph.addEdge('app', 'db');
  graph.addNode('solo');
  return graph;
}

describe('toDot', () => {
  it('renders every node, then every edge from requirer to required', () => {
    assert.equal(
      toDot(sample()),
      [
        'digraph {',
        '  "lb";',
        '  "app";',
        '  "db";',
        '  "solo";',
        '  "lb" -> "app";',
        '  "app" -> "db";',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('names the graph and adds labels and attributes, all quoted', () => {
    const dot = toDot(sample(), {
      name: 'my stack',
      label: (key) => key.toUpperCase(),
      nodeAttrs: (key): Record<string, string> => (key === 'db' ? { shape: 'box', color: 'red' } : {}),
    });
    const lines = dot.split('\n');
    assert.equal(lines[0], 'digraph "my stack" {');
    assert.equal(lines[1], '  "lb" [label="LB"];');
    assert.equal(lines[3], '  "db" [label="DB", shape="box", color="red"];');
  });

  it('lets nodeAttrs override the label', () => {
    const dot = toDot(sample(), { label: () => 'x', nodeAttrs: () => ({ label: 'y' }) });
    assert.match(dot, /^ {2}"lb" \[label="y"\];$/m);
  });

  it('escapes quotes, backslashes and newlines in ids, names and attributes', () => {
    const graph = new DependencyGraph();
    graph.addEdge('say "hi"', 'C:\\dir\\');
    graph.addNode('two\nlines\r');
    const dot = toDot(graph, { name: 'a"b', nodeAttrs: () => ({ tooltip: 'x"\\' }) });
    assert.equal(
      dot,
      [
        'digraph "a\\"b" {',
        '  "say \\"hi\\"" [tooltip="x\\"\\\\"];',
        '  "C:\\\\dir\\\\" [tooltip="x\\"\\\\"];',
        '  "two\\nlines\\r" [tooltip="x\\"\\\\"];',
        '  "say \\"hi\\"" -> "C:\\\\dir\\\\";',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps every statement on one line and every quoted string closed', () => {
    const graph = new DependencyGraph();
    const nasty = ['"', '\\', '\\"', '"\\', '\n', '}', '->', ';', 'a b', ''];
    for (const key of nasty) graph.addEdge(key, 'x');
    const lines = toDot(graph).trimEnd().split('\n');
    assert.equal(lines.length, 2 + nasty.length + 1 + nasty.length);
    for (const line of lines.slice(1, -1)) {
      // Drop escaped pairs; what remains must be balanced quotes around plain text.
      const unescaped = line.replace(/\\./g, '');
      assert.match(unescaped, /^ {2}"[^"\\]*"( -> "[^"\\]*")?( \[.*\])?;$/);
    }
  });

  it('quotes attribute names that are not plain identifiers', () => {
    const dot = toDot(sample(), { nodeAttrs: () => ({ 'odd name': 'v', _ok1: 'w' }) });
    assert.match(dot, /^ {2}"lb" \["odd name"="v", _ok1="w"\];$/m);
  });

  it('renders numeric keys as quoted ids', () => {
    const graph = new DependencyGraph<number>();
    graph.addEdge(2, 1);
    assert.match(toDot(graph), /"2" -> "1";/);
  });
});

describe('toJSON', () => {
  it('lists nodes and edges from requirer to required', () => {
    assert.deepEqual(toJSON(sample()), {
      nodes: ['lb', 'app', 'db', 'solo'],
      edges: [
        { from: 'lb', to: 'app' },
        { from: 'app', to: 'db' },
      ],
    });
  });

  it('is plain data that survives JSON.stringify', () => {
    const data = toJSON(sample());
    assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
  });

  it('renders an empty graph', () => {
    assert.deepEqual(toJSON(new DependencyGraph()), { nodes: [], edges: [] });
    assert.equal(toDot(new DependencyGraph()), 'digraph {\n}\n');
  });
});
