import { DateTime } from '../time.js';
import { isPythonSpace } from '../unicode.js';
import { dictEntries, equal, isDict, toStr, truthy, typeName } from '../values.js';
import { isRegexCall, regexReplace, regexSplit } from './regex.js';
import { joinCollections } from './collections.js';
import { formatDateTime, replaceDateTime } from './datetime.js';
import { type Call, define, type FunctionDef } from './types.js';

/**
 * replace() also changes parts of a datetime (yaql has one replace() per type): every part has a
 * named parameter, and dt.replace(2014, 2, 1) fills `old`, `new` and `count` positionally.
 */
const DATETIME_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond', 'offset'];

function datetimeSlots(c: Call): number[] {
  return DATETIME_PARTS.map((_, i) => (i < 3 && !c.has(4 + i) ? 1 + i : 4 + i));
}

/**
 * String functions with Python's semantics (yaql calls Python's str methods). Indexes count code
 * points, as Python does, not UTF-16 units.
 */

function isSpace(ch: string): boolean {
  return isPythonSpace(ch.codePointAt(0)!);
}

/** Python slice bounds: negative counts from the end, then clamped to [0, length]. */
function sliceBounds(length: number, start: number, end: number): [number, number] {
  const clamp = (i: number) => Math.min(length, Math.max(0, i < 0 ? i + length : i));
  return [clamp(start), clamp(end)];
}

function substring(c: Call): string {
  const chars = [...c.string(0)];
  let start = c.int(1);
  let length = c.intOr(2, -1);
  if (length < 0) length = chars.length;
  if (start < 0) start += chars.length;
  const [from, to] = sliceBounds(chars.length, start, start + length);
  return chars.slice(from, to).join('');
}

/**
 * indexOf(string, sub, start => 0, length => -1) as Python's str.find, or indexOf(list, item);
 * lastIndexOf likewise with rfind.
 */
function indexOf(fromEnd: boolean) {
  return (c: Call): number => {
    const target = c.value(0);
    if (Array.isArray(target)) {
      const items = c.list(0);
      const test = (item: unknown) => equal(item, c.value(1), c.budget);
      return fromEnd ? items.findLastIndex(test) : items.findIndex(test);
    }
    const chars = [...c.string(0)];
    const sub = [...c.string(1)];
    let start = c.intOr(2, 0);
    let end = chars.length;
    if (c.has(3)) {
      if (start < 0) start += chars.length;
      const length = c.int(3);
      end = length < 0 ? chars.length : start + length;
    }
    if ((start < 0 ? start + chars.length : start) > chars.length) return -1;
    const [from, to] = sliceBounds(chars.length, start, end);
    c.budget.spendChars(chars.length);
    const matchesAt = (i: number) => sub.every((ch, k) => chars[i + k] === ch);
    if (fromEnd) {
      for (let i = to - sub.length; i >= from; i--) if (matchesAt(i)) return i;
    } else {
      for (let i = from; i + sub.length <= to; i++) if (matchesAt(i)) return i;
    }
    return -1;
  };
}

/** Python's str.split / str.rsplit, including whitespace splitting when no separator is given. */
function split(fromEnd: boolean) {
  return (c: Call): (string | null)[] => {
    if (!fromEnd && isRegexCall(c)) return regexSplit(c, c.has(3) ? c.int(3) : c.intOr(2, 0));
    if (c.has(3)) return c.fail('maxSplit is for splitting by a regex; a string separator takes maxSplits');
    const text = c.string(0);
    const separator = c.optString(1);
    const maxSplits = c.intOr(2, -1);
    c.budget.spendChars(text.length);
    if (separator === '') return c.fail('empty separator');
    if (separator !== null) {
      const parts = text.split(separator);
      if (maxSplits < 0 || parts.length <= maxSplits + 1) return parts;
      return fromEnd
        ? [parts.slice(0, parts.length - maxSplits).join(separator), ...parts.slice(parts.length - maxSplits)]
        : [...parts.slice(0, maxSplits), parts.slice(maxSplits).join(separator)];
    }
    if (fromEnd) return splitWhitespace([...text].reverse().join(''), maxSplits, true);
    return splitWhitespace(text, maxSplits, false);
  };
}

/** Splits on runs of whitespace; after maxSplits splits the rest is kept, less its leading whitespace. */
function splitWhitespace(text: string, maxSplits: number, reversed: boolean): string[] {
  const chars = [...text];
  const parts: string[] = [];
  let i = 0;
  for (;;) {
    while (i < chars.length && isSpace(chars[i]!)) i++;
    if (i >= chars.length) break;
    if (maxSplits >= 0 && parts.length === maxSplits) {
      parts.push(chars.slice(i).join(''));
      break;
    }
    const start = i;
    while (i < chars.length && !isSpace(chars[i]!)) i++;
    parts.push(chars.slice(start, i).join(''));
  }
  if (!reversed) return parts;
  return parts.reverse().map((part) => [...part].reverse().join(''));
}

/** Python's strip/lstrip/rstrip: `chars` is a set of characters, whitespace when null. */
function strip(text: string, chars: string | null, left: boolean, right: boolean): string {
  const set = chars === null ? null : new Set(chars);
  const strippable = (ch: string) => (set === null ? isSpace(ch) : set.has(ch));
  const cps = [...text];
  let from = 0;
  let to = cps.length;
  if (left) while (from < to && strippable(cps[from]!)) from++;
  if (right) while (to > from && strippable(cps[to - 1]!)) to--;
  return cps.slice(from, to).join('');
}

function trim(left: boolean, right: boolean) {
  return (c: Call): string => strip(c.string(0), c.optString(1), left, right);
}

/** Python's str.replace(old, new, count): count < 0 replaces every occurrence. */
function replaceText(c: Call, text: string, old: string, replacement: string, count: number): string {
  if (old === '') {
    // Python inserts the replacement at every position, the end included.
    const chars = [...text];
    const done = count < 0 ? chars.length + 1 : Math.min(count, chars.length + 1);
    c.budget.spendChars(text.length + done * replacement.length);
    const body = chars.map((ch, i) => (i < done ? replacement + ch : ch)).join('');
    return done > chars.length ? body + replacement : body;
  }
  const parts = text.split(old);
  const done = count < 0 ? parts.length - 1 : Math.min(count, parts.length - 1);
  c.budget.spendChars(text.length + done * replacement.length);
  const replaced = parts.slice(0, done + 1).join(replacement);
  return done < parts.length - 1 ? `${replaced}${old}${parts.slice(done + 1).join(old)}` : replaced;
}

/**
 * replace(string, old, new, count => -1), replace(string, {old => new, ...}, count => -1), or
 * replace(list, position, value, count => 1) which puts one value in place of `count` items.
 */
function replace(c: Call): unknown {
  const target = c.value(0);
  if (target instanceof DateTime) return replaceDateTime(c, target, datetimeSlots(c));
  if (c.has(4)) return c.fail('year, month... replace parts of a datetime only');
  if (Array.isArray(target)) return replaceItems(c);
  if (isRegexCall(c)) return regexReplace(c);
  let text = c.string(0);
  if (isDict(c.value(1))) {
    const count = c.has(3) ? c.int(3) : c.intOr(2, -1);
    for (const [key, value] of dictEntries(c.dict(1))) {
      text = replaceText(c, text, toStr(key, c.budget), toStr(value, c.budget), count);
    }
    return text;
  }
  return replaceText(c, text, c.string(1), c.string(2), c.intOr(3, -1));
}

function replaceItems(c: Call): unknown[] {
  const items = c.list(0);
  const position = c.int(1);
  if (!c.has(2)) return c.fail('missing the replacement value');
  const count = c.intOr(3, 1);
  const end = count < 0 ? items.length : position + count;
  const out = items.filter((_, i) => i < position || i >= end);
  if (position >= 0 && position < items.length && end > position) out.splice(position, 0, c.value(2));
  return out;
}

/** list.join(separator) or separator.join(list); items go through str(). */
function join(c: Call): unknown {
  if (c.has(2)) return joinCollections(c);
  const [first, second] = [c.value(0), c.value(1)];
  const [items, separator] =
    typeof first === 'string' && Array.isArray(second) ? [c.list(1), first] : [c.list(0), c.string(1)];
  const text = items.map((item) => toStr(item, c.budget)).join(separator);
  c.budget.spendChars(text.length);
  return text;
}

function affix(atEnd: boolean) {
  return (c: Call): boolean => {
    const text = c.string(0);
    return c.rest.some((value) => {
      if (typeof value !== 'string') return c.fail(`needs strings, not ${typeName(value)}`);
      return atEnd ? text.endsWith(value) : text.startsWith(value);
    });
  };
}

function isEmpty(c: Call): boolean {
  const value = c.value(0);
  if (value === null) return true;
  const text = c.string(0);
  const trimSpaces = c.has(1) ? c.value(1) !== false : true;
  return (trimSpaces ? strip(text, c.optString(2), true, true) : text) === '';
}

/** Python's str() of a value, which the (historical) yaql format() used. */
function pythonStr(value: unknown, c: Call): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return toStr(value, c.budget);
}

/**
 * format('{0}-{1}', a, b) or format('{x}', x => 1): only plain `{}`, `{N}` and `{name}` fields, so
 * that no attribute or index access reaches into values (the reason yaql dropped format()).
 */
function format(c: Call): string {
  const target = c.value(0);
  if (target instanceof DateTime) return formatDateTime(c, target);
  const template = c.string(0);
  let out = '';
  let auto: number | null = null;
  let manual = false;
  for (let i = 0; i < template.length; i++) {
    const ch = template[i]!;
    if (ch === '}' || (ch === '{' && template[i + 1] === '{')) {
      if (template[i + 1] !== ch) return c.fail('single "}" in format string');
      out += ch;
      i++;
      continue;
    }
    if (ch !== '{') {
      out += ch;
      continue;
    }
    const close = template.indexOf('}', i);
    if (close < 0) return c.fail('unclosed "{" in format string');
    const field = template.slice(i + 1, close);
    let value: unknown;
    if (field === '') {
      if (manual) return c.fail('cannot mix "{}" with numbered fields');
      auto = (auto ?? -1) + 1;
      value = c.rest[auto];
    } else if (/^\d+$/.test(field)) {
      if (auto !== null) return c.fail('cannot mix "{}" with numbered fields');
      manual = true;
      value = c.rest[Number(field)];
    } else if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(field)) {
      value = c.bindings.get(field);
    } else {
      return c.fail(`unsupported format field "{${field}}" (only {}, {0} and {name})`);
    }
    if (value === undefined) return c.fail(`no value for format field "{${field}}"`);
    out += pythonStr(value, c);
    i = close;
  }
  c.budget.spendChars(out.length);
  return out;
}

/** Python's string module constants, for characters(). */
const CHARACTER_CLASSES: Record<string, string> = {
  digits: '0123456789',
  hexdigits: '0123456789abcdefABCDEF',
  asciiLowercase: 'abcdefghijklmnopqrstuvwxyz',
  asciiUppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  asciiLetters: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  letters: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  octdigits: '01234567',
  punctuation: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  printable:
    '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\x0b\x0c',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  whitespace: ' \t\n\r\x0b\x0c',
};

/**
 * characters(digits => true, ...): the distinct characters of the chosen classes. yaql returns a
 * Python set (in hash order); Hearth keeps the classes' order.
 */
function characters(c: Call): string[] {
  let text = '';
  for (const [i, param] of c.def.params.entries())
    if (truthy(c.value(i))) text += CHARACTER_CLASSES[param.name];
  return [...new Set(text)];
}

/** hex(n): Python's hex(), "0xff" or "-0x1". */
function hex(c: Call): string {
  const n = c.int(0);
  return n < 0 ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}`;
}

/** norm(s): s trimmed of whitespace, or null when nothing is left. */
function norm(c: Call): string | null {
  const text = strip(c.string(0), null, true, true);
  return text === '' ? null : text;
}

export const STRING_FUNCTIONS: readonly FunctionDef[] = [
  define('str', ['value'], (c) => toStr(c.value(0), c.budget)),
  define('toUpper', ['string'], (c) => c.string(0).toUpperCase()),
  define('toLower', ['string'], (c) => c.string(0).toLowerCase()),
  define('split', ['string', 'separator?', 'maxSplits?', 'maxSplit?'], split(false)),
  define('rightSplit', ['string', 'separator?', 'maxSplits?'], split(true)),
  define('join', ['sequence', 'separator', 'predicate?:lambda', 'selector?:lambda'], join),
  define('trim', ['string', 'chars?'], trim(true, true)),
  define('trimLeft', ['string', 'chars?'], trim(true, false)),
  define('trimRight', ['string', 'chars?'], trim(false, true)),
  define(
    'replace',
    ['string', 'old?', 'new?', 'count?', ...DATETIME_PARTS.map((name) => `${name}?`)],
    replace,
  ),
  define('substring', ['string', 'start', 'length?'], substring),
  define('indexOf', ['string', 'sub', 'start?', 'length?'], indexOf(false)),
  define('lastIndexOf', ['string', 'sub', 'start?', 'length?'], indexOf(true)),
  define('startsWith', ['string', '...prefixes'], affix(false)),
  define('endsWith', ['string', '...suffixes'], affix(true)),
  define('isString', ['value'], (c) => typeof c.value(0) === 'string'),
  define('isEmpty', ['string', 'trimSpaces?', 'chars?'], isEmpty),
  define('toCharArray', ['string'], (c) => [...c.string(0)]),
  define('format', ['format', '...args'], format, 'bindings'),
  define(
    'characters',
    Object.keys(CHARACTER_CLASSES).map((name) => `${name}?`),
    characters,
  ),
  define('hex', ['num'], hex),
  define('norm', ['string'], norm),
];
