import { useState } from 'preact/hooks';
import { ApiError, call, type Resource, type Session } from './api.js';
import { GRAPH_LIMIT, NodeGraph } from './graph.js';

/** Heat's update preview: the resources of each kind of change. */
type Change = 'added' | 'replaced' | 'updated' | 'deleted' | 'unchanged';
const CHANGES: Change[] = ['added', 'replaced', 'updated', 'deleted', 'unchanged'];
const SAID: Record<Change, string> = {
  added: 'added',
  replaced: 'replaced (a new one made, the old one deleted)',
  updated: 'updated in place',
  deleted: 'deleted',
  unchanged: 'unchanged',
};

interface PreviewResource {
  resource_name: string;
  resource_type: string;
  required_by?: string[];
}

/** The preview's resources as graph nodes, their change as their status (ADDED, REPLACED ...). */
function nodesOf(changes: Record<Change, PreviewResource[]>): Resource[] {
  return CHANGES.flatMap((change) =>
    (changes[change] ?? []).map((r) => ({
      resource_name: r.resource_name,
      resource_type: r.resource_type,
      resource_status: change.toUpperCase(),
      resource_status_reason: SAID[change],
      physical_resource_id: '',
      required_by: r.required_by ?? [],
      updated_time: '',
    })),
  );
}

/**
 * An update previewed as a diff of the graph: the template given here sent to Heat's update
 * preview (PATCH: the stack's parameters kept), each resource drawn coloured by what the update
 * would do to it; above the graph's limit, the counts and the names of what changes.
 */
export function UpdatePreview(props: { session: Session; path: string; href: (name: string) => string }) {
  const [template, setTemplate] = useState('');
  const [changes, setChanges] = useState<Record<Change, PreviewResource[]> | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await call<{ resource_changes: Record<Change, PreviewResource[]> }>(
        props.session,
        'PATCH',
        `${props.path}/preview`,
        { template },
      );
      setChanges(r.resource_changes);
    } catch (err) {
      setChanges(undefined);
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const nodes = changes ? nodesOf(changes) : [];
  return (
    <details class="preview">
      <summary>Preview an update</summary>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          New template (YAML or JSON; the stack's parameters are kept)
          <textarea rows={8} value={template} onInput={(e) => setTemplate(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy || template.trim() === ''}>
          Preview
        </button>
      </form>
      {error && (
        <p role="alert" class="error" data-testid="preview-error">
          {error}
        </p>
      )}
      {changes && (
        <div data-testid="preview">
          <p class="legend" aria-live="polite">
            {CHANGES.map((c) => (
              <span class={`badge change-${c}`} data-change={c}>
                {changes[c]?.length ?? 0} {c}
              </span>
            ))}
          </p>
          {nodes.length <= GRAPH_LIMIT ? (
            <NodeGraph
              resources={nodes}
              href={props.href}
              label="update preview graph"
              toneOf={(r) => `change-${r.resource_status.toLowerCase()}`}
            />
          ) : (
            <ul class="drill">
              {nodes
                .filter((n) => n.resource_status !== 'UNCHANGED')
                .slice(0, 200)
                .map((n) => (
                  <li
                    class={`badge change-${n.resource_status.toLowerCase()}`}
                    data-resource={n.resource_name}
                  >
                    {n.resource_name} {n.resource_status}
                  </li>
                ))}
            </ul>
          )}
        </div>
      )}
    </details>
  );
}
