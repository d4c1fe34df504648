import { YaqlError } from './errors.js';

/**
 * Token kinds, following yaql's lexer: a name directly followed by `(` is a function call, any other
 * name is a keyword (a bare string such as the `a` in `$.a` or `a => 1`), except the word operators.
 */
export type Token =
  | { kind: 'number'; pos: number; value: number }
  | { kind: 'string'; pos: number; value: string }
  | { kind: 'name'; pos: number; value: string }
  | { kind: 'call'; pos: number; value: string }
  | { kind: 'var'; pos: number; value: string }
  | { kind: 'const'; pos: number; value: boolean | null }
  | { kind: 'op'; pos: number; value: string }
  | { kind: 'eof'; pos: number; value: '' };

/** Word operators: in yaql these are names that the operator table claims. */
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'mod']);
const CONSTANTS = new Map<string, boolean | null>([
  ['true', true],
  ['false', false],
  ['null', null],
]);
/** Symbol operators, longest first so that `>=` wins over `>`. */
const SYMBOLS = ['?.', '=~', '!~', '>=', '<=', '!=', '->', '=>', '.', '+', '-', '*', '/', '>', '<', '='];
const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',']);

const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;
const DIGIT = /[0-9]/;
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (WHITESPACE.has(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === '$') {
      i = scanWord(source, i + 1);
      tokens.push({ kind: 'var', pos: start, value: source.slice(start + 1, i) });
    } else if (DIGIT.test(ch)) {
      i = scanNumber(source, i, tokens);
    } else if (NAME_START.test(ch) || isAstralLetter(source, i)) {
      i = scanName(source, i, tokens);
    } else if (ch === "'" || ch === '"') {
      const end = findClosingQuote(source, i, ch);
      tokens.push({ kind: 'string', pos: start, value: decodeEscapes(source.slice(i + 1, end), i + 1) });
      i = end + 1;
    } else if (ch === '`') {
      const end = findClosingQuote(source, i, ch);
      tokens.push({ kind: 'string', pos: start, value: source.slice(i + 1, end).replaceAll('\\`', '`') });
      i = end + 1;
    } else if (PUNCTUATION.has(ch)) {
      tokens.push({ kind: 'op', pos: start, value: ch });
      i++;
    } else {
      const symbol = SYMBOLS.find((s) => source.startsWith(s, i));
      if (symbol === undefined) throw new YaqlError(`unexpected character ${JSON.stringify(ch)}`, i);
      tokens.push({ kind: 'op', pos: start, value: symbol });
      i += symbol.length;
    }
  }
  tokens.push({ kind: 'eof', pos: source.length, value: '' });
  return tokens;
}

function isAstralLetter(source: string, i: number): boolean {
  const cp = source.codePointAt(i);
  return cp !== undefined && cp > 0xffff && NAME_START.test(String.fromCodePoint(cp));
}

/** Index just past the run of word characters (letters, digits, `_`) starting at `i`. */
function scanWord(source: string, i: number): number {
  let j = i;
  while (j < source.length) {
    const cp = source.codePointAt(j)!;
    const ch = String.fromCodePoint(cp);
    if (!NAME_PART.test(ch)) break;
    j += ch.length;
  }
  return j;
}

/** yaql numbers are `digits` or `digits.digits`: no sign, exponent or leading dot. */
function scanNumber(source: string, i: number, tokens: Token[]): number {
  let j = i;
  while (j < source.length && DIGIT.test(source[j]!)) j++;
  if (source[j] === '.' && DIGIT.test(source[j + 1] ?? '')) {
    j++;
    while (j < source.length && DIGIT.test(source[j]!)) j++;
  }
  if (scanWord(source, j) !== j) throw new YaqlError('a number must not run into a name', i);
  tokens.push({ kind: 'number', pos: i, value: Number(source.slice(i, j)) });
  return j;
}

function scanName(source: string, i: number, tokens: Token[]): number {
  const end = scanWord(source, i);
  const name = source.slice(i, end);
  if (source[end] === '(') {
    tokens.push({ kind: 'call', pos: i, value: name });
    return end + 1;
  }
  // yaql reserves names starting with "__" (they would reach Python internals there).
  if (name.startsWith('__')) throw new YaqlError(`names must not start with "__": ${name}`, i);
  const constant = CONSTANTS.get(name);
  if (constant !== undefined) tokens.push({ kind: 'const', pos: i, value: constant });
  else if (WORD_OPERATORS.has(name)) tokens.push({ kind: 'op', pos: i, value: name });
  else tokens.push({ kind: 'name', pos: i, value: name });
  return end;
}

/** Index of the quote closing the string that opens at `start`; a backslash escapes any character. */
function findClosingQuote(source: string, start: number, quote: string): number {
  let j = start + 1;
  while (j < source.length) {
    const ch = source[j]!;
    if (ch === quote) return j;
    if (ch === '\\') {
      if (source[j + 1] === '\n' || j + 1 >= source.length) break;
      j += 2;
    } else {
      j++;
    }
  }
  throw new YaqlError('unterminated string', start);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/**
 * Python's escape sequences, as yaql decodes them: a backslash before any other character stays a
 * backslash (so `'\d'` is two characters).
 */
function decodeEscapes(raw: string, offset: number): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch !== '\\' || i + 1 >= raw.length) {
      out += ch;
      i++;
      continue;
    }
    const next = raw[i + 1]!;
    const simple = Object.hasOwn(SIMPLE_ESCAPES, next) ? SIMPLE_ESCAPES[next] : undefined;
    const hexLength = Object.hasOwn(HEX_LENGTH, next) ? HEX_LENGTH[next] : undefined;
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (hexLength !== undefined) {
      const hex = raw.slice(i + 2, i + 2 + hexLength);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === hexLength ? Number.parseInt(hex, 16) : NaN;
      if (!(code <= 0x10ffff)) throw new YaqlError(`invalid \\${next} escape`, offset + i);
      out += String.fromCodePoint(code);
      i += 2 + hexLength;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(raw.slice(i + 1))![0];
      out += String.fromCodePoint(Number.parseInt(digits, 8));
      i += 1 + digits.length;
    } else if (next === 'N' && raw[i + 2] === '{') {
      throw new YaqlError('\\N{...} escapes are not supported', offset + i);
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
