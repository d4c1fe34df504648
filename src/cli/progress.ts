import type { Engine, StackProgress } from '../engine/engine.js';
import type { StackRecord } from '../store/contract.js';
import { eventLineInfo } from './backends/embedded-views.js';
import type { WaitDisplay } from './backend.js';
import { StackFailed } from './errors.js';
import {
  plainProgressLine,
  type ProgressView,
  RateWindow,
  redraw,
  renderBlock,
  summaryLine,
} from './progress-view.js';
import { type OutputStream, terminalWidth, useColour } from './terminal.js';
import { eventLine } from './views.js';

type Print = (s: string) => void;

/** Least time between two redraws of the terminal's status block. */
const REDRAW_MS = 250;
/** Least time between two progress lines in plain output (logs): events already tell each change. */
const PLAIN_PROGRESS_MS = 10_000;

/** The display of a `--wait`: a status block when stderr is a terminal. */
export function waitDisplay(failOnFailure = true, format = 'table'): WaitDisplay {
  const logToStderr = format !== 'table';
  const colour = useColour(logToStderr ? process.stderr : process.stdout);
  return { tty: process.stderr.isTTY === true, failOnFailure, logToStderr, colour };
}

/** Where a plain (not terminal) display writes its lines. */
export function waitLog(print: Print, display: WaitDisplay): Print {
  return display.logToStderr ? (s) => process.stderr.write(s) : print;
}

/** Where a status block is drawn: stderr, or a test's stand-in. */
export interface BlockStream extends OutputStream {
  write(text: string): unknown;
}

/**
 * The block a terminal shows on stderr, redrawn in place (progress-view.ts renders it), and the
 * summary line that replaces it at the end.
 */
export class StatusBlock {
  private lines = 0;
  private width = 0;
  private readonly colour: boolean;

  constructor(private readonly stream: BlockStream = process.stderr) {
    this.colour = useColour(stream);
  }

  draw(view: ProgressView): void {
    const width = terminalWidth(this.stream) ?? 80;
    // A terminal made narrower may have wrapped the old lines: going up over them would land
    // inside them. The block starts again below instead.
    if (width < this.width) this.leave();
    this.width = width;
    const lines = renderBlock(view, width, this.colour);
    this.stream.write(redraw(this.lines, lines));
    this.lines = lines.length;
  }

  /** Replaces the block with the summary. */
  finish(summary: string): void {
    this.stream.write(`${redraw(this.lines, [summary])}\n`);
    this.lines = 0;
  }

  /** Leaves the block as it is (an interrupted wait), the cursor on a fresh line. */
  leave(): void {
    if (this.lines > 0) this.stream.write('\n');
    this.lines = 0;
  }
}

/** What a wait has seen: the rate's history and what the summary needs. */
class WaitHistory {
  private readonly window = new RateWindow();
  private action = '';
  private latest: StackProgress | undefined;
  /** The largest total of the current action: nested stacks add theirs as they start. */
  private total = 0;

  /** The view of a report, the history updated with it. */
  view(progress: StackProgress): ProgressView {
    const { stack, counts } = progress;
    if (stack.action !== this.action) {
      // A rollback (or a cancel's) is another operation: its own rate and size.
      this.action = stack.action;
      this.total = 0;
      this.latest = undefined;
      this.window.reset();
    }
    if (counts.total > 0) {
      this.total = Math.max(this.total, counts.total);
      this.window.add(progress.elapsedMs, counts.done);
      this.latest = progress;
    }
    const rate = this.window.rate();
    return {
      status: `${stack.action}_${stack.status}`,
      elapsedMs: progress.elapsedMs,
      counts,
      activity: progress.activity,
      ...(rate !== undefined ? { rate } : {}),
      nowMs: Date.now(),
    };
  }

  summary(final: StackProgress): string {
    return summaryLine({
      status: `${final.stack.action}_${final.stack.status}`,
      elapsedMs: final.elapsedMs,
      total: this.total,
      // The final report comes after the graph went: how far it got is the last count seen.
      done: this.latest?.counts.done ?? 0,
      failed: final.counts.failed,
      failedNames: final.activity.failed,
    });
  }
}

/**
 * Runs the engine until the stack's operation settles, showing progress: on a terminal a block
 * (status, bar, counts by state, rate, ETA, the longest running and failed resources) redrawn in
 * place; otherwise plain lines, one per event, and a progress line when an operation starts and
 * now and then after. A summary line ends either. Fails the command if the operation failed.
 * `signal` stops the engine claiming more work (an interrupted wait).
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
  const history = new WaitHistory();
  let lastEvent = await store.tx((tx) => tx.events.latestId(stackId));
  let lastLine = -Infinity;
  let lastCounts = '';
  let lastAction = '';

  const plain = async (progress: StackProgress) => {
    // On the read connection, narrow rows: a 100,000-resource operation tells 200,000 events.
    const events = await store.read((tx) => tx.events.lines(stackId, lastEvent));
    lastEvent = events.at(-1)?.id ?? lastEvent;
    // One write per poll: a line per write is a system call per event (200,000 on a big create).
    if (events.length > 0) log(events.map((e) => eventLine(eventLineInfo(e), display.colour)).join(''));
    const view = history.view(progress);
    const { done, total } = progress.counts;
    const counts = `${done}/${total}`;
    const running = total > 0 && !progress.final;
    // A line when an operation starts (a rollback is another), then only now and then.
    const started = progress.stack.action !== lastAction;
    const due = counts !== lastCounts && progress.elapsedMs - lastLine >= PLAIN_PROGRESS_MS;
    if (running && (started || due)) {
      lastLine = progress.elapsedMs;
      lastCounts = counts;
      lastAction = progress.stack.action;
      log(`${plainProgressLine(view)}\n`);
    }
    if (progress.final) log(`${history.summary(progress)}\n`);
  };
  const block = new StatusBlock();
  const terminal = (progress: StackProgress) => {
    const view = history.view(progress);
    if (progress.final) block.finish(history.summary(progress));
    else block.draw(view);
  };

  const final = await engine.waitForStack(stackId, display.tty ? terminal : plain, {
    reportEveryMs: REDRAW_MS,
    ...(signal ? { signal } : {}),
  });
  block.leave();
  if (display.failOnFailure && final?.status === 'FAILED') {
    throw new StackFailed(`${final.action}_FAILED: ${final.reason}`);
  }
  return final;
}
