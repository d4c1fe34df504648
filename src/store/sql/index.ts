export type { Dialect, Row, SqlDriver, SqlExecutor, SqlValue } from './driver.js';
export { postgresDialect, sqliteDialect } from './driver.js';
export { migrate, SCHEMA_VERSION } from './migrate.js';
export { MIGRATIONS, type Migration } from './schema.js';
export { SqlStore } from './store.js';
