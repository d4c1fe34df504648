/**
 * A parsed Python `re` pattern. Flags that Python lets a group change (`(?i:...)`) are resolved at
 * parse time into the nodes they affect, so matching needs no flag state.
 */
export type RegexNode =
  | { t: 'empty' }
  | { t: 'char'; cp: number; ci: boolean }
  | { t: 'any'; dotAll: boolean }
  | { t: 'set'; set: CharSet }
  | { t: 'seq'; items: RegexNode[] }
  | { t: 'alt'; options: RegexNode[] }
  | { t: 'group'; index: number; body: RegexNode }
  | { t: 'repeat'; body: RegexNode; min: number; max: number; greedy: boolean; possessive: boolean }
  | { t: 'assert'; kind: AssertKind; ascii?: boolean }
  | { t: 'look'; behind: boolean; negate: boolean; body: RegexNode }
  | { t: 'atomic'; body: RegexNode }
  | { t: 'backref'; index: number; ci: boolean }
  | { t: 'cond'; index: number; yes: RegexNode; no: RegexNode };

/** `^`/`$` with and without MULTILINE, `\A`, `\Z`, `\b`, `\B` (ASCII or Unicode words). */
export type AssertKind = 'bol' | 'bol-m' | 'eol' | 'eol-m' | 'start' | 'end' | 'word' | 'not-word';

/** `\d`, `\w`, `\s` and their ASCII-flag versions. */
export type ClassName = 'digit' | 'word' | 'space';

export interface CharSet {
  negate: boolean;
  /** Inclusive code point ranges. */
  ranges: [number, number][];
  classes: { name: ClassName; ascii: boolean; negate: boolean }[];
  ci: boolean;
}

export interface ParsedRegex {
  root: RegexNode;
  /** Capturing groups, numbered from 1. */
  groupCount: number;
  groupNames: ReadonlyMap<string, number>;
  /** Flags the pattern set for itself (`(?i)` at its start), merged with the caller's. */
  ignoreCase: boolean;
}
