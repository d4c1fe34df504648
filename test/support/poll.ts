import assert from 'node:assert/strict';

export interface PollOptions {
  /** Fails after this long (a ceiling for a loaded machine, never a deadline to meet). */
  ceilingMs?: number;
  /** The least sleep between two looks. */
  intervalMs?: number;
  /** What the failure says, after `timed out waiting until <what>` (e.g. the events so far). */
  detail?: () => Promise<string> | string;
}

/** The longest sleep between two looks: a state that lasts seconds is still seen. */
const MAX_SLEEP_MS = 1000;

/**
 * Polls `probe` until it returns something other than undefined or false, and returns that.
 * Between two looks it sleeps `intervalMs`, or twice as long as the look took if that is more (up
 * to a second): a probe that starts a `hearth` child (a third of a CPU second) then takes about a
 * third of a core while a test waits, instead of a whole core.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { ceilingMs = 120_000, intervalMs = 100, detail }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const started = Date.now();
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const more = detail ? `\n${await detail()}` : '';
      assert.fail(`timed out waiting until ${what} (${ceilingMs} ms)${more}`);
    }
    const took = Date.now() - started;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(intervalMs, Math.min(2 * took, MAX_SLEEP_MS))),
    );
  }
}
