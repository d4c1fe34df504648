import type { Store } from './contract.js';
import type { OpenPostgresOptions } from './postgres/index.js';
import { openSqliteStore, type OpenSqliteOptions } from './sqlite/index.js';

export type * from './contract.js';
export { ClaimLostError } from './contract.js';

export type OpenStoreOptions = OpenSqliteOptions & OpenPostgresOptions;

/**
 * Opens the store a URL names: `postgres://` or `postgresql://` (PostgreSQL), a file path,
 * `sqlite:PATH`, or `:memory:` (a private, empty SQLite database for tests). The schema is
 * migrated on open unless `migrate: false`.
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  // Loaded only when needed: the PostgreSQL client costs a command's start-up ~50 ms.
  if (isPostgresUrl(url)) return (await import('./postgres/index.js')).openPostgresStore(url, options);
  return openSqliteStore(sqlitePath(url), options);
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The SQLite file a store URL names, or undefined when it names none (a PostgreSQL URL,
 * `:memory:`, another scheme): what may have its directory created or a file beside it.
 */
export function sqliteFileOf(url: string): string | undefined {
  if (isPostgresUrl(url)) return undefined;
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  if (path === '' || path === ':memory:' || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return undefined;
  return path;
}

function sqlitePath(url: string): string {
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path);
  if (scheme)
    throw new Error(
      `unsupported store URL scheme "${scheme[1]}:" (expected postgres://, a file path or sqlite:PATH)`,
    );
  if (path === '') throw new Error('empty store path');
  return path;
}
