import { regionChunks, type YamlChunks } from './yaml-chunks.js';

/*
 * Which resources of a block-style YAML template changed since a previous version of its text,
 * without cutting the previous text into chunks: both texts are compared from either end, and
 * only the previous text's lines between the first and the last difference are read. An update
 * of one resource in 100,000 reads a few lines of the old text instead of all of them.
 */

/** Characters compared at once before the one that differs is looked for. */
const BLOCK = 4096;

/** The lengths of the longest common prefix and suffix of `a` and `b` (not overlapping). */
export function commonEnds(a: string, b: string): { prefix: number; suffix: number } {
  const limit = Math.min(a.length, b.length);
  let prefix = 0;
  while (
    prefix + BLOCK <= limit &&
    a.substring(prefix, prefix + BLOCK) === b.substring(prefix, prefix + BLOCK)
  )
    prefix += BLOCK;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  const room = limit - prefix;
  let suffix = 0;
  while (
    suffix + BLOCK <= room &&
    a.substring(a.length - suffix - BLOCK, a.length - suffix) ===
      b.substring(b.length - suffix - BLOCK, b.length - suffix)
  )
    suffix += BLOCK;
  while (suffix < room && a.charCodeAt(a.length - suffix - 1) === b.charCodeAt(b.length - suffix - 1))
    suffix++;
  return { prefix, suffix };
}

/**
 * The resources of `chunks` (cut from `text`) whose chunk is not the same in `before`, new ones
 * included; every other chunk is byte for byte the previous text's. Undefined when the
 * difference reaches outside the resources' chunks (the head may have changed) or the previous
 * text's differing lines are not plain chunks: the caller compares all chunks then.
 */
export function changedChunks(before: string, text: string, chunks: YamlChunks): Set<string> | undefined {
  const { names, starts, end, indent } = chunks;
  const { prefix, suffix } = commonEnds(before, text);
  const changed = new Set<string>();
  if (prefix === text.length && before.length === text.length) return changed;
  const last = text.length - suffix;
  if (names.length === 0 || prefix < starts[0]! || last > end) return undefined;
  // The differing lines lie in chunks i0 .. i1 - 1 of the new text: i0 starts at or before the
  // first difference, i1 (or the section's end) at or after the last one, in the common suffix.
  // A difference at a chunk's first line may be the previous chunk's last (blank) lines.
  let i0 = lastAtOrBefore(starts, Math.max(prefix - 1, starts[0]!));
  let i1 = i0 + 1;
  while (i1 < names.length && starts[i1]! < last) i1++;
  const from = starts[i0]!;
  const to = i1 < names.length ? starts[i1]! : end;
  const shift = text.length - before.length;
  const oldTo = to - shift;
  if (oldTo < from || (oldTo > 0 && oldTo < before.length && before.charCodeAt(oldTo - 1) !== 0x0a))
    return undefined;
  const previous = regionChunks(before, from, oldTo, indent);
  if (!previous) return undefined;
  for (; i0 < i1; i0++) {
    const name = names[i0]!;
    if (previous.get(name) !== chunks.resources.get(name)) changed.add(name);
  }
  return changed;
}

/** Where a chunked text's resources lie: stored with its digests, so the next update needs no cut. */
export interface ChunkLayout {
  /** The first chunk's start and the end of the last one's lines (yamlChunks' `starts[0]`, `end`). */
  start: number;
  end: number;
  indent: number;
}

export function chunkLayout(chunks: YamlChunks): ChunkLayout | undefined {
  if (chunks.names.length === 0) return undefined;
  return { start: chunks.starts[0]!, end: chunks.end, indent: chunks.indent };
}

/** What changed between a chunked text (its layout known) and the next, read around the difference. */
export interface ChunkEdit {
  /** Resources whose chunk changed, new ones included. */
  changed: Set<string>;
  /** Names of the previous text gone from the new one. */
  removed: Set<string>;
  /** Names the previous text did not have. */
  added: Set<string>;
  layout: ChunkLayout;
  /** A resource's chunk in the new text (looked up by its key line when it is not near the difference). */
  chunkOf(name: string): string | undefined;
}

/**
 * The chunks that differ between `before`, whose resources lie as `layout` says (every line in
 * them at `indent` a plain key), and `text`, reading only the lines around the difference of the
 * two; `had` says whether `before` names a resource (the new lines must not repeat a name kept).
 * Undefined when the difference reaches the head or the lines are not plain chunks.
 */
export function editChunks(
  before: string,
  text: string,
  layout: ChunkLayout,
  had: (name: string) => boolean,
): ChunkEdit | undefined {
  const { start, indent } = layout;
  const shift = text.length - before.length;
  const end = layout.end + shift;
  const { prefix, suffix } = commonEnds(before, text);
  const last = text.length - suffix;
  const changed = new Set<string>();
  const removed = new Set<string>();
  const added = new Set<string>();
  const moved = { changed, removed, added, layout: { start, end, indent } };
  const find = (name: string) => chunkAt(text, keyLine(text, name, start, end, indent), end, indent);
  if (prefix === text.length && shift === 0) return { ...moved, chunkOf: find };
  if (prefix < start || last > end) return undefined;
  // From the key line at or before the first difference (or the line before it: a chunk's last,
  // blank lines) to the first key line after the last difference, or the section's end.
  const from = keyLineBefore(text, Math.max(prefix - 1, start), start, indent);
  let to = last;
  if (to > 0 && text.charCodeAt(to - 1) !== 0x0a) to = nextLine(text, to);
  to = nextKeyLine(text, to, end, indent);
  const oldTo = to - shift;
  if (oldTo < from || (oldTo < before.length && before.charCodeAt(oldTo - 1) !== 0x0a)) return undefined;
  const now = regionChunks(text, from, to, indent);
  const then = regionChunks(before, from, oldTo, indent);
  if (!now || !then) return undefined;
  for (const [name, chunk] of now) {
    if (then.get(name) !== chunk) changed.add(name);
    if (then.has(name)) continue;
    // A name kept outside these lines and written again in them: a duplicate key.
    if (had(name)) return undefined;
    added.add(name);
  }
  for (const name of then.keys()) if (!now.has(name)) removed.add(name);
  return { ...moved, chunkOf: (name) => now.get(name) ?? find(name) };
}

/** The start of the line after the one `at` is in (or the text's end). */
function nextLine(text: string, at: number): number {
  const next = text.indexOf('\n', at);
  return next < 0 ? text.length : next + 1;
}

/** Whether the line starting at `at` is a key at `indent` (text there, not a comment). */
function isKeyLine(text: string, at: number, indent: number): boolean {
  for (let i = at; i < at + indent; i++) if (text.charCodeAt(i) !== 0x20) return false;
  const code = text.charCodeAt(at + indent);
  return code !== 0x20 && code !== 0x23 && code !== 0x0a && !Number.isNaN(code);
}

/** The start of the last key line at or before `at` (the section's lines all chunks from `start`). */
function keyLineBefore(text: string, at: number, start: number, indent: number): number {
  let line = text.lastIndexOf('\n', at - 1) + 1;
  while (line > start && !isKeyLine(text, line, indent)) line = text.lastIndexOf('\n', line - 2) + 1;
  return Math.max(line, start);
}

/** The start of the first key line at or after the line start `at`, or `end`. */
function nextKeyLine(text: string, at: number, end: number, indent: number): number {
  let line = at;
  while (line < end && !isKeyLine(text, line, indent)) line = nextLine(text, line);
  return Math.min(line, end);
}

/** The start of `name`'s key line in the section [start, end), or -1. */
function keyLine(text: string, name: string, start: number, end: number, indent: number): number {
  const key = `\n${' '.repeat(indent)}${name}`;
  for (let at = text.indexOf(key, start - 1); at >= 0 && at < end; at = text.indexOf(key, at + 1)) {
    let colon = at + key.length;
    while (text.charCodeAt(colon) === 0x20) colon++;
    const after = text.charCodeAt(colon + 1);
    if (text.charCodeAt(colon) === 0x3a && (Number.isNaN(after) || after === 0x20 || after === 0x0a))
      return at + 1;
  }
  return -1;
}

/** The chunk whose key line starts at `at` (through the line before the next key, or `end`). */
function chunkAt(text: string, at: number, end: number, indent: number): string | undefined {
  if (at < 0) return undefined;
  const next = nextKeyLine(text, nextLine(text, at), end, indent);
  return text.slice(at, next > at && text.charCodeAt(next - 1) === 0x0a ? next - 1 : next);
}

/** The index of the last of the ascending `starts` at or before `at` (the first is). */
function lastAtOrBefore(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
