import { type Command, InvalidArgumentError } from 'commander';
import { stringify } from 'yaml';
import { selectColumns } from './columns.js';
import { fitWidths, wrapText } from './table-fit.js';
import { type OutputStream, type Style, styled, terminalWidth, useColour } from './terminal.js';

export type Format = 'table' | 'json' | 'yaml';

/** Renders a value for the terminal in the format the user chose. */
export function render(value: unknown, format: Format, table: () => string): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (format === 'yaml') return stringify(value, { lineWidth: 0 });
  return table();
}

/**
 * How this run's tables look: statuses coloured, and a width to fit (undefined: as wide as the
 * cells). Decided once per command from its options and stdout (`tableLayoutFor`), not per table.
 */
export interface TableLayout {
  colour: boolean;
  maxWidth?: number;
}

let layout: TableLayout = { colour: false };

export function setTableLayout(chosen: TableLayout): void {
  layout = chosen;
}

/** cliff's table formatter options. */
export interface TableWidthOptions {
  maxWidth?: number;
  fitWidth?: boolean;
}

/**
 * The layout for tables printed to `stream` (undefined: not the process's stdout): a terminal's
 * tables fit its width and colour their statuses; anything else gets them unchanged (scripts
 * parse them) unless `--max-width N` (or cliff's CLIFF_MAX_TERM_WIDTH) or `--fit-width`
 * (CLIFF_FIT_WIDTH=1) asks. `--max-width 0` turns fitting off.
 */
export function tableLayoutFor(
  opts: TableWidthOptions,
  stream: OutputStream | undefined,
  env: Record<string, string | undefined> = process.env,
): TableLayout {
  const colour = stream !== undefined && useColour(stream, env);
  const envMax = Number(env.CLIFF_MAX_TERM_WIDTH);
  const maxWidth = opts.maxWidth ?? (Number.isInteger(envMax) && envMax !== 0 ? envMax : undefined);
  if (maxWidth !== undefined) return maxWidth > 0 ? { colour, maxWidth } : { colour };
  const fit = opts.fitWidth === true || env.CLIFF_FIT_WIDTH === '1' || stream?.isTTY === true;
  const width = fit ? terminalWidth(stream, env) : undefined;
  return width === undefined ? { colour } : { colour, maxWidth: width };
}

function integer(text: string): number {
  if (!/^\s*-?\d+\s*$/.test(text)) throw new InvalidArgumentError('expected a whole number');
  return Number(text);
}

/** `--max-width` and `--fit-width`, as cliff gives every command that prints a table. */
export function addTableOptions(cmd: Command): void {
  cmd
    .option(
      '--max-width <integer>',
      'fit tables into this many columns, <1 to disable (env CLIFF_MAX_TERM_WIDTH)',
      integer,
    )
    .option(
      '--fit-width',
      "fit tables to the terminal's width even when not writing to one (COLUMNS; env CLIFF_FIT_WIDTH=1)",
    );
}

/** Least width a wide column shrinks to when fitting, as cliff's: lists, and a record's Field/Value. */
const LIST_MIN_WIDTH = 8;
const RECORD_MIN_WIDTH = 16;

/**
 * A plain-text table with a header row, columns padded to their widest cell; under a layout with
 * a width, wide columns shrink and their cells wrap so the lines fit it.
 */
export function textTable(headers: string[], rows: string[][], minWidth = LIST_MIN_WIDTH): string {
  const natural = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => cellWidth(r[i] ?? ''))));
  const widths = layout.maxWidth === undefined ? natural : fitWidths(natural, layout.maxWidth, minWidth);
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const fmt = (cells: string[]) => {
    const wrapped = widths.map((w, i) => wrapText(cells[i] ?? '', w));
    const style = widths.map((_, i) => (layout.colour ? statusStyle(cells[i] ?? '') : undefined));
    const height = Math.max(1, ...wrapped.map((c) => c.length));
    const out: string[] = [];
    for (let l = 0; l < height; l++) {
      const texts = widths.map((w, i) => {
        const text = wrapped[i]![l] ?? '';
        const colour = style[i];
        // Padded outside the colour: escape codes take no width.
        return `${colour && text !== '' ? styled(colour, text) : text}${' '.repeat(Math.max(0, w - text.length))}`;
      });
      out.push(`| ${texts.join(' | ')} |`);
    }
    return out.join('\n');
  };
  return [line, fmt(headers), line, ...rows.map(fmt), line].join('\n') + '\n';
}

/** A Heat status's colour, as a Heat or kubectl user expects: done green, failed red, moving yellow. */
export function statusStyle(text: string): Style | undefined {
  if (/^[A-Z]+_COMPLETE$/.test(text)) return 'green';
  if (/^[A-Z]+_FAILED$/.test(text)) return 'red';
  if (/^[A-Z]+_IN_PROGRESS$/.test(text)) return 'yellow';
  return undefined;
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
            RECORD_MIN_WIDTH,
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
