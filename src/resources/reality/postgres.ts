import pg from 'pg';
import { isConnectionError } from '../../util/postgres-errors.js';
import type { PhysicalObject, Reality } from '../contract.js';

/** How long a call waits for the database to come back (a restart) before failing. */
const OUTAGE_PATIENCE_MS = 30_000;

/**
 * Physical objects of the types that have no cloud, in a table of the PostgreSQL database the
 * engines share: every engine, on any host, sees the same ones. Like SqliteReality it stands for
 * "the cloud", not for Hearth's state: the table is not part of the store's schema.
 */
export class PostgresReality implements Reality {
  private readonly pool: pg.Pool;
  private ready: Promise<void> | undefined;

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true });
    // A connection dropped while idle (a database restart) is replaced on the next call.
    this.pool.on('error', () => undefined);
  }

  private table(): Promise<void> {
    this.ready ??= (async () => {
      await this.pool.query(`CREATE TABLE IF NOT EXISTS reality_objects (
        type TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (type, id))`);
      await this.pool.query('CREATE INDEX IF NOT EXISTS reality_objects_key ON reality_objects (type, key)');
    })().catch((error: unknown) => {
      // Two processes creating the table at once: one loses and looks again next time.
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * Runs a statement, riding out a database restart: the objects live in the database the engines
   * use, so its outage is theirs too, and the engines' store waits for it rather than fail (every
   * statement here is safe to run again: reads, an upsert, a delete).
   */
  private async query(sql: string, params: unknown[]): Promise<pg.QueryResult> {
    const deadline = Date.now() + OUTAGE_PATIENCE_MS;
    for (let wait = 100; ; wait = Math.min(2 * wait, 2000)) {
      try {
        await this.table();
        return await this.pool.query(sql, params);
      } catch (error) {
        if (!isConnectionError(error) || Date.now() + wait > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  async findByKey(type: string, key: string): Promise<PhysicalObject | undefined> {
    const { rows } = await this.query(
      'SELECT body FROM reality_objects WHERE type = $1 AND key = $2 ORDER BY created_at, id LIMIT 1',
      [type, key],
    );
    return rows[0] ? (JSON.parse(rows[0].body as string) as PhysicalObject) : undefined;
  }

  async get(type: string, id: string): Promise<PhysicalObject | undefined> {
    const { rows } = await this.query('SELECT body FROM reality_objects WHERE type = $1 AND id = $2', [
      type,
      id,
    ]);
    return rows[0] ? (JSON.parse(rows[0].body as string) as PhysicalObject) : undefined;
  }

  async put(object: PhysicalObject): Promise<void> {
    await this.query(
      `INSERT INTO reality_objects (type, id, key, body) VALUES ($1, $2, $3, $4)
       ON CONFLICT (type, id) DO UPDATE SET key = excluded.key, body = excluded.body`,
      [object.type, object.id, object.key, JSON.stringify(object)],
    );
  }

  async delete(type: string, id: string): Promise<boolean> {
    const result = await this.query('DELETE FROM reality_objects WHERE type = $1 AND id = $2', [type, id]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Every object (for tests: duplicates and leaks). */
  async list(): Promise<PhysicalObject[]> {
    const { rows } = await this.query('SELECT body FROM reality_objects ORDER BY created_at, id', []);
    return rows.map((r) => JSON.parse(r.body as string) as PhysicalObject);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
