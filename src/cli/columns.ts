import { Option } from 'commander';

/*
 * `-c/--column`, as cliff (the openstack client's command framework) does it: the columns kept are
 * those the command prints that the user named, in the command's own order; names it does not
 * print are ignored unless none is recognized, which is an error naming both lists.
 */

/** `-c, --column COLUMN`, repeatable, for a command that prints through `show()`. */
export function columnOption(): Option {
  return new Option(
    '-c, --column <column>',
    'a column to include (repeatable; the command keeps its own column order)',
  )
    .argParser((value: string, previous: string[]) => [...previous, value])
    .default([], 'all');
}

type Row = Record<string, unknown>;

/** The rows (or the record) with only the named columns; everything when none is named. */
export function selectColumns<T extends Row | Row[]>(value: T, columns: readonly string[] = []): T {
  if (columns.length === 0) return value;
  const rows: Row[] = Array.isArray(value) ? value : [value];
  // A list with no rows has no columns to check (nothing is printed from it anyway).
  if (rows.length === 0) return value;
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const kept = names.filter((name) => columns.includes(name));
  if (kept.length === 0) {
    throw new Error(
      `No recognized column names in ${pythonList(columns)}. Recognized columns are ${pythonList(names)}.`,
    );
  }
  const pick = (row: Row): Row =>
    Object.fromEntries(kept.filter((name) => Object.hasOwn(row, name)).map((name) => [name, row[name]]));
  return (Array.isArray(value) ? rows.map(pick) : pick(value as Row)) as T;
}

/** A list of names as cliff's message shows it (Python's repr of a list of strings). */
function pythonList(names: readonly string[]): string {
  const repr = (s: string) =>
    s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/'/g, "\\'")}'`;
  return `[${names.map(repr).join(', ')}]`;
}
