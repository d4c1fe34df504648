// What the benchmarks share to read their settings and print their summaries.

/** A comma-separated setting of the environment (BENCH_SIZES, BENCH_SHAPES ...), or its default. */
export const envList = (value: string | undefined, fallback: string): string[] =>
  (value ?? fallback).split(',');

/** A markdown table of the rows (the first is the header), columns padded to their widest cell. */
export function markdownTable(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n');
}
