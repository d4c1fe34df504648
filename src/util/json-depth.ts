/**
 * Whether a parsed JSON value nests maps and lists deeper than `max` levels (a scalar is depth 0,
 * `[]` and `{}` depth 1). Walked with an explicit stack, not recursion: the value may come from
 * a client, and a document nested 100,000 deep must be refused, not overflow the call stack.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
