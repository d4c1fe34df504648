import type { Store } from '../contract.js';
import { migrated, SqlStore } from '../sql/store.js';
import { SqliteDriver, type SqliteOptions } from './driver.js';

export { SqliteDriver, type SqliteOptions } from './driver.js';

export interface OpenSqliteOptions extends SqliteOptions {
  /** Bring the schema up to date on open (default true). */
  migrate?: boolean;
}

/** Opens (creating if needed) a SQLite store at `path`, or a private in-memory one for ':memory:'. */
export async function openSqliteStore(path: string, options: OpenSqliteOptions = {}): Promise<Store> {
  return migrated(new SqlStore(new SqliteDriver(path, options)), options.migrate);
}
