import type { Dialect, SqlExecutor } from './driver.js';

/**
 * Versioned schema steps, applied in order by migrate.ts. Never edit a released step: add one.
 *
 * Portable DDL: TEXT, INTEGER and BIGINT (SQLite gives BIGINT integer affinity), JSON in TEXT,
 * booleans as 0/1, times as integer ms. Every row a traversal touches carries root_stack_id, the
 * key a distributed deployment will shard on.
 */
export interface Migration {
  version: number;
  description: string;
  statements(dialect: Dialect): string[];
  /** What SQL alone cannot do, run after the statements in the same transaction (rows moved). */
  after?(db: SqlExecutor, dialect: Dialect): Promise<void>;
}
