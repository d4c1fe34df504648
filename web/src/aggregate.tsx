import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  type Resource,
  type ResourceFilter,
  resourcePage,
  type ResourceSummary,
  type Session,
  stackHash,
} from './api.js';
import { tone, type Tone } from './status.js';

/** Resources listed per page of a drilled-down group: the DOM stays small at any stack size. */
export const PAGE = 200;
const TONES: Tone[] = ['complete', 'progress', 'waiting', 'failed'];
/** The tones a status filter can name alone (`FAILED`, `IN_PROGRESS` match every action). */
const FILTERED: Partial<Record<Tone, string>> = { failed: 'FAILED', progress: 'IN_PROGRESS' };

type By = 'type' | 'status' | 'nested';
const LABEL: Record<By, string> = { type: 'type', status: 'status', nested: 'nested stack' };

interface Group {
  name: string;
  counts: Record<Tone, number>;
  /** What listing the group asks the server; none for a nested stack (its row links to its page). */
  filter?: ResourceFilter;
  /** The nested stack's page. */
  link?: string | undefined;
}

/** A drilled-down list: the group's filter and how many it has, when the summary knows. */
interface Open {
  key: string;
  label: string;
  filter: ResourceFilter;
  count?: number | undefined;
}

const zero = (): Record<Tone, number> => ({ complete: 0, progress: 0, waiting: 0, failed: 0 });
const sum = (counts: Record<Tone, number>) => TONES.reduce((n, t) => n + counts[t], 0);

/** The summary's counts grouped for a table: by type, by status, or by nested stack. */
function groupsOf(summary: ResourceSummary, by: By): Group[] {
  if (by === 'type') {
    return Object.entries(summary.by_type).map(([type, statuses]) => {
      const counts = zero();
      for (const [status, n] of Object.entries(statuses)) counts[tone(status)] += n;
      return { name: type, counts, filter: { type } };
    });
  }
  if (by === 'status') {
    return Object.entries(summary.by_status).map(([status, n]) => {
      const counts = zero();
      counts[tone(status)] = n;
      return { name: status, counts, filter: { status } };
    });
  }
  // The stack's own resources (listed whole), then each resource that is a stack of its own.
  const own = zero();
  for (const [status, n] of Object.entries(summary.by_status)) own[tone(status)] += n;
  const nested = summary.nested.resources.map((r) => {
    const counts = zero();
    counts[tone(r.resource_status)] = 1;
    own[tone(r.resource_status)]--;
    const href = r.links.find((l) => l.rel === 'nested')?.href;
    return { name: r.resource_name, counts, link: href && stackHash(href) };
  });
  return [{ name: '(this stack)', counts: own, filter: {} }, ...nested];
}

/**
 * A big stack as counts (by type, status or nested stack) read from the server, and a group opened
 * into pages of its resources read from the server too: the page never holds the stack's list.
 * `summary` is read again as the stack changes; the open page is then read again with it.
 */
export function Aggregate(props: {
  session: Session;
  path: string;
  summary: ResourceSummary;
  drifted?: ReadonlySet<string>;
  href: (name: string) => string;
}) {
  const { summary } = props;
  const [by, setBy] = useState<By>('type');
  const [open, setOpen] = useState<Open | undefined>();
  // Markers of the pages before the one shown (the first page's is undefined).
  const [markers, setMarkers] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<{ rows: Resource[]; next?: string | undefined } | undefined>();
  const [error, setError] = useState('');
  const [search, setSearch] = useState('');
  const asked = useRef(0);
  const groups = useMemo(
    () => groupsOf(summary, by).sort((a, b) => a.name.localeCompare(b.name)),
    [summary, by],
  );
  const marker = markers.at(-1);

  useEffect(() => {
    if (!open) return;
    const mine = ++asked.current;
    resourcePage(props.session, props.path, open.filter, {
      limit: PAGE,
      ...(marker === undefined ? {} : { marker }),
    })
      .then((r) => {
        if (mine !== asked.current) return;
        setPage({ rows: r.resources, next: r.next_marker });
        setError('');
      })
      .catch((err: unknown) => mine === asked.current && setError(String(err)));
    // The summary read again means the stack changed: the open page too is read again.
  }, [open, marker, summary, props.session, props.path]);

  const show = (next: Open | undefined) => {
    setOpen(next);
    setMarkers([undefined]);
    setPage(undefined);
  };
  const toggle = (key: string, label: string, filter: ResourceFilter, count: number) =>
    show(open?.key === key ? undefined : { key, label, filter, count });

  const first = (markers.length - 1) * PAGE + 1;
  const rows = page?.rows ?? [];
  return (
    <div class="graph aggregate" data-testid="aggregate">
      <p>
        {summary.total} resources, grouped by {LABEL[by]} (choose one to list its resources).
      </p>
      <fieldset class="mode">
        <legend>Group by</legend>
        {(Object.keys(LABEL) as By[]).map((b) => (
          <label class="inline">
            <input
              type="radio"
              name="group-by"
              checked={by === b}
              onChange={() => (setBy(b), show(undefined))}
            />
            {LABEL[b]}
          </label>
        ))}
      </fieldset>
      <form
        class="find"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const text = search.trim();
          show(
            text
              ? { key: `name:${text}`, label: `names containing “${text}”`, filter: { name_contains: text } }
              : undefined,
          );
        }}
      >
        <label class="inline">
          Find by name{' '}
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      <table>
        <thead>
          <tr>
            <th>{LABEL[by]}</th>
            {TONES.map((t) => (
              <th>{t}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr>
              <td>
                {g.filter ? (
                  <button
                    type="button"
                    aria-expanded={open?.key === g.name}
                    onClick={() => toggle(g.name, g.name, g.filter!, sum(g.counts))}
                  >
                    {g.name}
                  </button>
                ) : (
                  <a href={g.link}>{g.name}</a>
                )}
              </td>
              {TONES.map((t) => {
                const n = g.counts[t];
                if (n <= 0) return <td>0</td>;
                const status = FILTERED[t];
                // A type's failed or running resources, listed on their own.
                if (by === 'type' && status) {
                  const key = `${g.name} ${t}`;
                  return (
                    <td>
                      <button
                        type="button"
                        class={`badge ${t}`}
                        aria-label={`${n} ${t} ${g.name}`}
                        aria-expanded={open?.key === key}
                        onClick={() => toggle(key, `${g.name}, ${t}`, { ...g.filter, status }, n)}
                      >
                        {n}
                      </button>
                    </td>
                  );
                }
                return (
                  <td>
                    <span class={`badge ${t}`}>{n}</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {by === 'nested' && summary.nested.total > summary.nested.resources.length && (
        <p>
          The first {summary.nested.resources.length} of {summary.nested.total} nested stacks.
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {open && page && (
        <p data-testid="drill-range">
          {rows.length === 0
            ? `No resources of ${open.label}.`
            : `Resources ${first}–${first + rows.length - 1}${open.count === undefined ? '' : ` of ${open.count}`} of ${open.label}, by name.`}{' '}
          {markers.length > 1 && (
            <button type="button" onClick={() => setMarkers((m) => m.slice(0, -1))}>
              Previous {PAGE}
            </button>
          )}{' '}
          {page.next !== undefined && (
            <button type="button" onClick={() => setMarkers((m) => [...m, page.next])}>
              Next {PAGE}
            </button>
          )}
        </p>
      )}
      {open && (
        <ul class="drill">
          {rows.map((r) => (
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
