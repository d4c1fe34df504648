import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { etaMs, duration, RateWindow } from '../../src/cli/progress-view.js';
import { Aggregate } from './aggregate.js';
import {
  ApiError,
  call,
  type Resource,
  resourceSummary,
  type ResourceSummary,
  type Session,
  type Stack,
  type StackEvent,
  stackPath,
} from './api.js';
import { GRAPH_LIMIT, NodeGraph } from './graph.js';
import { applyEvents, BATCH_MS, batcher } from './live.js';
import { UpdatePreview } from './preview.js';
import { ResourceDetail } from './resource.js';
import { Badge } from './status.js';
import { driftedOf, onTimeline, Timeline, timelineOf, useTimelineEvents } from './timeline.js';
import { type Progress, watchStack } from './watch.js';

/** Events kept on the page: the stream goes on, the DOM does not grow. */
const EVENTS_SHOWN = 100;
/** The observer's live events kept (the timeline shows fewer): a page open for days stays small. */
const OBSERVED_KEPT = 500;
/**
 * How often, at most, a changing stack is read again: its list when drawn node by node, else its
 * counts, every 2 s, or less often above 40,000 resources (a count reads every row of the stack:
 * 5 s at 100,000), the progress line being live meanwhile from the stream.
 */
const REREAD_MS = { graph: 1000, counts: (total: number) => Math.max(2000, total / 20) };

/**
 * A stack's page: its progress, resources graph and events, kept current by the watch stream
 * (no reload, no polling); a resource's detail beside them when one is chosen.
 */
export function StackPage(props: { session: Session; name: string; id: string; resource?: string }) {
  const { session } = props;
  const path = stackPath({ stack_name: props.name, id: props.id });
  const [stack, setStack] = useState<Stack | undefined>();
  // The whole list only when the graph is drawn node by node (GRAPH_LIMIT resources at most);
  // above, the server's counts and pages (aggregate.tsx): never a 100,000-row list in the page.
  const [resources, setResources] = useState<Resource[]>([]);
  const [summary, setSummary] = useState<ResourceSummary | undefined>();
  // A resource chosen that the list does not hold (a big stack's): read on its own.
  const [chosen, setChosen] = useState<Resource | undefined>();
  const [events, setEvents] = useState<StackEvent[]>([]);
  // The observer's events that came live (oldest first), after those read when the page opened.
  const [observed, setObserved] = useState<StackEvent[]>([]);
  // Read once the stack is known to be observed: a stack never observed has no timeline to read.
  const readObserved = useTimelineEvents(session, path, props.name, stack?.observe_interval !== undefined);
  const [progress, setProgress] = useState<Progress | undefined>();
  const [connected, setConnected] = useState(true);
  const [error, setError] = useState('');
  const rate = useRef(new RateWindow());
  const refetch = useRef<number | undefined>(undefined);
  // The size of the stack as last counted, for the stream's handler (made once per page).
  const counted = useRef(0);

  const load = useMemo(
    () => async () => {
      try {
        const [s, counts] = await Promise.all([
          call<{ stack: Stack }>(session, 'GET', path),
          resourceSummary(session, path),
        ]);
        const small = counts.total <= GRAPH_LIMIT;
        const r = small
          ? await call<{ resources: Resource[] }>(session, 'GET', `${path}/resources`)
          : undefined;
        setStack(s.stack);
        counted.current = counts.total;
        setSummary(counts);
        setResources(r?.resources ?? []);
      } catch (err) {
        setError(err instanceof ApiError && err.status === 404 ? 'Stack not found' : String(err));
      }
    },
    [session, path],
  );
  // Rows the events name but the list lacks (new resources), the stack's own status, a big
  // stack's counts: read again, at most every REREAD_MS however many events come,
  // and never while a read is under way.
  const reading = useRef(false);
  const later = (ms: number) => {
    if (refetch.current !== undefined) return;
    refetch.current = window.setTimeout(() => {
      if (reading.current) {
        refetch.current = undefined;
        later(ms);
        return;
      }
      reading.current = true;
      void load().finally(() => {
        reading.current = false;
        refetch.current = undefined;
      });
    }, ms);
  };

  useEffect(() => {
    // The recent events after the resources: on a busy server, what makes the page usable first.
    void load().then(() =>
      call<{ events: StackEvent[] }>(session, 'GET', `${path}/events?limit=${EVENTS_SHOWN}`)
        .then((r) =>
          setEvents((live) =>
            [...live, ...r.events.filter((e) => !live.some((l) => l.id === e.id))].slice(0, EVENTS_SHOWN),
          ),
        )
        .catch(() => undefined),
    );
    // Events applied in batches: a big create's thousands a second make a few renders.
    const events = batcher<StackEvent>(BATCH_MS, (batch) => {
      setEvents((list) => [...batch.slice(-EVENTS_SHOWN).reverse(), ...list].slice(0, EVENTS_SHOWN));
      const timeline = batch.filter((e) => onTimeline(e, props.name));
      if (timeline.length > 0) setObserved((list) => [...list, ...timeline].slice(-OBSERVED_KEPT));
      setResources((list) => {
        if (list.length === 0) {
          // A big stack (or an empty one): its counts read again.
          later(REREAD_MS.counts(counted.current));
          return list;
        }
        const { next, missing } = applyEvents(list, batch);
        // Read the list again (throttled) for a row it lacks, the stack's own change, and, while
        // the graph is drawn node by node, a resource done: its dependencies are recorded then.
        const done = batch.some((e) => /_(COMPLETE|FAILED)$/.test(e.resource_status));
        if (missing || done) later(REREAD_MS.graph);
        return next;
      });
    });
    const stop = watchStack(session, path, {
      progress(p) {
        if (p.counts) rate.current.add(Date.now(), p.counts.done);
        setProgress(p);
        setStack(
          (s) => s && { ...s, stack_status: p.stack_status, stack_status_reason: p.stack_status_reason },
        );
      },
      event: (e) => events.push(e),
      connected: setConnected,
    });
    return () => {
      stop();
      events.cancel();
      window.clearTimeout(refetch.current);
    };
  }, [session, path]);

  // A resource opened from a big stack's list (or its address): read alone, and again as the stack changes.
  useEffect(() => {
    const name = props.resource;
    if (name === undefined || resources.some((r) => r.resource_name === name)) return;
    let live = true;
    call<{ resource: Resource }>(session, 'GET', `${path}/resources/${encodeURIComponent(name)}`)
      .then((r) => live && setChosen(r.resource))
      .catch(() => live && setChosen(undefined));
    return () => {
      live = false;
    };
  }, [session, path, props.resource, summary]);

  // The progress line's counts without the stream's: the list's when the page has it.
  const byStatus = useMemo(() => {
    if (resources.length === 0) return summary?.by_status ?? {};
    const out: Record<string, number> = {};
    for (const r of resources) out[r.resource_status] = (out[r.resource_status] ?? 0) + 1;
    return out;
  }, [resources, summary]);

  const timeline = useMemo(() => {
    const read = new Set(readObserved.map((e) => e.id));
    return timelineOf([...readObserved, ...observed.filter((e) => !read.has(e.id))], props.name);
  }, [readObserved, observed, props.name]);
  const drifted = useMemo(() => driftedOf(timeline), [timeline]);

  if (error)
    return (
      <p role="alert" class="error" data-testid="stack-error">
        {error}
      </p>
    );
  if (!stack) return <p>Loading…</p>;
  const href = (r: string) =>
    `#/stacks/${encodeURIComponent(props.name)}/${encodeURIComponent(props.id)}/resources/${encodeURIComponent(r)}`;
  const listed = props.resource ? resources.find((r) => r.resource_name === props.resource) : undefined;
  const selected = listed ?? (chosen?.resource_name === props.resource ? chosen : undefined);
  const big = summary !== undefined && summary.total > GRAPH_LIMIT;
  return (
    <section class="stack">
      <h1>
        {stack.stack_name} <Badge status={stack.stack_status} />
      </h1>
      {stack.stack_status_reason && <p class="reason">{stack.stack_status_reason}</p>}
      {!connected && <p class="warn">Live updates interrupted; reconnecting…</p>}
      <ProgressBar progress={progress} byStatus={byStatus} rate={rate.current.rate()} />
      <div class="panes">
        {big ? (
          <Aggregate session={session} path={path} summary={summary} drifted={drifted} href={href} />
        ) : (
          <NodeGraph resources={resources} selected={props.resource} drifted={drifted} href={href} />
        )}
        {selected && (
          <ResourceDetail
            session={session}
            path={path}
            resource={selected}
            observed={timeline.find((t) => t.subject === selected.resource_name)?.id}
          />
        )}
      </div>
      <UpdatePreview session={session} path={path} href={href} />
      <Timeline entries={timeline} observed={observedText(stack)} />
      <h2>Events</h2>
      <ol class="events" aria-live="polite" data-testid="events">
        {events.map((e) => (
          <li key={e.id}>
            <time>{e.event_time}</time> <strong>{e.resource_name}</strong>{' '}
            <Badge status={e.resource_status} /> <span class="reason">{e.resource_status_reason}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function observedText(stack: Stack): string | undefined {
  if (stack.observe_interval === undefined) return undefined;
  const heals = stack.heal ? ', healed when it drifts' : ', drift reported, not healed';
  return `Observed every ${stack.observe_interval} s${heals}.`;
}

/** Done / in progress / waiting / failed as `--wait` counts them, the rate and the time left. */
function ProgressBar(props: {
  progress: Progress | undefined;
  /** The resources by status (`ACTION_STATUS: n`): the server's counts. */
  byStatus: Record<string, number>;
  rate: number | undefined;
}) {
  const counts = props.progress?.counts;
  const statuses = Object.entries(props.byStatus);
  const count = (test: (status: string) => boolean) =>
    statuses.reduce((n, [status, k]) => (test(status) ? n + k : n), 0);
  const failed = counts?.failed ?? count((s) => s.endsWith('FAILED'));
  if (!counts || counts.total === 0) {
    const done = count((s) => s.endsWith('COMPLETE'));
    return (
      <p class="progress" data-testid="progress">
        {done} of {count(() => true)} resources complete, {failed} failed
      </p>
    );
  }
  const pct = (n: number) => `${((n / counts.total) * 100).toFixed(1)}%`;
  const eta = etaMs(counts, props.rate);
  return (
    <div class="progress" data-testid="progress">
      <div
        class="bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={counts.done}
      >
        <span class="complete" style={{ width: pct(counts.done) }} />
        <span class="progress" style={{ width: pct(counts.inProgress) }} />
        <span class="failed" style={{ width: pct(counts.failed) }} />
      </div>
      <p>
        {counts.done} / {counts.total} done, {counts.inProgress} in progress, {counts.waiting} waiting,{' '}
        {counts.failed} failed
        {props.rate !== undefined && ` · ${props.rate.toFixed(1)}/s`}
        {eta !== undefined && ` · about ${duration(eta)} left`}
      </p>
    </div>
  );
}
