import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Cooperative time slicing of the event loop. Long synchronous work (better-sqlite3 statements,
 * binding a big template) runs in slices: once a slice has lasted SLICE_MS, the next call of
 * `yieldIfSliceSpent` lets the loop take a turn, so requests served by the same process
 * (`hearth serve`) wait at most about a slice instead of the whole operation.
 */
const SLICE_MS = 10;

/** When the current slice began: the last turn of the loop one of the callers here took. */
let sliceStart = performance.now();

/** Whether the work under way has run for a slice since the loop last took a turn here. */
export function sliceSpent(): boolean {
  return performance.now() - sliceStart >= SLICE_MS;
}

/** Lets the event loop take a turn (timers, I/O, other requests) if the current slice is spent. */
export async function yieldIfSliceSpent(): Promise<void> {
  if (sliceSpent()) await yieldToLoop();
}

/** The turn callers wait for now: concurrent callers share it, and one new slice starts after it. */
let turn: Promise<void> | undefined;

/**
 * Iterations of the loop per turn taken. Node accepts one new connection per iteration of its
 * loop: after a stall, clients waiting on new connections (probes, pools opening more) would be let
 * in one per slice, so a backlog of a hundred took a hundred slices. An iteration with nothing to
 * do costs microseconds.
 */
const ITERATIONS_PER_TURN = 8;

async function iterations(): Promise<void> {
  for (let i = 0; i < ITERATIONS_PER_TURN; i++) await nextTurn();
}

/** Lets the event loop take a turn now, and starts a new slice. */
export function yieldToLoop(): Promise<void> {
  turn ??= iterations().then(() => {
    turn = undefined;
    sliceStart = performance.now();
  });
  return turn;
}

/**
 * Work written once as a generator that `yield`s at points where it may pause (between
 * resources of a template, say): `runToEnd` runs it at once, `runSliced` across turns of the loop.
 */
export type Sliceable<T> = Generator<void, T, void>;

/** Runs a sliceable piece of work synchronously, start to end. */
export function runToEnd<T>(work: Sliceable<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs a sliceable piece of work, letting the loop take a turn whenever a slice is spent. */
export async function runSliced<T>(work: Sliceable<T>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (sliceSpent()) await yieldToLoop();
  }
}
