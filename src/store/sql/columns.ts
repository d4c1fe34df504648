import type { Dialect, Row, SqlExecutor, SqlValue } from './driver.js';

/**
 * How a record field is stored: JSON in TEXT, booleans as 0/1, ISO timestamps as integer ms
 * (portable, compact and ordered the same on both backends). NULL stays null both ways.
 */
export type ColumnKind = 'text' | 'int' | 'bool' | 'json' | 'time';

export interface ColumnSpec {
  field: string;
  column: string;
  kind: ColumnKind;
}

export function encodeValue(kind: ColumnKind, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'text':
      return String(value);
    case 'int':
      return value as number;
    case 'bool':
      return value ? 1 : 0;
    case 'json':
      return JSON.stringify(value);
    case 'time':
      return encodeTime(value);
  }
}

export function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'text':
      return value;
    case 'int':
      return Number(value);
    case 'bool':
      return Number(value) !== 0;
    case 'json':
      // The commonest documents cost no parse. JSON.parse defines `__proto__` keys as own
      // properties, so user keys round-trip as data.
      if (value === '{}') return {};
      if (value === '[]') return [];
      return JSON.parse(value as string);
    case 'time':
      return decodeTime(Number(value));
  }
}

// Rows read together usually share their timestamps: format each distinct one once.
let lastDecoded = { ms: NaN, iso: '' };

function decodeTime(ms: number): string {
  if (ms !== lastDecoded.ms) lastDecoded = { ms, iso: new Date(ms).toISOString() };
  return lastDecoded.iso;
}

/** A timestamp as a read would return it (ISO 8601 with milliseconds, UTC). */
export function normalizeTime(value: string | null): string | null {
  if (value === null) return null;
  if (value !== lastNormalized.input)
    lastNormalized = { input: value, output: new Date(encodeTime(value)).toISOString() };
  return lastNormalized.output;
}

// Rows written together usually share their timestamps: parse each distinct string once.
let lastEncoded: { input: string | undefined; ms: number } = { input: undefined, ms: 0 };
let lastNormalized: { input: string | undefined; output: string } = { input: undefined, output: '' };

function encodeTime(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === lastEncoded.input) return lastEncoded.ms;
  const ms = Date.parse(String(value));
  if (!Number.isFinite(ms)) throw new TypeError(`invalid timestamp: ${JSON.stringify(value)}`);
  lastEncoded = { input: String(value), ms };
  return ms;
}

/** A table's record ↔ row mapping, and the SQL fragments derived from it. */
export class TableSpec<R> {
  readonly columnNames: string[];
  private readonly byField: Map<string, ColumnSpec>;

  constructor(
    readonly table: string,
    readonly columns: readonly ColumnSpec[],
  ) {
    this.columnNames = columns.map((c) => c.column);
    this.byField = new Map(columns.map((c) => [c.field, c]));
  }

  /** The same mapping without some fields (e.g. the database-assigned id, for inserts). */
  omit(...fields: string[]): TableSpec<R> {
    return new TableSpec<R>(
      this.table,
      this.columns.filter((c) => !fields.includes(c.field)),
    );
  }

  /** The mapping of some fields only (a narrower read). */
  pick<K extends keyof R & string>(...fields: K[]): TableSpec<Pick<R, K>> {
    return new TableSpec<Pick<R, K>>(
      this.table,
      this.columns.filter((c) => (fields as string[]).includes(c.field)),
    );
  }

  /** The column that stores `field`; an unknown field is a bug. */
  columnOf(field: string): ColumnSpec {
    const column = this.byField.get(field);
    if (!column) throw new TypeError(`${this.table}: no field "${field}"`);
    return column;
  }

  decode(row: Row): R {
    const record: Record<string, unknown> = {};
    for (const c of this.columns) record[c.field] = decodeValue(c.kind, row[c.column]);
    return record as R;
  }

  /** The values of `record` in column order (fields it lacks are NULL). */
  encode(record: object): SqlValue[] {
    const values = record as Record<string, unknown>;
    return this.columns.map((c) => encodeValue(c.kind, values[c.field]));
  }

  /**
   * `col = $n, ...` for the defined fields of `changes`, numbering placeholders from `firstParam`.
   * Fields in `skip` are ignored (so a caller may pass a whole record); unknown fields are a bug.
   */
  setClause(
    changes: object,
    firstParam: number,
    skip: ReadonlySet<string>,
  ): { sql: string; params: SqlValue[] } {
    const parts: string[] = [];
    const params: SqlValue[] = [];
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined || skip.has(field)) continue;
      const column = this.byField.get(field);
      if (!column) throw new TypeError(`${this.table}: no field "${field}"`);
      params.push(encodeValue(column.kind, value));
      parts.push(`${column.column} = $${firstParam + params.length - 1}`);
    }
    return { sql: parts.join(', '), params };
  }
}

/** Multi-row statements stay well under the placeholder limit and the size that still pays off. */
const MAX_ROWS_PER_STATEMENT = 500;

export function rowsPerStatement(dialect: Dialect, columnCount: number): number {
  return Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(dialect.maxParams / columnCount)));
}

const sqlCache = new Map<string, string>();

/**
 * Multi-row statements built for a number of rows, memoised: chunk sizes repeat, so the few
 * texts in use are built once (bounded: the cache starts over past 1,000 texts).
 */
export function memoSql(key: string, build: () => string): string {
  let sql = sqlCache.get(key);
  if (sql === undefined) {
    sql = build();
    if (sqlCache.size > 1000) sqlCache.clear();
    sqlCache.set(key, sql);
  }
  return sql;
}

/** `INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)` for `rows` rows. */
export function insertSql(table: string, columns: readonly string[], rows: number): string {
  return memoSql(`insert ${table}(${columns.join(',')})*${rows}`, () => {
    const tuples: string[] = [];
    let n = 1;
    for (let r = 0; r < rows; r++) tuples.push(`(${columns.map(() => `$${n++}`).join(', ')})`);
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`;
  });
}

/**
 * Inserts rows with as few statements as the placeholder limit allows; with `returning`, returns
 * what each statement returned (in no particular order).
 */
export async function batchInsert(
  db: SqlExecutor,
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  rows: readonly SqlValue[][],
  returning?: string,
): Promise<Row[]> {
  return batchInsertEncoded(db, dialect, table, columns, rows, (row) => row, returning);
}

/**
 * `batchInsert` of records encoded one statement's worth at a time: encoding 100,000 rows
 * happens between statements, where the driver may let the event loop take a turn.
 */
export async function batchInsertEncoded<T>(
  db: SqlExecutor,
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  rows: readonly T[],
  encode: (row: T) => readonly SqlValue[],
  returning?: string,
): Promise<Row[]> {
  const out: Row[] = [];
  const size = rowsPerStatement(dialect, columns.length);
  for (let start = 0; start < rows.length; start += size) {
    const end = Math.min(rows.length, start + size);
    const params: SqlValue[] = [];
    for (let r = start; r < end; r++) for (const value of encode(rows[r]!)) params.push(value);
    const sql = insertSql(table, columns, end - start);
    if (returning === undefined) await db.run(sql, params);
    else for (const row of await db.all(`${sql} RETURNING ${returning}`, params)) out.push(row);
  }
  return out;
}
