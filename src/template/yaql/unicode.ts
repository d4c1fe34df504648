/** Python's notions of character classes, shared by the string functions and the regex engine. */

/** Code point ranges of Python's str.isspace() (which `\s` and split() without a separator use). */
const PY_SPACE_RANGES: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x1c, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

export function isPythonSpace(cp: number): boolean {
  return PY_SPACE_RANGES.some(([from, to]) => cp >= from && cp <= to);
}

const UNICODE_WORD = /^[\p{L}\p{N}_]$/u;
const UNICODE_DIGIT = /^\p{Nd}$/u;

/** `\w` of a str pattern: str.isalnum() or "_"; with the ASCII flag, [A-Za-z0-9_]. */
export function isWordChar(cp: number, ascii: boolean): boolean {
  if (cp < 0x80)
    return (
      (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f
    );
  return !ascii && UNICODE_WORD.test(String.fromCodePoint(cp));
}

/** `\d`: a Unicode decimal digit (category Nd); with the ASCII flag, [0-9]. */
export function isDigitChar(cp: number, ascii: boolean): boolean {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39;
  return !ascii && UNICODE_DIGIT.test(String.fromCodePoint(cp));
}

/** `\s`: str.isspace(); with the ASCII flag, [ \t\n\r\f\v]. */
export function isSpaceChar(cp: number, ascii: boolean): boolean {
  if (ascii) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d);
  return isPythonSpace(cp);
}

function singleCase(cp: number, upper: boolean): number {
  const ch = String.fromCodePoint(cp);
  const mapped = upper ? ch.toUpperCase() : ch.toLowerCase();
  const out = mapped.codePointAt(0)!;
  return mapped.length === String.fromCodePoint(out).length ? out : cp;
}

/** A case-insensitive key: the lower case of the upper case, so that "ſ", "s" and "S" agree. */
export function caseFold(cp: number): number {
  return singleCase(singleCase(cp, true), false);
}

/** The code point and its simple upper, lower and folded forms (for case-insensitive sets). */
export function caseVariants(cp: number): number[] {
  return [cp, singleCase(cp, true), singleCase(cp, false), caseFold(cp)];
}
