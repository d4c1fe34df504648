import { useEffect, useState } from 'preact/hooks';
import { countStacks, listStacks, type Session, type Stack } from './api.js';
import { Badge, type Tone } from './status.js';

const PAGE = 50;
const STATUSES = ['', 'IN_PROGRESS', 'COMPLETE', 'FAILED'];
/** The counts shown above the list: every page's stacks matching the search, by status. */
const COUNTED: readonly (readonly [string, Tone])[] = [
  ['COMPLETE', 'complete'],
  ['IN_PROGRESS', 'progress'],
  ['FAILED', 'failed'],
];

/** The project's stacks, a page at a time (the API's limit and marker), filtered by a text in their name and status. */
export function StacksList({ session }: { session: Session }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  // Markers of the pages before this one: "previous" pops one.
  const [markers, setMarkers] = useState<string[]>([]);
  const [stacks, setStacks] = useState<Stack[] | undefined>();
  const [counts, setCounts] = useState<number[] | undefined>();
  const [error, setError] = useState('');
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let live = true;
    const marker = markers.at(-1);
    listStacks(session, {
      limit: PAGE + 1,
      ...(search ? { search } : {}),
      ...(status ? { status } : {}),
      ...(marker ? { marker } : {}),
    })
      .then((page) => live && (setStacks(page), setError('')))
      .catch((err: unknown) => live && setError(String(err instanceof Error ? err.message : err)));
    return () => {
      live = false;
    };
  }, [session, search, status, markers, reload]);

  // Counted by the database (with_count), not from a page: right at 10,000 stacks too.
  useEffect(() => {
    let live = true;
    Promise.all(COUNTED.map(([s]) => countStacks(session, { ...(search ? { search } : {}), status: s })))
      .then((n) => live && setCounts(n))
      .catch(() => live && setCounts(undefined));
    return () => {
      live = false;
    };
  }, [session, search, reload]);

  const shown = stacks?.slice(0, PAGE) ?? [];

  return (
    <section>
      <h1>Stacks</h1>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Name
          <input
            type="search"
            value={search}
            onChange={(e) => (setMarkers([]), setSearch(e.currentTarget.value.trim()))}
          />
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => (setMarkers([]), setStatus(e.currentTarget.value))}>
            {STATUSES.map((s) => (
              <option value={s}>{s || 'any'}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setReload(reload + 1)}>
          Refresh
        </button>
      </form>
      <p class="counts" aria-live="polite" data-testid="stack-counts">
        {counts &&
          COUNTED.map(([s, t], i) => (
            <span class={`badge ${t}`} data-count={s}>
              {counts[i]} {t}
            </span>
          ))}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {stacks && shown.length === 0 && <p data-testid="no-stacks">No stacks.</p>}
      {shown.length > 0 && (
        <table class="stacks">
          <thead>
            <tr>
              <th>Name</th>
              <th>Status</th>
              <th>Created</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((s) => (
              <tr data-stack={s.stack_name}>
                <td>
                  <a href={`#/stacks/${encodeURIComponent(s.stack_name)}/${encodeURIComponent(s.id)}`}>
                    {s.stack_name}
                  </a>
                </td>
                <td>
                  <Badge status={s.stack_status} />
                </td>
                <td>{s.creation_time}</td>
                <td class="reason">{s.stack_status_reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="pages">
        <button
          type="button"
          disabled={markers.length === 0}
          onClick={() => setMarkers(markers.slice(0, -1))}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={!stacks || stacks.length <= PAGE}
          onClick={() => setMarkers([...markers, shown.at(-1)!.id])}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
