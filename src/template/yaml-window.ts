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
