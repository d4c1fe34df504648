import { createHash } from 'node:crypto';

/*
 * A text cut into pieces whose boundaries depend on the lines around them only, so two versions
 * of a text that differ in one place share every piece but the one or two around it (what the
 * store keeps once per distinct piece: store/sql/template-text.ts).
 *
 * A cut falls before a line whose hash, taken with the hashes of the lines it is nested under (by
 * indentation: a YAML key's path), has its low bits zero. A path is unique in a map (a resource's
 * key line, each of its properties), so cuts are spread evenly even in a text whose lines repeat
 * (a hundred thousand `type: OS::Heat::None`), and an edit moves no cut but its neighbours'.
 * Pieces are at least MIN_CHARS long (no cut closer) and at most MAX_CHARS (a forced cut at the
 * next line, or inside a line longer than that: a one-line JSON document).
 */

const MIN_CHARS = 8 * 1024;
const MAX_CHARS = 256 * 1024;
/** One line in 512 starts a piece (a 100,000-resource template of one-line resources: ~40 KiB). */
const CUT_MASK = 511;

export interface CutOptions {
  /** Cuts fall before one line in `mask + 1` (a power of two): smaller for text that deflates less. */
  mask?: number;
  /** The first line is a piece of its own (a summary that changes with any edit). */
  firstLineAlone?: boolean;
}

/** The characters of a line its hash reads (with its length): a key and the start of its value. */
const LINE_PREFIX = 32;

/** The 32-bit mix of a line's hash, so its low bits depend on every character. */
function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A cut at `at` would not split a surrogate pair. */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** The pieces of `text`, in order: joined, they are the text. An empty text has none. */
export function cutText(text: string, options: CutOptions = {}): string[] {
  const mask = options.mask ?? CUT_MASK;
  const pieces: string[] = [];
  // The open paths: the indentation and hash of each line the current one may be nested under.
  const indents: number[] = [];
  const hashes: number[] = [];
  let start = 0;
  for (let pos = 0; pos < text.length;) {
    let next = text.indexOf('\n', pos);
    next = next < 0 ? text.length : next + 1;
    let at = pos;
    while (at < next && text.charCodeAt(at) === 0x20) at++;
    const indent = at - pos;
    const blank = at === next || text.charCodeAt(at) === 0x0a || text.charCodeAt(at) === 0x0d;
    if (!blank) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) {
        indents.pop();
        hashes.pop();
      }
      // The line's first characters and its length: enough to tell a map's keys apart.
      let h = (hashes.length > 0 ? hashes[hashes.length - 1]! : 0x811c9dc5) ^ indent ^ ((next - at) << 8);
      const to = Math.min(next, at + LINE_PREFIX);
      for (let i = at; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      const mixed = finish(h);
      indents.push(indent);
      hashes.push(mixed);
      if ((mixed & mask) === 0 && pos - start >= MIN_CHARS) {
        pieces.push(text.slice(start, pos));
        start = pos;
      }
    }
    // A piece grown past the bound ends here; a line longer than the bound is cut inside.
    while (next - start > MAX_CHARS) {
      const cut = pos - start >= MIN_CHARS ? pos : safeCut(text, start + MAX_CHARS);
      pieces.push(text.slice(start, cut));
      start = cut;
    }
    pos = next;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/** A piece's address: 22 characters of its SHA-256 (132 bits), in base64url. */
export function pieceHash(piece: string): string {
  return createHash('sha256').update(piece, 'utf8').digest('base64url').slice(0, 22);
}
