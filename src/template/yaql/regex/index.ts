import type { Budget } from '../budget.js';
import { CHARS_PER_STEP } from '../errors.js';
import { type Compiled, compileRegex } from './compile.js';
import { Machine } from './machine.js';
import { parseRegex, RegexSyntaxError } from './parse.js';

export { RegexSyntaxError } from './parse.js';

export interface RegexFlags {
  ignoreCase: boolean;
  multiLine: boolean;
  dotAll: boolean;
}

/** A compiled pattern: the value `regex()` returns (yaql's Python `re.Pattern`). */
export class Regex {
  private constructor(
    readonly pattern: string,
    readonly flags: Readonly<RegexFlags>,
    readonly compiled: Compiled,
    readonly groupCount: number,
    readonly groupNames: ReadonlyMap<string, number>,
  ) {}

  /** Parses `pattern` as Python's `re` would; a RegexSyntaxError when it cannot. */
  static compile(pattern: string, flags: RegexFlags, budget: Budget): Regex {
    budget.spend(1 + Math.ceil(pattern.length / CHARS_PER_STEP));
    const key = `${Number(flags.ignoreCase)}${Number(flags.multiLine)}${Number(flags.dotAll)}:${pattern}`;
    const cached = CACHE.get(key);
    if (cached !== undefined) {
      CACHE.delete(key);
      CACHE.set(key, cached);
      return cached;
    }
    const parsed = parseRegex(pattern, {
      i: flags.ignoreCase,
      m: flags.multiLine,
      s: flags.dotAll,
      x: false,
      a: false,
    });
    const regex = new Regex(
      pattern,
      Object.freeze({ ...flags }),
      compileRegex(parsed.root, parsed.groupCount),
      parsed.groupCount,
      parsed.groupNames,
    );
    if (CACHE.size >= CACHE_SIZE) CACHE.delete(CACHE.keys().next().value!);
    CACHE.set(key, regex);
    return regex;
  }
}

const CACHE = new Map<string, Regex>();
const CACHE_SIZE = 500;

/** A string to match against: its code points (Python's indexes) and where each starts in UTF-16. */
export class Subject {
  readonly codePoints: Int32Array;
  private readonly offsets: Int32Array;

  constructor(
    readonly text: string,
    budget: Budget,
  ) {
    budget.spend(Math.ceil(text.length / CHARS_PER_STEP));
    const points: number[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < text.length;) {
      const cp = text.codePointAt(i)!;
      points.push(cp);
      offsets.push(i);
      i += cp > 0xffff ? 2 : 1;
    }
    offsets.push(text.length);
    this.codePoints = Int32Array.from(points);
    this.offsets = Int32Array.from(offsets);
  }

  get length(): number {
    return this.codePoints.length;
  }

  slice(from: number, to: number): string {
    return this.text.slice(this.offsets[from], this.offsets[to]);
  }
}

/** One match: start and end of every group (-1 where a group took no part), in code points. */
export class RegexMatch {
  constructor(
    readonly regex: Regex,
    readonly subject: Subject,
    private readonly spans: readonly number[],
  ) {}

  start(group = 0): number {
    return this.spans[2 * group]!;
  }

  end(group = 0): number {
    return this.spans[2 * group + 1]!;
  }

  /** The group's text, or null when it took no part in the match. */
  group(group = 0): string | null {
    const start = this.start(group);
    return start < 0 ? null : this.subject.slice(start, this.end(group));
  }
}

/**
 * Every non-overlapping match from left to right, as Python's finditer: after an empty match the
 * next one must not be empty at the same place, but may start there.
 */
export function* matchAll(regex: Regex, subject: Subject, budget: Budget): Generator<RegexMatch> {
  const machine = new Machine(subject.codePoints, regex.compiled.slotCount, budget);
  let from = 0;
  let forbidEmptyAt = -1;
  while (from <= subject.length) {
    let found: RegexMatch | null = null;
    for (let start = from; start <= subject.length; start++) {
      if (machine.run(regex.compiled.code, start, start === forbidEmptyAt) >= 0) {
        found = new RegexMatch(regex, subject, machine.slots.slice(0, 2 * (regex.groupCount + 1)));
        break;
      }
    }
    if (found === null) return;
    yield found;
    from = found.end();
    forbidEmptyAt = found.start() === found.end() ? from : -1;
  }
}

export function searchFirst(regex: Regex, subject: Subject, budget: Budget): RegexMatch | null {
  for (const match of matchAll(regex, subject, budget)) return match;
  return null;
}

/** Python's re.split: the pieces between matches, with the groups' texts (or null) in between. */
export function splitByRegex(
  regex: Regex,
  subject: Subject,
  maxSplit: number,
  budget: Budget,
): (string | null)[] {
  const out: (string | null)[] = [];
  let last = 0;
  let splits = 0;
  for (const match of matchAll(regex, subject, budget)) {
    if (maxSplit > 0 && splits >= maxSplit) break;
    out.push(subject.slice(last, match.start()));
    for (let g = 1; g <= regex.groupCount; g++) out.push(match.group(g));
    last = match.end();
    splits++;
  }
  out.push(subject.slice(last, subject.length));
  budget.spend(out.length);
  return out;
}

/** Python's re.sub with a function: `count` 0 replaces every match. */
export function substitute(
  regex: Regex,
  subject: Subject,
  replacement: (match: RegexMatch) => string,
  count: number,
  budget: Budget,
): string {
  let out = '';
  let last = 0;
  let done = 0;
  for (const match of matchAll(regex, subject, budget)) {
    if (count > 0 && done >= count) break;
    out += subject.slice(last, match.start()) + replacement(match);
    last = match.end();
    done++;
    budget.spendChars(out.length);
  }
  return out + subject.slice(last, subject.length);
}

const TEMPLATE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/**
 * Parses a replacement template as Python's re.sub does: `\1`, `\g<1>`, `\g<name>`, `\n`-style
 * escapes and octal `\0`..`\377`; other escapes of letters are errors, other backslashes stay.
 * A group that took no part gives "".
 */
export function expandTemplate(regex: Regex, template: string): (match: RegexMatch) => string {
  const parts: (string | number)[] = [];
  const chars = Array.from(template);
  let literal = '';
  const groupRef = (index: number, at: number): void => {
    if (index > regex.groupCount) throw new RegexSyntaxError(`invalid group reference ${index}`, at);
    parts.push(literal, index);
    literal = '';
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch !== '\\' || i + 1 >= chars.length) {
      if (ch === '\\') throw new RegexSyntaxError('bad escape (end of pattern)', i);
      literal += ch;
      continue;
    }
    const next = chars[i + 1]!;
    if (next === 'g') {
      const close = chars.indexOf('>', i + 3);
      if (chars[i + 2] !== '<') throw new RegexSyntaxError('missing <', i + 2);
      if (close < 0) throw new RegexSyntaxError('missing >, unterminated name', i + 3);
      const name = chars.slice(i + 3, close).join('');
      if (/^\d+$/.test(name)) groupRef(Number(name), i + 3);
      else {
        const index = regex.groupNames.get(name);
        if (index === undefined) throw new RegexSyntaxError(`unknown group name '${name}'`, i + 3);
        groupRef(index, i + 3);
      }
      i = close;
    } else if (/[0-9]/.test(next)) {
      let digits = next;
      let j = i + 2;
      const octalRun = (limit: number) => {
        while (digits.length < limit && /[0-7]/.test(chars[j] ?? '')) digits += chars[j++];
      };
      if (next === '0') octalRun(3);
      else if (/[0-9]/.test(chars[j] ?? '')) {
        digits += chars[j++];
        if (/^[0-7]{2}$/.test(digits) && /[0-7]/.test(chars[j] ?? '')) digits += chars[j++];
      }
      if (next === '0' || digits.length === 3) {
        const value = Number.parseInt(digits, 8);
        if (value > 0o377)
          throw new RegexSyntaxError(`octal escape value \\${digits} outside of range 0-0o377`, i);
        literal += String.fromCodePoint(value);
      } else {
        groupRef(Number(digits), i + 1);
      }
      i = j - 1;
    } else if (Object.hasOwn(TEMPLATE_ESCAPES, next)) {
      literal += TEMPLATE_ESCAPES[next];
      i++;
    } else if (/[A-Za-z]/.test(next)) {
      throw new RegexSyntaxError(`bad escape \\${next}`, i);
    } else {
      literal += `\\${next}`;
      i++;
    }
  }
  parts.push(literal);
  return (match) =>
    parts.map((part) => (typeof part === 'string' ? part : (match.group(part) ?? ''))).join('');
}

/** Python 3.7+'s re.escape: a backslash before each character special in a pattern. */
export function escapeRegex(text: string): string {
  return text.replace(/[()[\]{}?*+\-|^$\\.&~# \t\n\r\v\f]/g, (ch) => `\\${ch}`);
}
