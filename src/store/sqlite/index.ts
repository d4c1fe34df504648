import type { Store } from '../contract.js';
import { SqlStore } from '../sql/store.js';
import { SqliteDriver, type SqliteOptions } from './driver.js';

export { SqliteDriver, type SqliteOptions } from './driver.js';

export interface OpenSqliteOptions extends SqliteOptions {
  /** Bring the schema up to date on open (default true). */
  migrate?: boolean;
}

/** Opens (creating if needed) a SQLite store at `path`, or a private in-memory one for ':memory:'. */
export async function openSqliteStore(path: string, options: OpenSqliteOptions = {}): Promise<Store> {
  const store = new SqlStore(new SqliteDriver(path, options));
  if (options.migrate ?? true) {
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
