import { realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import { type Row, type SqlDriver, type SqlExecutor, type SqlValue, sqliteDialect } from '../sql/driver.js';
import { type Mutex, mutexForFile } from './mutex.js';

export interface SqliteOptions {
  /** How long a writer waits for another process's write transaction (ms). */
  busyTimeoutMs?: number;
}

/** A prepared statement and where each `$n` of the original SQL goes among its `?`s. */
interface Prepared {
  statement: Database.Statement;
  order: number[];
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
    const executor: SqlExecutor = {
      all: async (sql, params = []) => (guard(), this.all(sql, params)),
      run: async (sql, params = []) => (guard(), this.run(sql, params)),
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
      return this.all(sql, params);
    });
  }

  close(): Promise<void> {
    return this.mutex.run(async () => {
      if (this.closed) return;
      this.closed = true;
      this.statements.clear();
      this.db.close();
      this.releaseMutex();
    });
  }

  private all(sql: string, params: readonly SqlValue[]): Row[] {
    const { statement, order } = this.prepare(sql);
    const values = order.map((i) => params[i]);
    if (statement.reader) return statement.all(...values) as Row[];
    statement.run(...values);
    return [];
  }

  private run(sql: string, params: readonly SqlValue[]): number {
    const { statement, order } = this.prepare(sql);
    const values = order.map((i) => params[i]);
    if (statement.reader) return statement.all(...values).length;
    return statement.run(...values).changes;
  }

  /** Prepares once per distinct SQL text (least recently used statements are dropped). */
  private prepare(sql: string): Prepared {
    let prepared = this.statements.get(sql);
    if (prepared) {
      this.statements.delete(sql);
    } else {
      // better-sqlite3 binds `?` by position only, so `$n` becomes `?` and its value is looked up.
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      prepared = { statement: this.db.prepare(text), order };
      if (this.statements.size >= STATEMENT_CACHE_SIZE) {
        this.statements.delete(this.statements.keys().next().value!);
      }
    }
    this.statements.set(sql, prepared);
    return prepared;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the store is closed');
  }
}
