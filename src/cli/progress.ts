import type { Engine, StackProgress } from '../engine/engine.js';
import type { StackProgressCounts, StackRecord } from '../store/contract.js';
import { eventInfo } from './backends/embedded-views.js';
import { StackFailed } from './errors.js';
import { useColour } from './terminal.js';
import { eventLine } from './views.js';

type Print = (s: string) => void;

/** Least time between two redraws of the terminal's status line. */
const REDRAW_MS = 250;
/** Least time between two progress lines in plain output (logs): events already tell each change. */
const PLAIN_PROGRESS_MS = 10_000;

export interface WaitDisplay {
  /** A terminal gets one status line redrawn in place (when stderr is one). */
  tty: boolean;
  /** Throw StackFailed when the operation ends FAILED (a cancel ends FAILED by design). */
  failOnFailure: boolean;
  /**
   * Events and progress lines go to stderr: stdout carries only a machine-readable document
   * (`-f json|yaml|value`). Otherwise they go where the command prints, as `openstack` does.
   */
  logToStderr?: boolean;
  /** `--poll SECONDS`: how often a remote wait asks the server (the embedded engine reports as it goes). */
  pollMs?: number;
  /** Event lines colour their status (where they go is a terminal, or FORCE_COLOR; no NO_COLOR). */
  colour?: boolean;
}

/** The display of a `--wait`: a status line when stderr is a terminal. */
export function waitDisplay(failOnFailure = true, format = 'table'): WaitDisplay {
  const logToStderr = format !== 'table';
  const colour = useColour(logToStderr ? process.stderr : process.stdout);
  return { tty: process.stderr.isTTY === true, failOnFailure, logToStderr, colour };
}

/** Where a plain (not terminal) display writes its lines. */
export function waitLog(print: Print, display: WaitDisplay): Print {
  return display.logToStderr ? (s) => process.stderr.write(s) : print;
}

/**
 * `3/10 done, 2 in progress, 0 failed` while a traversal runs; once it has ended (its graph is
 * gone) only what is still worth saying: `1 failed`, or nothing.
 */
export function countsText(counts: StackProgressCounts): string {
  if (counts.total > 0) {
    return `${counts.done}/${counts.total} done, ${counts.inProgress} in progress, ${counts.failed} failed`;
  }
  const parts: string[] = [];
  if (counts.inProgress > 0) parts.push(`${counts.inProgress} in progress`);
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  return parts.join(', ');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/**
 * Runs the engine until the stack's operation settles, showing progress: on a terminal a status
 * line (status, resources done/total, in progress, failed, elapsed) redrawn in place; otherwise plain
 * lines, one per event, and a progress line when an operation starts and now and then after. Fails the command
 * if the operation failed. `signal` stops the engine claiming more work (an interrupted wait).
 */
export async function waitAndReport(
  engine: Engine,
  stackId: string,
  print: Print,
  display: WaitDisplay = waitDisplay(),
  signal?: AbortSignal,
): Promise<StackRecord | undefined> {
  const store = engine.deps.store;
  const log = waitLog(print, display);
  let lastEvent = await store.tx((tx) => tx.events.latestId(stackId));
  let lastLine = -Infinity;
  let lastCounts = '';
  let lastAction = '';

  const plain = async (progress: StackProgress) => {
    const events = await store.tx((tx) => tx.events.list(stackId, { afterId: lastEvent }));
    lastEvent = events.at(-1)?.id ?? lastEvent;
    for (const e of events) log(eventLine(eventInfo(e), display.colour));
    const counts = countsText(progress.counts);
    const running = progress.counts.total > 0 && !progress.final;
    // A line when an operation starts (a rollback is another), then only now and then.
    const started = progress.stack.action !== lastAction;
    const due = counts !== lastCounts && progress.elapsedMs - lastLine >= PLAIN_PROGRESS_MS;
    if (running && (started || due)) {
      lastLine = progress.elapsedMs;
      lastCounts = counts;
      lastAction = progress.stack.action;
      log(`Progress: ${counts} (${seconds(progress.elapsedMs)})\n`);
    }
  };
  const terminal = (progress: StackProgress) => {
    const s = progress.stack;
    const counts = countsText(progress.counts);
    const line = [`${s.action}_${s.status}`, ...(counts ? [counts] : []), seconds(progress.elapsedMs)].join(
      '  ',
    );
    // \r back to the start of the line, \x1b[K clears what a longer earlier line left.
    process.stderr.write(`\r${line}\x1b[K${progress.final ? '\n' : ''}`);
  };

  const final = await engine.waitForStack(stackId, display.tty ? terminal : plain, {
    reportEveryMs: REDRAW_MS,
    ...(signal ? { signal } : {}),
  });
  if (display.failOnFailure && final?.status === 'FAILED') {
    throw new StackFailed(`${final.action}_FAILED: ${final.reason}`);
  }
  return final;
}
