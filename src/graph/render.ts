import type { DependencyGraph } from './graph.js';

export interface DotOptions<K> {
  /** The graph's name; omitted, the digraph is anonymous. */
  name?: string;
  /** A node's label, when it should differ from its id. */
  label?: (key: K) => string;
  /** Extra Graphviz attributes per node, e.g. { shape: 'box', color: 'red' }. */
  nodeAttrs?: (key: K) => Record<string, string>;
}

/**
 * Renders a Graphviz digraph with edges requirer -> required. Node ids are `String(key)`, so keys
 * must stringify distinctly (strings and numbers do). Every id and value is quoted, so any
 * resource name is safe to render.
 */
export function toDot<K>(graph: DependencyGraph<K>, opts: DotOptions<K> = {}): string {
  const lines = [opts.name === undefined ? 'digraph {' : `digraph ${quote(opts.name)} {`];
  for (const key of graph.nodes()) {
    const attrs: Record<string, string> = {};
    if (opts.label) attrs.label = opts.label(key);
    if (opts.nodeAttrs) Object.assign(attrs, opts.nodeAttrs(key));
    const list = Object.entries(attrs).map(([name, value]) => `${attributeName(name)}=${quote(value)}`);
    lines.push(`  ${quote(String(key))}${list.length ? ` [${list.join(', ')}]` : ''};`);
  }
  for (const [requirer, required] of graph.edges()) {
    lines.push(`  ${quote(String(requirer))} -> ${quote(String(required))};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/**
 * A DOT quoted string. DOT itself only unescapes \", but a backslash must be doubled so that a
 * trailing one cannot swallow the closing quote; newlines become \n so each statement stays on
 * one line.
 */
export function quote(text: string): string {
  return `"${text.replace(/[\\"\n\r]/g, (ch) => (ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : `\\${ch}`))}"`;
}

/** Attribute names stay bare when DOT allows it (`shape="box"`), for readability. */
function attributeName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : quote(name);
}

export interface GraphJson<K> {
  nodes: K[];
  edges: { from: K; to: K }[];
}

/** Nodes and edges (from requirer to required) as plain data, in the graph's deterministic order. */
export function toJSON<K>(graph: DependencyGraph<K>): GraphJson<K> {
  return { nodes: graph.nodes(), edges: graph.edges().map(([from, to]) => ({ from, to })) };
}
