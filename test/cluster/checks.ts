/**
 * What a settled cluster must satisfy beyond checkObserved (test/crash/harness.ts: duplicates,
 * leaks and locks of the live rows): no row of the stack, replaced ones included, in progress or
 * locked, and no unit of work still claimed by an engine that is gone. Pure functions over a
 * snapshot, so that checks.test.ts can show each problem is reported.
 */
import assert from 'node:assert/strict';

/** A settled stack's rows (all of them, deleted and replaced ones too) and its queued work. */
export interface Settled {
  rows: { id: number; name: string; action: string; status: string; engineId: string | null }[];
  work: { id: number; node: string; claimedBy: string | null }[];
}

/** The host part of an engine id (`<host>:<pid>:<random>`) or of a claim (`<engine id>#<n>`). */
export function hostOf(engineIdOrClaim: string): string {
  return engineIdOrClaim.split(':')[0]!;
}

/**
 * Everything stuck in `settled`: rows IN_PROGRESS, rows still locked, work claimed by an engine
 * whose host is not among `aliveHosts`. Empty when the stack is truly at rest.
 */
export function stuckProblems(settled: Settled, aliveHosts: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const r of settled.rows) {
    if (r.status === 'IN_PROGRESS')
      problems.push(`resource ${r.name} (row ${r.id}) left ${r.action}_IN_PROGRESS`);
    if (r.engineId !== null) problems.push(`resource ${r.name} (row ${r.id}) still locked by ${r.engineId}`);
  }
  for (const w of settled.work) {
    if (w.claimedBy !== null && !aliveHosts.has(hostOf(w.claimedBy)))
      problems.push(`work ${w.id} (${w.node}) still claimed by dead engine ${w.claimedBy}`);
  }
  return problems;
}

export function assertNotStuck(settled: Settled, aliveHosts: ReadonlySet<string>): void {
  assert.deepEqual(
    stuckProblems(settled, aliveHosts),
    [],
    'stuck: in progress, locked or claimed by the dead',
  );
}

/** After every stack is deleted: not one physical object may be left (a leak). */
export function assertNothingLeft(objects: readonly { type: string; id: string; key: string }[]): void {
  const left = objects.map((o) => `${o.type} ${o.id} (key ${o.key})`);
  assert.deepEqual(left, [], 'leaks: physical objects left by the deletes');
}
