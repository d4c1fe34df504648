import { sqlState } from '../../util/postgres-errors.js';

/** PostgreSQL error codes (SQLSTATE) the driver acts on. */
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';
const UNIQUE_VIOLATION = '23505';

/**
 * A conflict between concurrent transactions: running the transaction again resolves it. A unique
 * violation is one on a first attempt: a row a concurrent transaction committed after this one's
 * snapshot (two creates of one stack name) is visible to the next attempt, whose own check then
 * answers; a duplicate the transaction makes by itself fails again and surfaces.
 */
export function isRetryable(error: unknown, attempt: number): boolean {
  const code = sqlState(error);
  if (code === UNIQUE_VIOLATION) return attempt === 1;
  return code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
}
