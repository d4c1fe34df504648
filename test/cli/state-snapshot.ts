import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Workdir } from './workdir.js';

/**
 * Every row of every table of a Workdir's state database and of its reality's file, as one
 * string to compare before and after a command. The engines' heartbeats (`services`) are left
 * out, and so are the tables named in `skip`.
 */
export function snapshot(w: Workdir, skip: string[] = []): string {
  return snapshotDatabase(w.db, skip);
}

/** The same for the state database at `db` (and its reality's file, if any). */
export function snapshotDatabase(db: string, skip: string[] = []): string {
  const reality = `${db}.reality`;
  return JSON.stringify({
    state: dump(db, ['services', ...skip]),
    reality: existsSync(reality) ? dump(reality, []) : null,
  });
}

function dump(file: string, skip: string[]): { table: string; rows: unknown[] }[] {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    return tables
      .filter((t) => !skip.includes(t.name))
      .map((t) => ({ table: t.name, rows: db.prepare(`SELECT * FROM "${t.name}"`).all() }));
  } finally {
    db.close();
  }
}
