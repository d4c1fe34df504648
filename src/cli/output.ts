import { stringify } from 'yaml';
import { selectColumns } from './columns.js';

export type Format = 'table' | 'json' | 'yaml';

/** Renders a value for the terminal in the format the user chose. */
export function render(value: unknown, format: Format, table: () => string): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (format === 'yaml') return stringify(value, { lineWidth: 0 });
  return table();
}

/** A plain-text table with a header row, columns padded to their widest cell. */
export function textTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => cellWidth(r[i] ?? ''))));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const fmt = (cells: string[]) => {
    const height = Math.max(1, ...cells.map((c) => c.split('\n').length));
    const out: string[] = [];
    for (let l = 0; l < height; l++) {
      out.push(
        `| ${widths.map((w, i) => (cells[i] ?? '').split('\n')[l]?.padEnd(w) ?? ''.padEnd(w)).join(' | ')} |`,
      );
    }
    return out.join('\n');
  };
  return [line, fmt(headers), line, ...rows.map(fmt), line].join('\n') + '\n';
}

function cellWidth(cell: string): number {
  return Math.max(...cell.split('\n').map((l) => l.length));
}

/** A scalar or structure shown in one table cell. */
export function cell(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

const FORMATS = ['table', 'json', 'yaml', 'value'] as const;

/** A command's `-f` and `-c` (columnOption in columns.ts). */
export interface OutputOptions {
  format: string;
  column?: string[];
}

/**
 * Prints rows (or one record) in the format the user chose, like the openstack client: only the
 * columns `-c` names, when it names some.
 */
export function show(
  print: (s: string) => void,
  output: string | OutputOptions,
  shown: Record<string, unknown> | Record<string, unknown>[],
): void {
  const { format, column } = typeof output === 'string' ? { format: output, column: undefined } : output;
  const fmt = checkFormat(format);
  const value = selectColumns(shown, column);
  if (Array.isArray(value) && value.length === 0 && (fmt === 'table' || fmt === 'value')) return;
  if (fmt === 'value') {
    const rows = Array.isArray(value) ? value : Object.values(value).map((v) => ({ v }));
    for (const row of rows) print(`${Object.values(row).map(cellText).join(' ')}\n`);
    return;
  }
  print(
    render(value, fmt, () =>
      Array.isArray(value)
        ? textTable(
            Object.keys(value[0] ?? {}),
            value.map((r) => Object.values(r).map(cellText)),
          )
        : textTable(
            ['Field', 'Value'],
            Object.entries(value).map(([k, v]) => [k, cellText(v)]),
          ),
    ),
  );
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function checkFormat(format: string): Format | 'value' {
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new Error(`unknown output format "${format}"; expected ${FORMATS.join(', ')}`);
  }
  return format as Format | 'value';
}

/** Whether a format prints rows (table, value) rather than a document (json, yaml). */
export function tabular(format: string): boolean {
  const fmt = checkFormat(format);
  return fmt === 'table' || fmt === 'value';
}
