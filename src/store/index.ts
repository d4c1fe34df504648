import type { Store } from './contract.js';
import { openSqliteStore, type OpenSqliteOptions } from './sqlite/index.js';

export type * from './contract.js';

export type OpenStoreOptions = OpenSqliteOptions;

/**
 * Opens the store a URL names: a file path, `sqlite:PATH`, or `:memory:` (a private, empty
 * database for tests). PostgreSQL comes in a later version. The schema is migrated on open
 * unless `migrate: false`.
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  return openSqliteStore(sqlitePath(url), options);
}

function sqlitePath(url: string): string {
  if (/^postgres(ql)?:/i.test(url)) {
    // The URL may hold a password: don't echo it.
    throw new Error('PostgreSQL stores are not supported yet: use a SQLite file path or sqlite:PATH');
  }
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path);
  if (scheme)
    throw new Error(`unsupported store URL scheme "${scheme[1]}:" (expected a file path or sqlite:PATH)`);
  if (path === '') throw new Error('empty store path');
  return path;
}
