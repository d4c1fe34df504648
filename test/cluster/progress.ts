/**
 * The cluster tests' only notion of "too slow": no progress for a long window. A loaded machine
 * makes every step slower but still makes steps; a stuck cluster makes none. Absolute deadlines
 * would fail the former, so none is used.
 */

/** How long the cluster may go without any progress before a test calls it stuck. */
export const STALL_MS = Number(process.env.CLUSTER_STALL_MS ?? 120_000);

/**
 * Watches a measure that only grows while work gets done (nodes finished, objects deleted): each
 * new maximum is progress. `pause` removes time the test itself spent away (a kill, an outage it
 * caused) from the window.
 */
export class ProgressWatch {
  private best = -Infinity;
  private since: number;

  constructor(
    private readonly windowMs: number = STALL_MS,
    now: number = Date.now(),
  ) {
    this.since = now;
  }

  /** Records the measure; true when it is a new maximum (progress). */
  observe(measure: number, now: number = Date.now()): boolean {
    if (measure <= this.best) return false;
    this.best = measure;
    this.since = now;
    return true;
  }

  /** Moves the window's start forward by `ms` the test spent on its own business. */
  pause(ms: number): void {
    this.since += ms;
  }

  /** How long since the last progress. */
  idleMs(now: number = Date.now()): number {
    return now - this.since;
  }

  /** Whether the window has passed without progress. */
  stalled(now: number = Date.now()): boolean {
    return this.idleMs(now) > this.windowMs;
  }
}
