/**
 * What the SQL store needs of a database: statements with `$1`-style placeholders, run inside
 * transactions. A backend (sqlite/, postgres/) provides a driver and its dialect; everything
 * else — the SQL, the schema, the contract's semantics — is written once in this directory.
 */

/** A value bound to a placeholder: JSON goes in as text, booleans as 0/1, times as integer ms, bytes as a BLOB/BYTEA. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A result row, by column name. Integers may come back as strings (PostgreSQL BIGINT). */
export type Row = Record<string, unknown>;

/** Runs statements inside one open transaction. */
export interface SqlExecutor {
  /** Runs a statement and returns its rows (SELECT, or a write with RETURNING). */
  all(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a statement and returns the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface TransactionOptions {
  /**
   * 'snapshot' (the default): one snapshot, a write to a row changed since then is a conflict the
   * driver resolves by running the transaction again (SQLite: transactions never interleave). 'read committed' is
   * for single statements that lock the rows they change (claiming work), where conflicts would
   * only cost retries.
   */
  isolation?: 'snapshot' | 'read committed';
}

export interface SqlDriver {
  readonly dialect: Dialect;
  /**
   * Runs `fn` in one write transaction: commits when it resolves, rolls back when it throws. The
   * outcome is as if transactions never interleaved (a driver may run `fn` more than once to get
   * there: it must only touch the database).
   */
  transaction<T>(fn: (db: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` in a read-only transaction (one snapshot; writes refused) that need not wait for
   * this process's write transactions. Absent: the store runs reads as write transactions.
   */
  readTransaction?<T>(fn: (db: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs one statement on its own (its own implicit transaction). */
  query(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** The few places where SQLite and PostgreSQL really differ. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Column definition of an integer primary key the database assigns and never reuses. */
  readonly autoIdColumn: string;
  /** Appended to the SELECT choosing work to claim, so concurrent claimers skip each other's rows. */
  readonly claimLock: string;
  /** A statement run first in the migration transaction, so concurrent migrations queue up. */
  readonly migrationLock: string | null;
  /** A query with one row when the table named by `$1` exists (in the schema connections use), else none. */
  readonly tableExists: string;
  /** A statement that tells other processes, once the transaction commits, that work is due. */
  readonly notifyWork: string | null;
  /**
   * Makes the open transaction refuse writes (the store's read transactions, when the driver has
   * no read connection of its own); `readOnlyEnd` undoes it before the transaction ends, if needed.
   */
  readonly readOnlyBegin: string;
  readonly readOnlyEnd: string | null;
  /** Placeholders allowed in one statement (batched inserts stay under it). */
  readonly maxParams: number;
  /** `a` equals `b`, NULL equal to NULL. */
  nullSafeEquals(a: string, b: string): string;
  /**
   * `column` is one of the integers of a JSON array bound to `param`: one statement for any count.
   * PostgreSQL gets the list as an array computed once, which its planner matches against an
   * index even on rows it has no statistics for yet (a subquery there was re-read for every row).
   */
  inIntegers(column: string, param: string): string;
  /** `column` is one of the strings of a JSON array bound to `param`. */
  inStrings(column: string, param: string): string;
  /**
   * A placeholder typed as a 64-bit integer where the database cannot infer it (a VALUES table).
   * SQLite binds integers as integers already, and a CAST there costs it the primary-key lookup.
   */
  bigintParam(param: string): string;
}

/** The PostgreSQL notification channel engines listen on for new work. */
export const WORK_CHANNEL = 'hearth_work';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  // AUTOINCREMENT: ids are never reused, so a purged resource id can't come back as another row
  // (graph nodes and `requires` lists hold ids) and event ids stay a valid cursor.
  autoIdColumn: 'id INTEGER PRIMARY KEY AUTOINCREMENT',
  // Write transactions begin IMMEDIATE, so claimers are already serialised.
  claimLock: '',
  migrationLock: null,
  tableExists: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1",
  // Other processes on a SQLite file poll; this process's engine is told in memory.
  notifyWork: null,
  // A connection setting, not a transaction's: set back before the savepoint ends.
  readOnlyBegin: 'PRAGMA query_only = 1',
  readOnlyEnd: 'PRAGMA query_only = 0',
  maxParams: 32_766,
  nullSafeEquals: (a, b) => `${a} IS ${b}`,
  inIntegers: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  inStrings: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  bigintParam: (param) => param,
};

export const postgresDialect: Dialect = {
  name: 'postgres',
  autoIdColumn: 'id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
  claimLock: ' FOR UPDATE SKIP LOCKED',
  migrationLock: 'SELECT pg_advisory_xact_lock(4242424242)',
  // to_regclass resolves the name through search_path, as the store's own statements do.
  tableExists: 'SELECT 1 WHERE to_regclass($1) IS NOT NULL',
  notifyWork: `NOTIFY ${WORK_CHANNEL}`,
  readOnlyBegin: 'SET TRANSACTION READ ONLY',
  readOnlyEnd: null,
  maxParams: 65_535,
  nullSafeEquals: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  inIntegers: (column, param) =>
    `${column} = ANY(ARRAY(SELECT (jsonb_array_elements_text(${param}::jsonb))::bigint))`,
  inStrings: (column, param) => `${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(${param}::jsonb)))`,
  bigintParam: (param) => `${param}::bigint`,
};
