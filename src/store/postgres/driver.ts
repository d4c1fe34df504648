import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import {
  postgresDialect,
  type Row,
  type SqlDriver,
  type SqlExecutor,
  type SqlValue,
  type TransactionOptions,
} from '../sql/driver.js';
import { isConnectionError } from '../../util/postgres-errors.js';
import { isRetryable } from './errors.js';

export interface PostgresOptions {
  /** Connections kept by this process (each engine runs up to this many transactions at once). */
  poolSize?: number;
  /** Attempts of a transaction that lost a serialization conflict before the error is reported. */
  maxAttempts?: number;
  /** Told of connection errors the pool absorbed (an idle connection dropped by a restart). */
  onError?: (error: Error) => void;
  /**
   * Tests only: the fraction of (snapshot) transactions made to fail with a serialization
   * failure just before COMMIT, so that every caller is shown to be safe to run again.
   */
  injectConflicts?: number;
}

/** BIGINT (ids, ms timestamps, counts) comes back as a number, as SQLite returns it: all fit in 2^53. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

const insideTransaction = new AsyncLocalStorage<true>();

/**
 * The `pg` driver. Transactions run REPEATABLE READ (snapshot isolation): each sees one snapshot,
 * and a row it writes that another transaction changed since that snapshot is a conflict (40001).
 * The engine's writes are compare-and-swaps on the rows whose state they decide (atomic keys,
 * traversal ids, sync point counters), so a conflict is exactly a decision made on stale state.
 * SERIALIZABLE would add predicate locks: a batch that reads many rows takes a lock on the whole
 * table, and unrelated stacks' traversals then fail each other's transactions. A transaction that
 * loses a conflict or a deadlock (40P01) rolls back and runs again from the start, so callers
 * never see it. Claiming work runs READ COMMITTED: one statement whose rows are locked with SKIP
 * LOCKED needs nothing more.
 */
export class PostgresDriver implements SqlDriver {
  readonly dialect = postgresDialect;
  readonly pool: pg.Pool;
  private readonly maxAttempts: number;
  private readonly injectConflicts: number;
  private closed = false;

  constructor(
    readonly url: string,
    options: PostgresOptions = {},
  ) {
    // Idle connections don't keep a process alive: a command ends when its work does.
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      types,
      allowExitOnIdle: true,
    });
    this.maxAttempts = options.maxAttempts ?? 30;
    this.injectConflicts = options.injectConflicts ?? 0;
    // An idle connection broken by a restart is reported here; without a listener it would crash
    // the process. The pool drops it and the next transaction opens a new one.
    this.pool.on('error', (error) => options.onError?.(error));
    // The pool stops listening to a new connection as it hands it over, and the server's FATAL
    // (a restart) can arrive in the same read as the connection's ready message, before the
    // transaction listens: unheard, it crashed the engine (test/cluster/db-restart). Heard here
    // for good; the next statement on that connection fails and the pool drops it.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async transaction<T>(fn: (db: SqlExecutor) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const isolation = options.isolation === 'read committed' ? 'READ COMMITTED' : 'REPEATABLE READ';
    if (insideTransaction.getStore()) {
      throw new Error('a store transaction is already open in this call chain (nested tx)');
    }
    for (let attempt = 1; ; attempt++) {
      this.checkOpen();
      try {
        return await insideTransaction.run(true, () => this.attempt(isolation, fn));
      } catch (error) {
        if (!isRetryable(error, attempt) || attempt >= this.maxAttempts) throw error;
        // Conflicting transactions retry at different moments instead of colliding again.
        await delay(Math.random() * Math.min(100, 2 ** attempt));
      }
    }
  }

  private async attempt<T>(isolation: string, fn: (db: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // The pool listens for errors of idle connections only: one cut while this transaction holds
    // it (a database restart between two statements) would otherwise crash the process. The next
    // statement fails instead, and the connection is not handed back.
    const lost = (error: Error) => (broken = error);
    client.on('error', lost);
    let open = true;
    const guard = () => {
      if (!open) throw new Error('a statement was run after its transaction ended');
    };
    const executor: SqlExecutor = {
      all: async (sql, params = []) => (
        guard(),
        (await client.query(sql, params as SqlValue[])).rows as Row[]
      ),
      run: async (sql, params = []) => (
        guard(),
        (await client.query(sql, params as SqlValue[])).rowCount ?? 0
      ),
    };
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      try {
        const value = await fn(executor);
        if (isolation === 'REPEATABLE READ' && Math.random() < this.injectConflicts) {
          throw Object.assign(new Error('injected serialization failure'), { code: '40001' });
        }
        open = false;
        await client.query('COMMIT');
        return value;
      } catch (error) {
        open = false;
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      }
    } catch (error) {
      if (isConnectionError(error)) broken = error as Error;
      throw error;
    } finally {
      // A connection that failed is closed rather than handed to the next transaction.
      client.off('error', lost);
      client.release(broken);
    }
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    this.checkOpen();
    return (await this.pool.query(sql, params as SqlValue[])).rows as Row[];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the store is closed');
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
