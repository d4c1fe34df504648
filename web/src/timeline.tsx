import { useEffect, useState } from 'preact/hooks';
import { call, type Session, type StackEvent } from './api.js';

/** Entries kept: the observer's last hour or so, never a growing DOM. */
const SHOWN = 50;

export type Moment = 'drift' | 'in-sync' | 'heal' | 'healed' | 'heal-failed' | 'stopped';

export interface TimelineEntry {
  id: string;
  time: string;
  kind: Moment;
  /** The drifted resource, or the stack for a heal. */
  subject: string;
  text: string;
}

const LABEL: Record<Moment, string> = {
  drift: 'Drift',
  'in-sync': 'In sync again',
  heal: 'Heal started',
  healed: 'Healed',
  'heal-failed': 'Heal failed',
  stopped: 'Healing stopped',
};

/**
 * What an event says on the observer's timeline, if anything: a resource's OBSERVE events (drift
 * found, back in sync) and the stack's own heal (an UPDATE whose start says "healing"), ended by
 * the stack's next UPDATE_COMPLETE or UPDATE_FAILED. `healing` is whether a heal is under way
 * before this event (events taken oldest first).
 */
export function momentOf(e: StackEvent, stackName: string, healing: boolean): Moment | undefined {
  if (e.resource_name !== stackName) {
    if (e.resource_status === 'OBSERVE_FAILED') return 'drift';
    if (e.resource_status === 'OBSERVE_COMPLETE') return 'in-sync';
    return undefined;
  }
  if (e.resource_status_reason.startsWith('Healing stopped')) return 'stopped';
  if (e.resource_status === 'UPDATE_IN_PROGRESS' && /\bhealing\b/.test(e.resource_status_reason))
    return 'heal';
  if (healing && e.resource_status === 'UPDATE_COMPLETE') return 'healed';
  if (healing && e.resource_status === 'UPDATE_FAILED') return 'heal-failed';
  return undefined;
}

/** Events (oldest first) into timeline entries, newest first. */
export function timelineOf(events: StackEvent[], stackName: string): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  let healing = false;
  for (const e of events) {
    const kind = momentOf(e, stackName, healing);
    if (kind === 'heal') healing = true;
    else if (kind === 'healed' || kind === 'heal-failed' || kind === 'stopped') healing = false;
    else if (e.resource_name === stackName && e.resource_status.endsWith('_IN_PROGRESS')) healing = false;
    if (!kind) continue;
    out.push({
      id: e.id,
      time: e.event_time,
      kind,
      subject: e.resource_name,
      text: e.resource_status_reason,
    });
  }
  return out.reverse().slice(0, SHOWN);
}

/** The resources whose last observation found them drifted (from the timeline, newest first). */
export function driftedOf(entries: TimelineEntry[]): Set<string> {
  const seen = new Set<string>();
  const drifted = new Set<string>();
  for (const t of entries) {
    if (t.kind !== 'drift' && t.kind !== 'in-sync') continue;
    if (seen.has(t.subject)) continue;
    seen.add(t.subject);
    if (t.kind === 'drift') drifted.add(t.subject);
  }
  return drifted;
}

/**
 * The events the timeline is made of, read once: the OBSERVE events and the stack's own events
 * (the API's filters), oldest first; the live stream adds the rest.
 */
export function useTimelineEvents(
  session: Session,
  path: string,
  stackName: string,
  observed: boolean,
): StackEvent[] {
  const [events, setEvents] = useState<StackEvent[]>([]);
  useEffect(() => {
    if (!observed) return;
    let live = true;
    const q = (filter: string) =>
      call<{ events: StackEvent[] }>(session, 'GET', `${path}/events?${filter}&limit=${SHOWN * 2}`)
        .then((r) => r.events)
        .catch(() => [] as StackEvent[]);
    void Promise.all([
      q('resource_action=OBSERVE'),
      q(`resource_name=${encodeURIComponent(stackName)}`),
    ]).then(([observed, updates]) => live && setEvents(merge(observed.reverse(), updates.reverse())));
    return () => {
      live = false;
    };
  }, [session, path, stackName, observed]);
  return events;
}

/** Two oldest-first lists into one; at the same second a drift comes before the heal it starts. */
function merge(a: StackEvent[], b: StackEvent[]): StackEvent[] {
  const out: StackEvent[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.event_time <= b[j]!.event_time)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** Whether a live event belongs on the timeline's list (as the two reads above would find it). */
export const onTimeline = (e: StackEvent, stackName: string) =>
  e.resource_status.startsWith('OBSERVE_') || e.resource_name === stackName;

export function Timeline(props: { entries: TimelineEntry[]; observed: string | undefined }) {
  return (
    <section aria-labelledby="timeline-title" class="timeline-box">
      <h2 id="timeline-title">Observer</h2>
      <p>{props.observed ?? 'Not observed: no drift is looked for between operations.'}</p>
      {props.entries.length === 0 ? (
        <p data-testid="timeline-empty">No drift found, no heal made.</p>
      ) : (
        <ol class="timeline" data-testid="timeline" aria-live="polite">
          {props.entries.map((t) => (
            <li key={t.id} class={`moment ${t.kind}`} data-moment={t.kind} data-subject={t.subject}>
              <time>{t.time}</time> <span class="label">{LABEL[t.kind]}</span> <strong>{t.subject}</strong>{' '}
              <span class="reason">{t.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
