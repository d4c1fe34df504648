/**
 * "Did you mean" for names a person typed: the candidate one or two typos away, if any. Used for
 * configuration options, properties and resource types alike, so every hint judges typos the same.
 */

/**
 * The candidate nearest `name` (case aside) by edit distance, if within `maxDistance` edits (by
 * default two, or a quarter of a long name): the first of equally near ones.
 */
export function closest(
  name: string,
  candidates: Iterable<string>,
  maxDistance = Math.max(2, Math.floor(name.length / 4)),
): string | undefined {
  if (name.length > 128) return undefined;
  const target = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const d = editDistance(target, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, with a transposition of neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length]!;
}
