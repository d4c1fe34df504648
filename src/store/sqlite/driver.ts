import { realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import { type Row, type SqlDriver, type SqlExecutor, type SqlValue, sqliteDialect } from '../sql/driver.js';
import { Checkpointer } from './checkpointer.js';
import { Mutex, mutexForFile } from './mutex.js';
import { yieldIfSliceSpent } from '../../util/loop-slice.js';

export interface SqliteOptions {
  /** How long a writer waits for another process's write transaction (ms). */
  busyTimeoutMs?: number;
}

/** A prepared statement and where each `$n` of the original SQL goes among its `?`s. */
interface Prepared {
  statement: Database.Statement;
  order: number[];
  /** Whether the `$n` appear once each, in order: the parameters bind as they are. */
  inOrder: boolean;
  reader: boolean;
}

const STATEMENT_CACHE_SIZE = 500;
/** Most transactions committed together (bounds the work lost to one failed commit). */
const MAX_GROUP = 256;

/**
 * The better-sqlite3 driver: WAL (readers never block the writer), synchronous=NORMAL (durable
 * at checkpoints, safe against corruption), a busy timeout for other processes' writers, and
 * BEGIN IMMEDIATE so a transaction takes the write lock up front instead of failing to upgrade.
 */
export class SqliteDriver implements SqlDriver {
  readonly dialect = sqliteDialect;
  private readonly db: Database.Database;
  private readonly mutex: Mutex;
  private readonly releaseMutex: () => void;
  private readonly statements = new Map<string, Prepared>();
  /**
   * A second, read-only connection for read transactions: under WAL it reads the last commit
   * while a long write transaction of this process is open (yielding between its statements), so
   * an API read such as /healthz never waits for a traversal start. None for in-memory databases.
   */
  private readonly reader: { db: Database.Database; statements: Map<string, Prepared> } | undefined;
  /** Read transactions queue among themselves: each spans awaits on the one read connection. */
  private readonly readMutex = new Mutex();
  private readonly checkpointer: Checkpointer | undefined;
  private closed = false;
  /** Transactions waiting for the next group commit. */
  private pending: {
    fn: (db: SqlExecutor) => Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private drainScheduled = false;

  constructor(path: string, options: SqliteOptions = {}) {
    const busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
    this.db = new Database(path, { timeout: busyTimeoutMs });
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    // '' is a private temporary database, like ':memory:'.
    const file = this.db.memory || path === '' ? null : realpathSync(path);
    ({ mutex: this.mutex, release: this.releaseMutex } = mutexForFile(file));
    if (file !== null) {
      // Checkpoints run off this thread (checkpointer.ts); SQLite's own would run inside COMMIT.
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new Checkpointer(file, () => this.db.pragma('wal_checkpoint(PASSIVE)'));
      const db = new Database(file, { readonly: true, timeout: busyTimeoutMs });
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      this.reader = { db, statements: new Map() };
      this.readTransaction = (fn) => this.readOnReader(db, fn);
    }
  }

  /** Set when there is a read connection; without one the store reads in write transactions. */
  readonly readTransaction?: <T>(fn: (db: SqlExecutor) => Promise<T>) => Promise<T>;

  /** A read-only transaction on the read connection: one snapshot of the last commit, never waiting for this process's writers. */
  private readOnReader<T>(db: Database.Database, fn: (db: SqlExecutor) => Promise<T>): Promise<T> {
    const reader = this.reader!;
    if (this.readMutex.isHeldByCaller()) {
      return Promise.reject(new Error('a store transaction is already open in this call chain (nested tx)'));
    }
    return this.readMutex.run(async () => {
      this.checkOpen();
      let open = true;
      const guard = () => {
        if (!open) throw new Error('a statement was run after its transaction ended');
      };
      const refuse = () => {
        throw new Error('a read transaction cannot write');
      };
      const executor: SqlExecutor = {
        all: async (sql, params = []) => (guard(), this.all(sql, params, reader)),
        run: async () => (guard(), refuse()),
      };
      // Deferred: the snapshot is taken at the first read and held to the end.
      db.exec('BEGIN');
      try {
        return await fn(executor);
      } finally {
        open = false;
        if (db.inTransaction) db.exec('COMMIT');
      }
    });
  }

  /**
   * Group commit: transactions requested while another batch runs are run together, one after
   * the other, inside one BEGIN IMMEDIATE ... COMMIT, each in its own savepoint. Each keeps its
   * all-or-nothing effect (a failing one rolls back to its savepoint alone) and its promise settles
   * only after the commit, so callers see exactly the semantics of separate transactions; the
   * database pays one commit per batch instead of one per unit of work.
   */
  transaction<T>(fn: (db: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.mutex.isHeldByCaller()) {
      return Promise.reject(new Error('a store transaction is already open in this call chain (nested tx)'));
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        fn: fn as (db: SqlExecutor) => Promise<unknown>,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      if (!this.drainScheduled) {
        this.drainScheduled = true;
        void this.mutex.run(() => this.drain()).catch(() => undefined);
      }
    });
  }

  private async drain(): Promise<void> {
    this.drainScheduled = false;
    const batch = this.pending.splice(0, MAX_GROUP);
    if (this.pending.length > 0 && !this.drainScheduled) {
      this.drainScheduled = true;
      void this.mutex.run(() => this.drain()).catch(() => undefined);
    }
    if (batch.length === 0) return;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.checkOpen();
      this.db.exec('BEGIN IMMEDIATE');
      for (const request of batch) outcomes.push(await this.runInSavepoint(request.fn));
      this.db.exec('COMMIT');
      this.checkpointer?.committed();
    } catch (error) {
      if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const request of batch) request.reject(error);
      return;
    }
    batch.forEach((request, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) request.resolve(outcome.value);
      else request.reject(outcome.error);
    });
  }

  private async runInSavepoint(
    fn: (db: SqlExecutor) => Promise<unknown>,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
    this.db.exec('SAVEPOINT unit');
    let open = true;
    const guard = () => {
      if (!open) throw new Error('a statement was run after its transaction ended');
    };
    // Statements run synchronously: a long transaction (a traversal start inserting 100,000
    // rows) or a big group commit lets the loop take a turn between them every slice. Other
    // transactions still wait for the mutex; reads go to the read connection meanwhile.
    const executor: SqlExecutor = {
      all: async (sql, params = []) => (guard(), await yieldIfSliceSpent(), guard(), this.all(sql, params)),
      run: async (sql, params = []) => (guard(), await yieldIfSliceSpent(), guard(), this.run(sql, params)),
    };
    try {
      const value = await fn(executor);
      open = false;
      this.db.exec('RELEASE unit');
      return { ok: true, value };
    } catch (error) {
      open = false;
      this.db.exec('ROLLBACK TO unit');
      this.db.exec('RELEASE unit');
      return { ok: false, error };
    }
  }

  query(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.mutex.run(async () => {
      this.checkOpen();
      const rows = this.all(sql, params);
      this.checkpointer?.committed();
      return rows;
    });
  }

  async close(): Promise<void> {
    await this.mutex.run(async () => {
      if (this.closed) return;
      this.closed = true;
      this.statements.clear();
      await this.checkpointer?.close();
      this.db.close();
      this.releaseMutex();
    });
    // After the read under way, if any (the next ones find the store closed).
    await this.readMutex.run(async () => {
      if (!this.reader?.db.open) return;
      this.reader.statements.clear();
      this.reader.db.close();
    });
  }

  // Parameters go to better-sqlite3 as one array: spreading up to 32,766 arguments costs more
  // than the statement's own work on small rows.
  private all(sql: string, params: readonly SqlValue[], on?: NonNullable<typeof this.reader>): Row[] {
    const prepared = this.prepare(sql, on);
    const { statement, reader } = prepared;
    const values = bound(prepared, params);
    if (reader) return statement.all(values) as Row[];
    statement.run(values);
    return [];
  }

  private run(sql: string, params: readonly SqlValue[]): number {
    const prepared = this.prepare(sql);
    const { statement, reader } = prepared;
    const values = bound(prepared, params);
    if (reader) return statement.all(values).length;
    return statement.run(values).changes;
  }

  /** Prepares once per distinct SQL text (least recently used statements are dropped). */
  private prepare(sql: string, on?: NonNullable<typeof this.reader>): Prepared {
    const statements = on?.statements ?? this.statements;
    let prepared = statements.get(sql);
    if (prepared) {
      statements.delete(sql);
    } else {
      // better-sqlite3 binds `?` by position only, so `$n` becomes `?` and its value is looked up.
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      const statement = (on?.db ?? this.db).prepare(text);
      const inOrder = order.every((n, i) => n === i);
      prepared = { statement, order, inOrder, reader: statement.reader };
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        statements.delete(statements.keys().next().value!);
      }
    }
    statements.set(sql, prepared);
    return prepared;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the store is closed');
  }
}

/** The values of a statement's `?`s, in order. */
function bound(
  { order, inOrder }: Pick<Prepared, 'order' | 'inOrder'>,
  params: readonly SqlValue[],
): SqlValue[] {
  // Spare parameters (more than the SQL names) would be an error to better-sqlite3.
  if (inOrder && params.length === order.length) return params as SqlValue[];
  return order.map((i) => params[i]!);
}
