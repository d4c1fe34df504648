import Database from 'better-sqlite3';
import type { PhysicalObject, Reality } from '../contract.js';

/**
 * Physical objects of the types that have no cloud (TestResource), kept in a SQLite file so that
 * every `hearth` process of the embedded default sees the same ones. It stands for "the cloud",
 * not for Hearth's state, and lives in its own file.
 */
export class SqliteReality implements Reality {
  private readonly db: Database.Database;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 10000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS reality_objects (
      type TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,
      PRIMARY KEY (type, id))`);
    this.db.exec('CREATE INDEX IF NOT EXISTS reality_objects_key ON reality_objects (type, key)');
  }

  async findByKey(type: string, key: string): Promise<PhysicalObject | undefined> {
    const row = this.db
      .prepare('SELECT body FROM reality_objects WHERE type = ? AND key = ? ORDER BY rowid LIMIT 1')
      .get(type, key) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as PhysicalObject) : undefined;
  }

  async get(type: string, id: string): Promise<PhysicalObject | undefined> {
    const row = this.db
      .prepare('SELECT body FROM reality_objects WHERE type = ? AND id = ?')
      .get(type, id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as PhysicalObject) : undefined;
  }

  async put(object: PhysicalObject): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO reality_objects (type, id, key, body) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (type, id) DO UPDATE SET key = excluded.key, body = excluded.body',
      )
      .run(object.type, object.id, object.key, JSON.stringify(object));
  }

  async delete(type: string, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM reality_objects WHERE type = ? AND id = ?').run(type, id).changes > 0;
  }

  /** Every object (for tests and the crash-test leak check). */
  list(): PhysicalObject[] {
    return (
      this.db.prepare('SELECT body FROM reality_objects ORDER BY rowid').all() as { body: string }[]
    ).map((r) => JSON.parse(r.body) as PhysicalObject);
  }

  close(): void {
    this.db.close();
  }
}
