/**
 * The largest stack timeout, in minutes. Heat keeps `timeout_mins` in a 32-bit integer column, so
 * it never stores more; Hearth's PostgreSQL store has the same column type.
 */
export const MAX_TIMEOUT_MINS = 2_147_483_647;

/** Why `mins` is not a stack timeout (whole minutes, 1 to MAX_TIMEOUT_MINS), or undefined. */
export function timeoutProblem(mins: number, field = 'timeout_mins'): string | undefined {
  if (!Number.isInteger(mins)) return `Only integer is acceptable by '${field}'.`;
  if (mins < 1) return `Value '${mins}' is invalid for '${field}', which only accepts a positive integer.`;
  if (mins > MAX_TIMEOUT_MINS) {
    return `Value '${mins}' is invalid for '${field}': the largest timeout is ${MAX_TIMEOUT_MINS} minutes.`;
  }
  return undefined;
}
