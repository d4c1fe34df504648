/*
 * What a `--wait` shows, as pure functions of what is known (counts, names, a history of the done
 * count, the terminal's width): the redrawn block of a terminal, the plain progress lines of a log
 * and the final summary. progress.ts and remote-wait.ts do the I/O.
 */
import type { StackActivity, StackProgressCounts } from '../store/contract.js';

/** The rate is measured over this recent window: it follows a change of pace within seconds. */
export const RATE_WINDOW_MS = 10_000;
/** A rate needs samples this far apart at least: a first burst is no pace. */
const MIN_RATE_SPAN_MS = 1_000;
/** Narrower bars say nothing: the line then goes without one. */
const MIN_BAR = 5;

/** What is known at one moment of a wait; the remote wait knows the status alone. */
export interface ProgressView {
  /** `CREATE_IN_PROGRESS` */
  status: string;
  elapsedMs: number;
  counts?: StackProgressCounts;
  activity?: StackActivity;
  /** Resources done per second over the recent window, once measurable. */
  rate?: number;
  /** Wall clock (ms) for how long the running resources have run. */
  nowMs?: number;
}

/**
 * The done count over time, for a rate over the last RATE_WINDOW_MS. A count that goes down
 * (a rollback starts another traversal) starts the history again.
 */
export class RateWindow {
  private samples: { at: number; done: number }[] = [];

  reset(): void {
    this.samples = [];
  }

  add(atMs: number, done: number): void {
    const last = this.samples.at(-1);
    if (last && done < last.done) this.reset();
    this.samples.push({ at: atMs, done });
    // Keep one sample at or before the window's start, so the window is always covered.
    while (this.samples.length > 2 && this.samples[1]!.at <= atMs - RATE_WINDOW_MS) this.samples.shift();
  }

  /** Per second, or undefined until the samples span MIN_RATE_SPAN_MS. */
  rate(): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < MIN_RATE_SPAN_MS) return undefined;
    return ((last.done - first.done) * 1000) / (last.at - first.at);
  }
}

/** Time left at `rate`, or undefined when there is no rate (or no progress) to go by. */
export function etaMs(counts: StackProgressCounts, rate: number | undefined): number | undefined {
  if (rate === undefined || rate <= 0 || counts.total === 0) return undefined;
  return ((counts.total - counts.done) / rate) * 1000;
}

/** `0.4s`, `41.2s`, `3m05s`, `1h02m`: short enough for a status line. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${two(Math.floor((s % 3600) / 60))}m`;
}

function perSecond(rate: number): string {
  return `${rate >= 10 ? rate.toFixed(0) : rate.toFixed(1)}/s`;
}

/** `12 in progress, 40 waiting, 0 failed`; with no graph (the operation ended) only the failures. */
function stateCounts(counts: StackProgressCounts): string[] {
  if (counts.total === 0) return counts.failed > 0 ? [`${counts.failed} failed`] : [];
  return [`${counts.inProgress} in progress`, `${counts.waiting} waiting`, `${counts.failed} failed`];
}

/** Rate and ETA, once a rate is known. */
function pace(view: ProgressView): string[] {
  if (view.rate === undefined || !view.counts || view.counts.total === 0) return [];
  const eta = etaMs(view.counts, view.rate);
  return [perSecond(view.rate), `ETA ${eta === undefined ? '?' : duration(eta)}`];
}

/**
 * A log's progress line: `Progress: 3/10 done, 2 in progress, 5 waiting, 0 failed, 1.5/s, ETA 5.0s
 * (2.0s)`.
 */
export function plainProgressLine(view: ProgressView): string {
  const counts = view.counts;
  const parts = counts && counts.total > 0 ? [`${counts.done}/${counts.total} done`] : [];
  if (counts) parts.push(...stateCounts(counts));
  parts.push(...pace(view));
  return `Progress: ${parts.join(', ')} (${duration(view.elapsedMs)})`;
}

/** A piece of a terminal line, coloured when colour is on. */
interface Segment {
  text: string;
  colour?: 'green' | 'red' | 'dim';
}

const SGR = { green: '32', red: '31', dim: '2' } as const;

/**
 * Segments as one line of at most `width - 1` columns (the last column would wrap on some
 * terminals, and a wrapped line breaks the redraw), cut with `…` when too long.
 */
function fitLine(segments: Segment[], width: number, colour: boolean): string {
  let room = Math.max(1, width - 1);
  const full = segments.reduce((n, s) => n + s.text.length, 0);
  const cut = full > room;
  if (cut) room -= 1;
  let out = '';
  for (const s of segments) {
    if (room <= 0) break;
    const text = s.text.slice(0, room);
    room -= text.length;
    out += colour && s.colour && text ? `\x1b[${SGR[s.colour]}m${text}\x1b[0m` : text;
  }
  return cut ? `${out}…` : out;
}

/** `[#####.....]` of `width` columns in all, filled in proportion. */
function bar(done: number, total: number, width: number): Segment[] {
  const inner = width - 2;
  const filled = Math.min(inner, Math.floor((inner * done) / Math.max(1, total)));
  return [
    { text: '[' },
    { text: '#'.repeat(filled), colour: 'green' },
    { text: '.'.repeat(inner - filled), colour: 'dim' },
    { text: ']' },
  ];
}

/** `group.3 12.0s, group.7 11.8s`: the resources running longest. */
function runningNames(view: ProgressView): string {
  const now = view.nowMs;
  return (view.activity?.running ?? [])
    .map((r) => (now === undefined ? r.name : `${r.name} ${duration(Math.max(0, now - r.since))}`))
    .join(', ');
}

/**
 * The block a terminal shows, redrawn in place, at most 3 lines, none wider than `width - 1`:
 *
 *     CREATE_IN_PROGRESS [#########.............] 660/2000 33%
 *     12 in progress, 1328 waiting, 0 failed  48/s  ETA 27.9s  13.6s elapsed
 *     running: group.12 5.1s, group.3 4.9s  failed: group.9
 *
 * The bar takes what the first line leaves; without counts (the remote wait) it is one line.
 */
export function renderBlock(view: ProgressView, width: number, colour: boolean): string[] {
  const counts = view.counts;
  const elapsed = `${duration(view.elapsedMs)} elapsed`;
  if (!counts || counts.total === 0) {
    const rest = counts ? stateCounts(counts) : [];
    return [fitLine([{ text: [view.status, ...rest, elapsed].join('  ') }], width, colour)];
  }
  const percent = Math.floor((100 * counts.done) / counts.total);
  const tail = ` ${counts.done}/${counts.total} ${percent}%`;
  const barWidth = width - 1 - view.status.length - 1 - tail.length;
  const first: Segment[] = [{ text: view.status }];
  if (barWidth >= MIN_BAR) first.push({ text: ' ' }, ...bar(counts.done, counts.total, barWidth));
  first.push({ text: tail });

  const second: Segment[] = [
    { text: `${counts.inProgress} in progress, ${counts.waiting} waiting, ` },
    { text: `${counts.failed} failed`, ...(counts.failed > 0 ? { colour: 'red' as const } : {}) },
    { text: ['', ...pace(view), elapsed].join('  ') },
  ];
  const lines = [fitLine(first, width, colour), fitLine(second, width, colour)];

  const named: Segment[] = [];
  const running = runningNames(view);
  if (running) named.push({ text: `running: ${running}` });
  const failed = view.activity?.failed ?? [];
  if (failed.length > 0) {
    named.push(
      { text: `${named.length > 0 ? '  ' : ''}failed: `, colour: 'red' },
      { text: failed.join(', ') },
    );
  }
  if (named.length > 0) lines.push(fitLine(named, width, colour));
  return lines;
}

/** What ended a wait, for its summary. */
export interface WaitOutcome {
  /** `CREATE_COMPLETE`, `DELETE_FAILED`, or `gone (deleted)` */
  status: string;
  elapsedMs: number;
  /** The most nodes the operation counted (its size), when counts were known. */
  total?: number;
  /** Done when the last counts were read (a failure stops part way). */
  done?: number;
  /** The failed resources' count and a few names. */
  failed?: number;
  failedNames?: string[];
}

/**
 * The line that ends a wait: `CREATE_COMPLETE: 2000 resources in 41.2s (48.5/s)`, or for a
 * failure how far it got: `CREATE_FAILED after 5.1s: 660/2000 done, 1 failed (group.9)`.
 */
export function summaryLine(outcome: WaitOutcome): string {
  const time = duration(outcome.elapsedMs);
  const total = outcome.total ?? 0;
  if (outcome.status.endsWith('_FAILED')) {
    const parts: string[] = [];
    if (total > 0) parts.push(`${outcome.done ?? 0}/${total} done`);
    if (outcome.failed) {
      const names = outcome.failedNames ?? [];
      parts.push(`${outcome.failed} failed${names.length > 0 ? ` (${names.join(', ')})` : ''}`);
    }
    return `${outcome.status} after ${time}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
  }
  if (total === 0) return `${outcome.status} in ${time}`;
  const rate = outcome.elapsedMs > 0 ? ` (${perSecond((total * 1000) / outcome.elapsedMs)})` : '';
  return `${outcome.status}: ${total} resource${total === 1 ? '' : 's'} in ${time}${rate}`;
}

/**
 * What redraws a block of `previous` lines (the cursor at the end of its last line) as `lines`:
 * back to the block's first column, each line cleared to its end, and whatever the old block had
 * below the new one cleared (`\x1b[J`), so a shrinking block leaves nothing behind.
 */
export function redraw(previous: number, lines: readonly string[]): string {
  const up = previous > 1 ? `\x1b[${previous - 1}A` : '';
  return `\r${up}${lines.join('\x1b[K\n')}\x1b[K\x1b[J`;
}
