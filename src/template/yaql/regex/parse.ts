import type { AssertKind, CharSet, ClassName, ParsedRegex, RegexNode } from './ast.js';

/**
 * A parser for Python's `re` syntax (the dialect yaql's regex functions take), written from the
 * documented grammar: `(?P<name>...)`, `(?P=name)`, `\A`, `\Z`, `{,n}`, inline and scoped flags,
 * atomic groups and possessive quantifiers, conditionals. Positions count code points, as Python's.
 */
export class RegexSyntaxError extends Error {
  constructor(message: string, position?: number) {
    super(position === undefined ? message : `${message} at position ${position}`);
  }
}

export interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  a: boolean;
}

/** Deepest nesting of groups, so that a hostile pattern cannot exhaust the JavaScript stack. */
const MAX_NESTING = 100;
/** Python's limit is 2^32 - 2; counters are kept exact below 2^31. */
const MAX_REPEAT = 2 ** 31 - 1;

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };
const CLASS_ESCAPES: Readonly<Record<string, [ClassName, boolean]>> = {
  d: ['digit', false],
  D: ['digit', true],
  w: ['word', false],
  W: ['word', true],
  s: ['space', false],
  S: ['space', true],
};
const OCTAL = /^[0-7]$/;
const DIGIT = /^[0-9]$/;
const ASCII_ALNUM = /^[A-Za-z0-9]$/;
const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const VERBOSE_SPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);

export function parseRegex(pattern: string, flags: Flags): ParsedRegex {
  return new RegexParser(pattern, { ...flags }).parse();
}

class RegexParser {
  private readonly chars: string[];
  private i = 0;
  private depth = 0;
  private groupCount = 0;
  private readonly names = new Map<string, number>();
  private readonly open = new Set<number>();

  constructor(
    pattern: string,
    private readonly flags: Flags,
  ) {
    this.chars = Array.from(pattern);
  }

  parse(): ParsedRegex {
    this.globalFlags();
    const root = this.alternation(this.flags);
    if (this.i < this.chars.length) throw this.error('unbalanced parenthesis');
    return { root, groupCount: this.groupCount, groupNames: this.names, ignoreCase: this.flags.i };
  }

  private error(message: string, at = this.i): RegexSyntaxError {
    return new RegexSyntaxError(message, at);
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.i + offset];
  }

  private eat(text: string): boolean {
    const parts = Array.from(text);
    if (!parts.every((ch, k) => this.chars[this.i + k] === ch)) return false;
    this.i += parts.length;
    return true;
  }

  /** `(?aimsux)` groups at the very start set flags for the whole pattern (Python 3.11 rule). */
  private globalFlags(): void {
    for (;;) {
      const start = this.i;
      if (!this.eat('(?')) return;
      const letters = this.flagLetters();
      if (letters === null || !this.eat(')')) {
        this.i = start;
        return;
      }
      this.applyFlags(this.flags, letters, '', start);
    }
  }

  private flagLetters(): string | null {
    let letters = '';
    while (/^[aiLmsux]$/.test(this.peek() ?? '')) letters += this.chars[this.i++];
    return letters === '' && this.peek() !== '-' ? null : letters;
  }

  private applyFlags(flags: Flags, on: string, off: string, at: number): void {
    if (on.includes('L')) throw this.error("bad inline flags: cannot use 'L' flag with a str pattern", at);
    if (on.includes('a') && on.includes('u'))
      throw this.error("bad inline flags: flags 'a' and 'u' are incompatible", at);
    for (const letter of on) if (letter in flags) flags[letter as keyof Flags] = true;
    for (const letter of off) flags[letter as keyof Flags] = false;
  }

  private skipVerbose(flags: Flags): void {
    if (!flags.x) return;
    for (;;) {
      const ch = this.peek();
      if (ch !== undefined && VERBOSE_SPACE.has(ch)) this.i++;
      else if (ch === '#') while (this.i < this.chars.length && this.chars[this.i++] !== '\n');
      else return;
    }
  }

  private alternation(flags: Flags): RegexNode {
    const options = [this.sequence(flags)];
    while (this.eat('|')) options.push(this.sequence(flags));
    return options.length === 1 ? options[0]! : { t: 'alt', options };
  }

  private sequence(flags: Flags): RegexNode {
    const items: RegexNode[] = [];
    for (;;) {
      this.skipVerbose(flags);
      const ch = this.peek();
      if (ch === undefined || ch === '|' || ch === ')') break;
      const atom = this.atom(flags);
      if (atom === null) continue;
      items.push(this.quantified(atom, flags));
    }
    return items.length === 1 ? items[0]! : items.length === 0 ? { t: 'empty' } : { t: 'seq', items };
  }

  /** One item; null for a comment group, which matches nothing. */
  private atom(flags: Flags): RegexNode | null {
    const at = this.i;
    const ch = this.chars[this.i++]!;
    switch (ch) {
      case '(':
        return this.group(flags, at);
      case '[':
        return { t: 'set', set: this.charClass(flags) };
      case '.':
        return { t: 'any', dotAll: flags.s };
      case '^':
        return { t: 'assert', kind: flags.m ? 'bol-m' : 'bol' };
      case '$':
        return { t: 'assert', kind: flags.m ? 'eol-m' : 'eol' };
      case '\\':
        return this.escape(flags);
      case '*':
      case '+':
      case '?':
        throw this.error('nothing to repeat', at);
      case '{':
        if (this.repeatBounds() !== null) throw this.error('nothing to repeat', at);
        return { t: 'char', cp: 0x7b, ci: flags.i };
      default:
        return { t: 'char', cp: ch.codePointAt(0)!, ci: flags.i };
    }
  }

  private quantified(atom: RegexNode, flags: Flags): RegexNode {
    this.skipVerbose(flags);
    const at = this.i;
    let bounds: [number, number] | null = null;
    const ch = this.peek();
    this.i++;
    if (ch === '*') bounds = [0, Infinity];
    else if (ch === '+') bounds = [1, Infinity];
    else if (ch === '?') bounds = [0, 1];
    else if (ch === '{') bounds = this.repeatBounds();
    if (bounds === null) {
      this.i = at;
      return atom;
    }
    if (atom.t === 'assert') throw this.error('nothing to repeat', at);
    const [min, max] = bounds;
    if (min > max) throw this.error('min repeat greater than max repeat', at + 1);
    const greedy = !this.eat('?');
    const possessive = greedy && this.eat('+');
    this.skipVerbose(flags);
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?' || (next === '{' && this.looksLikeRepeat())) {
      throw this.error('multiple repeat', this.i);
    }
    return { t: 'repeat', body: atom, min, max, greedy, possessive };
  }

  private looksLikeRepeat(): boolean {
    const at = this.i;
    this.i++;
    const bounds = this.repeatBounds();
    this.i = at;
    return bounds !== null;
  }

  /** After `{`: `m}`, `m,}`, `,n}`, `m,n}` or `,}`; null (position unchanged) when not a repeat. */
  private repeatBounds(): [number, number] | null {
    const at = this.i;
    const number = (): string => {
      let digits = '';
      while (DIGIT.test(this.peek() ?? '')) digits += this.chars[this.i++];
      return digits;
    };
    const low = number();
    let high = low;
    if (this.eat(',')) high = number();
    else if (low === '') high = '';
    if (!this.eat('}') || (low === '' && high === '' && this.chars[this.i - 2] !== ',')) {
      this.i = at;
      return null;
    }
    const min = low === '' ? 0 : Number(low);
    const max = high === '' ? Infinity : Number(high);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) {
      throw this.error('the repetition number is too large', at);
    }
    return [min, max];
  }

  private group(outer: Flags, at: number): RegexNode | null {
    if (++this.depth > MAX_NESTING) throw this.error(`groups are nested more than ${MAX_NESTING} deep`, at);
    let flags = outer;
    let node: RegexNode | null;
    if (this.eat('?')) {
      const result = this.extension(outer, at);
      if (result === 'comment') {
        this.depth--;
        return null;
      }
      if (!('kind' in result)) {
        this.depth--;
        return result.node;
      }
      flags = result.flags;
      node = this.groupBody(result.kind, flags, result.index, at);
    } else {
      const index = ++this.groupCount;
      node = this.groupBody('capture', flags, index, at);
    }
    this.depth--;
    return node;
  }

  private groupBody(kind: GroupKind, flags: Flags, index: number, at: number): RegexNode {
    if (kind === 'capture') this.open.add(index);
    const body = this.alternation(flags);
    if (!this.eat(')')) throw this.error('missing ), unterminated subpattern', at);
    this.open.delete(index);
    switch (kind) {
      case 'capture':
        return { t: 'group', index, body };
      case 'plain':
        return body;
      case 'atomic':
        return { t: 'atomic', body };
      default:
        return { t: 'look', behind: kind.startsWith('behind'), negate: kind.endsWith('!'), body };
    }
  }

  /** What follows `(?`. */
  private extension(
    flags: Flags,
    at: number,
  ): 'comment' | { kind: GroupKind; flags: Flags; index: number } | { node: RegexNode } {
    const plain = (kind: GroupKind, f = flags) => ({ kind, flags: f, index: 0 });
    if (this.eat(':')) return plain('plain');
    if (this.eat('>')) return plain('atomic');
    if (this.eat('=')) return plain('ahead=');
    if (this.eat('!')) return plain('ahead!');
    if (this.eat('<=')) return plain('behind=');
    if (this.eat('<!')) return plain('behind!');
    if (this.eat('#')) {
      while (this.i < this.chars.length && this.chars[this.i] !== ')') this.i++;
      if (!this.eat(')')) throw this.error('missing ), unterminated comment', at);
      return 'comment';
    }
    if (this.eat('P<')) {
      const name = this.name('>');
      if (this.names.has(name)) throw this.error(`redefinition of group name '${name}'`, at + 4);
      const index = ++this.groupCount;
      this.names.set(name, index);
      return { kind: 'capture', flags, index };
    }
    if (this.eat('P=')) {
      const nameAt = this.i;
      const name = this.name(')');
      const index = this.names.get(name);
      if (index === undefined) throw this.error(`unknown group name '${name}'`, nameAt);
      if (this.open.has(index)) throw this.error('cannot refer to an open group', at);
      return { node: { t: 'backref', index, ci: flags.i } };
    }
    if (this.eat('(')) return { node: this.conditional(flags, at) };
    const letters = this.flagLetters();
    if (letters !== null) {
      let off = '';
      if (this.eat('-')) while (/^[imsx]$/.test(this.peek() ?? '')) off += this.chars[this.i++];
      if (this.eat(':')) {
        const scoped = { ...flags };
        this.applyFlags(scoped, letters, off, at);
        return plain('plain', scoped);
      }
      if (this.peek() === ')') throw this.error('global flags not at the start of the expression', at);
      throw this.error('missing :', this.i);
    }
    const next = this.peek();
    throw this.error(next === undefined ? 'unexpected end of pattern' : `unknown extension ?${next}`, at + 1);
  }

  private name(terminator: string, digitsToo = false): string {
    let name = '';
    const start = this.i;
    while (this.i < this.chars.length && this.chars[this.i] !== terminator) name += this.chars[this.i++];
    if (!this.eat(terminator)) throw this.error('missing group name', start);
    if (!IDENTIFIER.test(name) && !(digitsToo && /^\d+$/.test(name)))
      throw this.error(`bad character in group name '${name}'`, start);
    return name;
  }

  /** `(?(id or name)yes|no)`: matches `yes` if the group took part in the match, else `no`. */
  private conditional(flags: Flags, at: number): RegexNode {
    const ref = this.name(')', true);
    const index = /^\d+$/.test(ref) ? Number(ref) : this.names.get(ref);
    if (index === undefined || index === 0 || index > this.groupCount) {
      throw this.error(`invalid group reference ${ref}`, at + 3);
    }
    const yes = this.sequence(flags);
    let no: RegexNode = { t: 'empty' };
    if (this.eat('|')) {
      no = this.sequence(flags);
      if (this.peek() === '|') throw this.error('conditional backref with more than two branches', this.i);
    }
    if (!this.eat(')')) throw this.error('missing ), unterminated subpattern', at);
    return { t: 'cond', index, yes, no };
  }

  private escape(flags: Flags): RegexNode {
    const at = this.i - 1;
    const ch = this.chars[this.i++];
    if (ch === undefined) throw this.error('bad escape (end of pattern)', at);
    const anchors: Record<string, AssertKind> = { A: 'start', Z: 'end', b: 'word', B: 'not-word' };
    if (Object.hasOwn(anchors, ch)) {
      return { t: 'assert', kind: anchors[ch]!, ascii: flags.a };
    }
    const cls = Object.hasOwn(CLASS_ESCAPES, ch) ? CLASS_ESCAPES[ch] : undefined;
    if (cls !== undefined) {
      const set: CharSet = {
        negate: false,
        ranges: [],
        ci: false,
        classes: [{ name: cls[0], ascii: flags.a, negate: cls[1] }],
      };
      return { t: 'set', set };
    }
    if (DIGIT.test(ch)) {
      const octal = this.octal(ch);
      if (octal !== null) return { t: 'char', cp: octal, ci: flags.i };
      let digits = ch;
      if (DIGIT.test(this.peek() ?? '')) digits += this.chars[this.i++];
      const index = Number(digits);
      if (index > this.groupCount) throw this.error(`invalid group reference ${index}`, at + 1);
      if (this.open.has(index)) throw this.error('cannot refer to an open group', at);
      return { t: 'backref', index, ci: flags.i };
    }
    return { t: 'char', cp: this.codeEscape(ch, at), ci: flags.i };
  }

  /** `\0`, `\01`, `\012`, or three octal digits: an octal character; null when it is a group reference. */
  private octal(first: string): number | null {
    const at = this.i - 2;
    let digits = first;
    if (first === '0') {
      while (digits.length < 3 && OCTAL.test(this.peek() ?? '')) digits += this.chars[this.i++];
    } else if (OCTAL.test(first) && OCTAL.test(this.peek() ?? '') && OCTAL.test(this.peek(1) ?? '')) {
      digits += this.chars[this.i++]! + this.chars[this.i++]!;
    } else {
      return null;
    }
    const value = Number.parseInt(digits, 8);
    if (value > 0o377) throw this.error(`octal escape value \\${digits} outside of range 0-0o377`, at);
    return value;
  }

  /** Escapes that stand for one character: `\n`, `\x41`, `\u00e9`, `\U0001F600`, `\.`... */
  private codeEscape(ch: string, at: number): number {
    const simple = Object.hasOwn(SIMPLE_ESCAPES, ch) ? SIMPLE_ESCAPES[ch] : undefined;
    if (simple !== undefined) return simple;
    const hexLength = ch === 'x' ? 2 : ch === 'u' ? 4 : ch === 'U' ? 8 : 0;
    if (hexLength > 0) {
      const hex = this.chars.slice(this.i, this.i + hexLength).join('');
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== hexLength) {
        throw this.error(`incomplete escape \\${ch}${hex}`, at);
      }
      this.i += hexLength;
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) throw this.error(`bad escape \\${ch}${hex}`, at);
      return code;
    }
    if (ch === 'N') throw this.error('\\N{...} escapes are not supported', at);
    if (ASCII_ALNUM.test(ch)) throw this.error(`bad escape \\${ch}`, at);
    return ch.codePointAt(0)!;
  }

  private charClass(flags: Flags): CharSet {
    const at = this.i - 1;
    const set: CharSet = { negate: this.eat('^'), ranges: [], classes: [], ci: flags.i };
    let first = true;
    for (;;) {
      const ch = this.peek();
      if (ch === undefined) throw this.error('unterminated character set', at);
      if (ch === ']' && !first) {
        this.i++;
        return set;
      }
      first = false;
      const itemAt = this.i;
      const low = this.classAtom(flags, set);
      if (low === null) continue;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.i++;
        const high = this.classAtom(flags, set);
        if (high === null || high < low) {
          throw this.error(`bad character range ${this.chars.slice(itemAt, this.i).join('')}`, itemAt);
        }
        set.ranges.push([low, high]);
      } else {
        set.ranges.push([low, low]);
      }
    }
  }

  /** One character of a class, or null after adding a `\d`-like class to `set`. */
  private classAtom(flags: Flags, set: CharSet): number | null {
    const ch = this.chars[this.i++]!;
    if (ch !== '\\') return ch.codePointAt(0)!;
    const at = this.i - 1;
    const next = this.chars[this.i++];
    if (next === undefined) throw this.error('bad escape (end of pattern)', at);
    const cls = Object.hasOwn(CLASS_ESCAPES, next) ? CLASS_ESCAPES[next] : undefined;
    if (cls !== undefined) {
      set.classes.push({ name: cls[0], ascii: flags.a, negate: cls[1] });
      return null;
    }
    if (next === 'b') return 8;
    if (DIGIT.test(next)) {
      const octal = this.octal(next);
      if (octal === null) throw this.error(`bad escape \\${next}`, at);
      return octal;
    }
    return this.codeEscape(next, at);
  }
}

type GroupKind = 'capture' | 'plain' | 'atomic' | 'ahead=' | 'ahead!' | 'behind=' | 'behind!';
