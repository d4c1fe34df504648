import { setTimeout as sleep } from 'node:timers/promises';
import { HeatApiError } from '../../client/errors.js';
import type { HeatClient } from '../../client/heat-client.js';
import type { HeatStack, StackId } from '../../client/types.js';
import { StackFailed } from '../errors.js';
import type { WaitDisplay } from '../backend.js';
import { StatusBlock, waitLog } from '../progress.js';
import { summaryLine } from '../progress-view.js';
import { eventLine } from '../views.js';
import { eventInfo } from './remote-views.js';

type Print = (s: string) => void;

/** How often the stack and its new events are asked for. */
export const POLL_MS = 1000;
/**
 * A failed create or update of a stack with rollback enabled is rolled back by a unit the server
 * enqueues with the failure: the API shows `<ACTION>_FAILED` until the rollback starts. A wait
 * gives it this long to start before taking the failure as the end.
 */
const ROLLBACK_START_MS = 5000;

/** Where the events of an operation begin: after `marker` (undefined: the stack's first). */
export interface EventMark {
  marker: string | undefined;
  /** False when the server has no events route: the wait then shows the status only. */
  available: boolean;
}

/** The stack's latest event, taken before an operation starts so that the wait shows all of its. */
export async function eventMark(client: HeatClient, stack: StackId): Promise<EventMark> {
  try {
    const [latest] = await client.listEvents(stack, { sort_dir: 'desc', limit: 1 });
    return { marker: latest?.id, available: true };
  } catch (err) {
    if (err instanceof HeatApiError && err.noRoute) return { marker: undefined, available: false };
    throw err;
  }
}

/** The stack, or undefined once it is gone (a finished delete). */
async function current(client: HeatClient, stack: StackId): Promise<HeatStack | undefined> {
  try {
    return await client.showStack(stack, { resolveOutputs: false });
  } catch (err) {
    if (err instanceof HeatApiError && err.status === 404 && !err.noRoute) return undefined;
    throw err;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function rollbackExpected(stack: HeatStack): boolean {
  return !stack.disable_rollback && /^(CREATE|UPDATE)_FAILED$/.test(stack.stack_status);
}

export interface PollOptions {
  /** False when the operation cannot end in a rollback (a cancel without one). */
  rollback?: boolean;
  intervalMs?: number;
}

/**
 * The remote `--wait`: polls the stack (about every second) and its new events until it is no
 * longer IN_PROGRESS, printing each event as the embedded wait does (or, on a terminal, the
 * embedded wait's status block, with what the API tells: status and time, no resource counts,
 * then its summary line). With no counts there is no progress line; a status line is printed
 * whenever the stack's status changes instead. Throws StackFailed when
 * the operation ended FAILED and the display asks so.
 */
export async function pollStack(
  client: HeatClient,
  stackId: StackId,
  mark: EventMark,
  print: Print,
  display: WaitDisplay,
  options: PollOptions = {},
): Promise<HeatStack | undefined> {
  const start = Date.now();
  const log = waitLog(print, display);
  let marker = mark.marker;
  let events = mark.available;
  let lastStatus = '';
  let failedAt: number | undefined;
  const block = new StatusBlock();
  for (;;) {
    const stack = await current(client, stackId);
    if (events) {
      try {
        const fresh = await client.listEvents(stackId, { sort_dir: 'asc', ...(marker ? { marker } : {}) });
        marker = fresh.at(-1)?.id ?? marker;
        if (!display.tty) for (const e of fresh) log(eventLine(eventInfo(e), display.colour));
      } catch (err) {
        if (!(err instanceof HeatApiError && (err.noRoute || err.status === 404))) throw err;
        events = !err.noRoute;
      }
    }
    const status = stack?.stack_status ?? 'gone (deleted)';
    const elapsed = Date.now() - start;
    let final = stack === undefined || !stack.stack_status.endsWith('_IN_PROGRESS');
    if (final && stack && options.rollback !== false && rollbackExpected(stack)) {
      failedAt ??= Date.now();
      final = Date.now() - failedAt >= ROLLBACK_START_MS;
    }
    if (display.tty) {
      if (final) block.finish(summaryLine({ status, elapsedMs: elapsed }));
      else block.draw({ status, elapsedMs: elapsed });
    } else if (status !== lastStatus) {
      log(`Status: ${status} (${seconds(elapsed)})\n`);
    }
    lastStatus = status;
    if (final) {
      if (display.failOnFailure && stack?.stack_status.endsWith('_FAILED')) {
        throw new StackFailed(`${stack.stack_status}: ${stack.stack_status_reason}`);
      }
      return stack;
    }
    await sleep(options.intervalMs ?? POLL_MS);
  }
}
