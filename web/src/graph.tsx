import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Resource } from './api.js';
import { tone } from './status.js';

/** Above this many resources the graph is drawn as counts by type and status (aggregate.tsx). */
export const GRAPH_LIMIT = 300;
const W = 170;
const H = 44;

interface Layout {
  key: string;
  nodes: Map<string, { x: number; y: number }>;
  edges: { from: string; to: string; points: { x: number; y: number }[] }[];
  width: number;
  height: number;
}

// elkjs is most of the console's weight: loaded with the first graph, not with the page.
let elk: Promise<{ layout: (g: ElkGraph) => Promise<ElkGraph> }> | undefined;
type ElkGraph = import('elkjs/lib/elk-api.js').ElkNode;
const layoutEngine = () => (elk ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK()));

/** The graph's shape only (names and dependencies): a status change keeps the layout. */
function shapeKey(resources: Resource[]): string {
  return resources.map((r) => `${r.resource_name}>${r.required_by.join(',')}`).join('|');
}

async function layout(resources: Resource[], key: string): Promise<Layout> {
  const names = new Set(resources.map((r) => r.resource_name));
  const edges = resources.flatMap((r) =>
    r.required_by
      .filter((d) => names.has(d))
      .map((d) => ({ id: `${r.resource_name}>${d}`, sources: [r.resource_name], targets: [d] })),
  );
  const graph = await (
    await layoutEngine()
  ).layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '16',
      'elk.layered.spacing.nodeNodeBetweenLayers': '40',
    },
    children: resources.map((r) => ({ id: r.resource_name, width: W, height: H })),
    edges,
  });
  return {
    key,
    nodes: new Map((graph.children ?? []).map((n) => [n.id, { x: n.x ?? 0, y: n.y ?? 0 }])),
    edges: (graph.edges ?? []).map((e) => {
      const s = e.sections?.[0];
      return {
        from: e.sources[0]!,
        to: e.targets[0]!,
        points: s ? [s.startPoint, ...(s.bendPoints ?? []), s.endPoint] : [],
      };
    }),
    width: graph.width ?? 0,
    height: graph.height ?? 0,
  };
}

/** Each resource a node (a link: Tab reaches it, Enter opens it), coloured by its status. */
export function NodeGraph(props: {
  resources: Resource[];
  selected?: string | undefined;
  drifted?: ReadonlySet<string>;
  /** The node's colour class, when not its status's tone (an update preview's change). */
  toneOf?: (r: Resource) => string;
  label?: string;
  href: (name: string) => string;
}) {
  const key = useMemo(() => shapeKey(props.resources), [props.resources]);
  const [shape, setShape] = useState<Layout | undefined>();
  useEffect(() => {
    let live = true;
    void layout(props.resources, key).then((l) => live && setShape(l));
    return () => {
      live = false;
    };
  }, [key]);
  if (props.resources.length === 0) return <p class="graph">No resources.</p>;
  if (!shape) return <p class="graph">Laying out…</p>;
  return (
    <div class="graph">
      <svg
        width={shape.width}
        height={shape.height}
        role="group"
        aria-label={props.label ?? 'resources graph'}
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="6"
            markerHeight="6"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" class="arrowhead" />
          </marker>
        </defs>
        {shape.edges.map((e) => (
          <polyline
            key={`${e.from}>${e.to}`}
            class="edge"
            marker-end="url(#arrow)"
            points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
          />
        ))}
        {props.resources.map((r) => {
          const at = shape.nodes.get(r.resource_name);
          if (!at) return null;
          const drifted = props.drifted?.has(r.resource_name) ?? false;
          return (
            <a
              key={r.resource_name}
              href={props.href(r.resource_name)}
              class={`node ${props.toneOf?.(r) ?? tone(r.resource_status)}${props.selected === r.resource_name ? ' selected' : ''}${drifted ? ' drifted' : ''}`}
              data-resource={r.resource_name}
              data-status={r.resource_status}
              data-drifted={drifted ? 'true' : undefined}
              aria-label={`${r.resource_name} ${r.resource_status}${drifted ? ' drifted' : ''}`}
            >
              <rect x={at.x} y={at.y} width={W} height={H} rx={6} />
              {drifted && (
                <text x={at.x + W - 8} y={at.y + 35} class="sub drift-mark" text-anchor="end">
                  drifted
                </text>
              )}
              <text x={at.x + 8} y={at.y + 18}>
                {r.resource_name.length > 22 ? `${r.resource_name.slice(0, 21)}…` : r.resource_name}
              </text>
              <text x={at.x + 8} y={at.y + 35} class="sub">
                {r.resource_status}
              </text>
            </a>
          );
        })}
      </svg>
    </div>
  );
}
