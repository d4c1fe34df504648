import { useMemo, useState } from 'preact/hooks';
import type { Resource } from './api.js';
import { tone, type Tone } from './status.js';

/** Resources listed in a drilled-down group: the DOM stays small at any stack size. */
const LIST_LIMIT = 200;
const TONES: Tone[] = ['complete', 'progress', 'waiting', 'failed'];
/** A drilled-down list's order: what needs looking at first. */
const FIRST: Tone[] = ['failed', 'progress', 'waiting', 'complete'];

/** What a big stack's resources are grouped by: their type, their status, their nested stack. */
type By = 'type' | 'status' | 'nested';
const BY: Record<By, { label: string; key: (r: Resource) => string }> = {
  type: { label: 'type', key: (r) => r.resource_type },
  status: { label: 'status', key: (r) => r.resource_status },
  // A resource that is a stack of its own (a group's, a template resource's) is its own group;
  // the rest share one. Its row links on to the nested stack's page, grouped again there.
  nested: {
    label: 'nested stack',
    key: (r) => (r.links?.some((l) => l.rel === 'nested') ? r.resource_name : '(this stack)'),
  },
};

/**
 * A big stack grouped (by type, status or nested stack): counts per status, and a group opened
 * lists its resources (failed and running first, at most LIST_LIMIT). One pass over the list per
 * change; never a node per resource.
 */
export function Aggregate(props: {
  resources: Resource[];
  drifted?: ReadonlySet<string>;
  href: (name: string) => string;
}) {
  const [by, setBy] = useState<By>('type');
  const [open, setOpen] = useState<string | undefined>();
  const key = BY[by].key;
  const groups = useMemo(() => {
    const out = new Map<string, Record<Tone, number>>();
    for (const r of props.resources) {
      const k = key(r);
      let row = out.get(k);
      if (!row) out.set(k, (row = { complete: 0, progress: 0, waiting: 0, failed: 0 }));
      row[tone(r.resource_status)]++;
    }
    return [...out].sort((a, b) => a[0].localeCompare(b[0]));
  }, [props.resources, key]);
  const inGroup = open === undefined ? [] : props.resources.filter((r) => key(r) === open);
  const listed = inGroup
    .sort((a, b) => FIRST.indexOf(tone(a.resource_status)) - FIRST.indexOf(tone(b.resource_status)))
    .slice(0, LIST_LIMIT);
  return (
    <div class="graph aggregate" data-testid="aggregate">
      <p>
        {props.resources.length} resources, grouped by {BY[by].label} (choose one to list its resources).
      </p>
      <fieldset class="mode">
        <legend>Group by</legend>
        {(Object.keys(BY) as By[]).map((b) => (
          <label class="inline">
            <input
              type="radio"
              name="group-by"
              checked={by === b}
              onChange={() => (setBy(b), setOpen(undefined))}
            />
            {BY[b].label}
          </label>
        ))}
      </fieldset>
      <table>
        <thead>
          <tr>
            <th>{BY[by].label}</th>
            {TONES.map((t) => (
              <th>{t}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map(([group, counts]) => (
            <tr>
              <td>
                <button
                  type="button"
                  aria-expanded={open === group}
                  onClick={() => setOpen(open === group ? undefined : group)}
                >
                  {group}
                </button>
              </td>
              {TONES.map((t) => (
                <td>{counts[t] > 0 ? <span class={`badge ${t}`}>{counts[t]}</span> : 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {open !== undefined && inGroup.length > listed.length && (
        <p>
          The first {listed.length} of {inGroup.length} resources of {open}, failed and running first.
        </p>
      )}
      {open !== undefined && (
        <ul class="drill">
          {listed.map((r) => (
            <li>
              <a
                href={props.href(r.resource_name)}
                class={`badge ${tone(r.resource_status)}`}
                data-resource={r.resource_name}
              >
                {r.resource_name} {r.resource_status}
                {props.drifted?.has(r.resource_name) ? ' (drifted)' : ''}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
