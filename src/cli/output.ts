import { stringify } from 'yaml';

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
