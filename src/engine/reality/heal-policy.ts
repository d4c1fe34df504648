import type { HealRecord } from '../../store/contract.js';
import type { HealBounds } from '../core/deps.js';

/**
 * How often the observer may heal one resource (issue 8: "healing is bounded"). Each heal of a
 * resource waits longer than the one before (the observation interval, doubled per earlier
 * attempt); after `limit` heals with no quiet time in between the resource is flapping, or can
 * never converge, and the observer stops and fails the stack with the reason instead. A resource
 * that stays in sync for `windowMs` after its last heal starts afresh, as does every resource of
 * a stack a person updates.
 */

export const DEFAULT_HEAL_BOUNDS: HealBounds = { limit: 3, windowMs: 3_600_000 };

export type HealVerdict =
  | { kind: 'heal'; attempt: number }
  | { kind: 'wait'; until: number }
  | { kind: 'exhausted'; attempts: number };

/** Whether a drifted resource with this record may be healed now. */
export function healVerdict(
  record: HealRecord | undefined,
  intervalMs: number,
  now: number,
  bounds: HealBounds,
): HealVerdict {
  const attempts = record?.attempts ?? 0;
  if (attempts >= bounds.limit) return { kind: 'exhausted', attempts };
  if (record) {
    const until = record.lastAt + intervalMs * 2 ** (attempts - 1);
    if (now < until) return { kind: 'wait', until };
  }
  return { kind: 'heal', attempt: attempts + 1 };
}

/** Whether a resource observed in sync has been so long enough for its heals to be forgotten. */
export function forgiven(record: HealRecord, now: number, bounds: HealBounds): boolean {
  return now - record.lastAt >= bounds.windowMs;
}
