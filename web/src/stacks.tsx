import { useEffect, useState } from 'preact/hooks';
import { listStacks, type Session, type Stack } from './api.js';
import { Badge, tone } from './status.js';

const PAGE = 50;
const STATUSES = ['', 'IN_PROGRESS', 'COMPLETE', 'FAILED'];

/** The project's stacks, a page at a time (the API's limit and marker), filtered by name and status. */
export function StacksList({ session }: { session: Session }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  // Markers of the pages before this one: "previous" pops one.
  const [markers, setMarkers] = useState<string[]>([]);
  const [stacks, setStacks] = useState<Stack[] | undefined>();
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

  const shown = stacks?.slice(0, PAGE) ?? [];
  const counts = new Map<string, number>();
  for (const s of shown) counts.set(tone(s.stack_status), (counts.get(tone(s.stack_status)) ?? 0) + 1);

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
      <p class="counts" aria-live="polite">
        {[...counts].map(([t, n]) => (
          <span class={`badge ${t}`}>
            {n} {t}
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
