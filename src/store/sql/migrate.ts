import type { SqlDriver } from './driver.js';
import { type Migration, MIGRATIONS } from './schema.js';

export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/** The version the database's schema is at: 0 for an empty database. Reads only. */
export async function schemaVersion(driver: SqlDriver): Promise<number> {
  const exists = await driver.query(driver.dialect.tableExists, ['schema_version']);
  if (exists.length === 0) return 0;
  const [row] = await driver.query('SELECT MAX(version) AS version FROM schema_version');
  return row?.version === null || row?.version === undefined ? 0 : Number(row.version);
}

/**
 * Applies the missing schema steps in order, in one transaction (a failed step leaves the
 * database as it was). Idempotent; concurrent callers queue on the write lock (SQLite) or an
 * advisory lock (PostgreSQL), and the second finds nothing to do.
 */
export async function migrate(
  driver: SqlDriver,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  const { dialect } = driver;
  // READ COMMITTED: each statement sees what a migration that held the lock before committed
  // (a snapshot would be taken before the lock was granted).
  return driver.transaction(
    async (db) => {
      if (dialect.migrationLock) await db.all(dialect.migrationLock);
      await db.run(
        'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      );
      const [row] = await db.all('SELECT MAX(version) AS version FROM schema_version');
      const current = row?.version === null || row?.version === undefined ? 0 : Number(row.version);
      const latest = Math.max(0, ...migrations.map((m) => m.version));
      if (current > latest) {
        throw new Error(
          `the database schema is version ${current}, newer than this Hearth knows (${latest})`,
        );
      }
      const missing = migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version);
      for (const step of missing) {
        for (const statement of step.statements(dialect)) await db.run(statement);
        if (step.after) await step.after(db, dialect);
        await db.run('INSERT INTO schema_version (version, description, applied_at) VALUES ($1, $2, $3)', [
          step.version,
          step.description,
          Date.now(),
        ]);
      }
      return missing.length > 0 ? missing[missing.length - 1]!.version : current;
    },
    { isolation: 'read committed' },
  );
}
