import { CHARS_PER_STEP, YaqlError } from './errors.js';

/**
 * The work budget of one evaluation. Every evaluated node and every element a function touches costs
 * a step, and building a string costs a step per CHARS_PER_STEP characters, so both time and memory
 * stay proportional to `maxSteps`.
 */
export class Budget {
  private remaining: number;
  /** Offset of the node being evaluated: where a "too much work" error points. */
  at = 0;

  constructor(readonly maxSteps: number) {
    this.remaining = maxSteps;
  }

  spend(steps = 1): void {
    this.remaining -= steps;
    if (this.remaining < 0) {
      throw new YaqlError(`evaluation exceeded the limit of ${this.maxSteps} steps`, this.at);
    }
  }

  /** Charges for a string (or list) of `length` before it is built. */
  spendChars(length: number): void {
    this.spend(Math.ceil(length / CHARS_PER_STEP));
  }
}

/**
 * A problem found by a helper that does not know where in the expression it is. The evaluator turns
 * it into a YaqlError pointing at the operator or call being applied.
 */
export class Fault extends Error {}

export function fault(message: string): never {
  throw new Fault(message);
}
