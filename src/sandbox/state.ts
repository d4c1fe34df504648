import Database from 'better-sqlite3';
import type { JsonObject } from '../util/json.js';

/**
 * The sandbox cloud's state, in a SQLite file of its own (or in memory): every object of every
 * service is a JSON document of a kind (`server`, `network`, `volume`...), owned by a project.
 * Each service module gives its kinds their shape; this file only stores and finds them.
 */

/** A stored object: the service's own representation, with an `id`. */
export type SandboxObject = JsonObject & { id: string };

export interface ListFilter {
  /** Only this project's objects (undefined: every project's). */
  projectId?: string;
  /**
   * Only objects whose top-level field equals one of the values, compared by SQLite: the others
   * are never parsed (a filtered list of a project with 10,000 networks stays cheap).
   */
  equal?: Record<string, readonly string[]>;
}

/**
 * Kinds Keystone keeps: one identity service answers for every region, so a region's view of the
 * state shares them (a token made at /identity works in every region).
 */
const GLOBAL_KINDS = new Set(['user', 'project', 'token', 'trust', 'app_credential']);

export class SandboxState {
  private readonly db: Database.Database;
  /** Prefixed to the regional kinds of a region's view ('' for RegionOne, the state itself). */
  private readonly prefix: string;
  /** Statements by their SQL: preparing one costs more than running it (a server list runs thousands). */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(file = ':memory:', shared?: { db: Database.Database; region: string }) {
    if (shared) {
      this.db = shared.db;
      this.prefix = `${shared.region}/`;
      return;
    }
    this.prefix = '';
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS objects (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        project_id TEXT,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (kind, id)
      );
      CREATE INDEX IF NOT EXISTS objects_by_project ON objects (kind, project_id, seq);
      -- MAX(seq) for each new object: an index lookup, not a scan of every object.
      CREATE INDEX IF NOT EXISTS objects_by_seq ON objects (seq);
      -- A server's ports (its addresses, in every server view): found without reading every port.
      CREATE INDEX IF NOT EXISTS objects_by_device ON objects (kind, json_extract(body, '$."device_id"'));
      CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  }

  /**
   * The objects of another region (compute, network, volume, image), kept in the same file under
   * kinds of their own, so each region's clouds are separate; identity and settings are shared.
   */
  region(name: string): SandboxState {
    return new SandboxState(':memory:', { db: this.db, region: name });
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      // A list's SQL varies with its filter's values (`IN (?, ?)`): the cache stays bounded.
      if (this.statements.size >= 256) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private kind(kind: string): string {
    return this.prefix === '' || GLOBAL_KINDS.has(kind) ? kind : `${this.prefix}${kind}`;
  }

  /** Stores a new object (or replaces one of the same kind and id), keeping its creation order. */
  put<T extends SandboxObject>(kind: string, projectId: string | null, object: T): T {
    const seq = (this.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM objects').get() as { n: number }).n;
    this.prepare(
      `INSERT INTO objects (kind, id, project_id, seq, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body, project_id = excluded.project_id`,
    ).run(this.kind(kind), object.id, projectId, seq, JSON.stringify(object));
    return object;
  }

  get<T extends SandboxObject>(kind: string, id: string): T | undefined {
    const row = this.prepare('SELECT body FROM objects WHERE kind = ? AND id = ?').get(
      this.kind(kind),
      id,
    ) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as T) : undefined;
  }

  /** The project that owns an object (null: shared, e.g. a public image or network). */
  owner(kind: string, id: string): string | null | undefined {
    const row = this.prepare('SELECT project_id FROM objects WHERE kind = ? AND id = ?').get(
      this.kind(kind),
      id,
    ) as { project_id: string | null } | undefined;
    return row?.project_id;
  }

  /** Objects of a kind in creation order. */
  list<T extends SandboxObject>(kind: string, filter: ListFilter = {}): T[] {
    let sql = 'SELECT body FROM objects WHERE kind = ?';
    const params: unknown[] = [this.kind(kind)];
    if (filter.projectId !== undefined) {
      sql += ' AND project_id = ?';
      params.push(filter.projectId);
    }
    for (const [field, values] of Object.entries(filter.equal ?? {})) {
      // The path written in the SQL, not bound: the index on a port's device_id then serves.
      sql += ` AND json_extract(body, '$."${field.replace(/["']/g, '')}"') IN (${values.map(() => '?').join(', ')})`;
      params.push(...values);
    }
    const rows = this.prepare(`${sql} ORDER BY seq`).all(...params) as { body: string }[];
    return rows.map((r) => JSON.parse(r.body) as T);
  }

  /** Objects of a kind the project can see: its own and the shared ones (no owner). */
  visible<T extends SandboxObject>(kind: string, projectId: string): T[] {
    const rows = this.prepare(
      'SELECT body FROM objects WHERE kind = ? AND (project_id = ? OR project_id IS NULL) ORDER BY seq',
    ).all(this.kind(kind), projectId) as { body: string }[];
    return rows.map((r) => JSON.parse(r.body) as T);
  }

  delete(kind: string, id: string): boolean {
    return this.prepare('DELETE FROM objects WHERE kind = ? AND id = ?').run(this.kind(kind), id).changes > 0;
  }

  count(kind: string, projectId?: string): number {
    const row = (
      projectId === undefined
        ? this.prepare('SELECT COUNT(*) AS n FROM objects WHERE kind = ?').get(this.kind(kind))
        : this.prepare('SELECT COUNT(*) AS n FROM objects WHERE kind = ? AND project_id = ?').get(
            this.kind(kind),
            projectId,
          )
    ) as { n: number };
    return row.n;
  }

  setting(name: string): string | undefined {
    const row = this.prepare('SELECT value FROM settings WHERE name = ?').get(name) as
      { value: string } | undefined;
    return row?.value;
  }

  setSetting(name: string, value: string): void {
    this.prepare(
      'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    ).run(name, value);
  }

  /** Runs `fn` in one transaction (a check-then-write, e.g. a quota or an IP allocation). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    // A region's view shares the file: the state that opened it closes it.
    if (this.prefix === '') this.db.close();
  }
}
