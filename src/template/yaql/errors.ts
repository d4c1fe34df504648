/**
 * Every problem with a yaql expression: bad syntax, an unknown function, a wrong argument type, or
 * an exceeded limit. `column` (1-based) points into the expression so a template author can find
 * the mistake; it is undefined only when no single place is to blame.
 */
export class YaqlError extends Error {
  override readonly name = 'YaqlError';
  /** The bare message, without the column suffix. */
  readonly detail: string;
  readonly column: number | undefined;

  constructor(detail: string, offset?: number) {
    const column = offset === undefined ? undefined : offset + 1;
    super(column === undefined ? detail : `${detail} (at column ${column})`);
    this.detail = detail;
    this.column = column;
  }
}

/** Bounds on one evaluation, so that user-written expressions cannot hang or exhaust memory. */
export interface YaqlLimits {
  /** Longest expression accepted, in characters. */
  maxExpressionLength: number;
  /** Deepest nesting of the parsed expression tree (brackets, operators, method chains). */
  maxDepth: number;
  /**
   * Work budget: one step per evaluated node and per element a function touches. Also bounds the
   * size of the result (values, and string characters / 16).
   */
  maxSteps: number;
}

export const DEFAULT_YAQL_LIMITS: Readonly<YaqlLimits> = Object.freeze({
  maxExpressionLength: 10_000,
  maxDepth: 100,
  maxSteps: 1_000_000,
});

/** Deepest nesting of data (lists in lists...) that recursive helpers walk before giving up. */
export const MAX_VALUE_DEPTH = 500;

/** Characters of string that cost one step when a function builds a string. */
export const CHARS_PER_STEP = 16;
