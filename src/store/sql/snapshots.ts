import type { SnapshotRecord, Tx } from '../contract.js';
import type { JsonObject } from '../../util/json.js';
import { insertSql } from './columns.js';
import type { SqlExecutor } from './driver.js';
import { SNAPSHOTS } from './tables.js';

const INSERT = insertSql('snapshots', SNAPSHOTS.columnNames, 1);
const FIXED: ReadonlySet<string> = new Set(['id', 'stackId', 'projectId']);

/** Stack snapshots (engine/operations/snapshot.ts): one row each, its document in `data`. */
export function snapshotRepository(db: SqlExecutor): Tx['snapshots'] {
  const one = async (sql: string, params: string[]): Promise<SnapshotRecord | undefined> => {
    const [row] = await db.all(sql, params);
    return row ? SNAPSHOTS.decode(row) : undefined;
  };

  const update: Tx['snapshots']['update'] = async (id, changes) => {
    const set = SNAPSHOTS.setClause(changes, 2, FIXED);
    if (set.sql === '')
      return (await db.all('SELECT 1 AS found FROM snapshots WHERE id = $1', [id])).length > 0;
    return (await db.run(`UPDATE snapshots SET ${set.sql} WHERE id = $1`, [id, ...set.params])) > 0;
  };

  return {
    async insert(snapshot) {
      await db.run(INSERT, SNAPSHOTS.encode(snapshot));
    },

    get: (id) => one('SELECT * FROM snapshots WHERE id = $1', [id]),

    byTraversal: (traversalId) =>
      traversalId === ''
        ? Promise.resolve(undefined)
        : one('SELECT * FROM snapshots WHERE traversal_id = $1', [traversalId]),

    async list(stackId) {
      const rows = await db.all('SELECT * FROM snapshots WHERE stack_id = $1 ORDER BY created_at, id', [
        stackId,
      ]);
      return rows.map((r) => SNAPSHOTS.decode(r));
    },

    update,

    async recordResource(id, name, entry) {
      // Read and written in one transaction: a concurrent writer of the same row conflicts (and
      // its transaction runs again) rather than losing this entry.
      const snapshot = await one('SELECT * FROM snapshots WHERE id = $1', [id]);
      if (!snapshot) return false;
      const data: JsonObject = { ...(snapshot.data ?? {}) };
      const resources = { ...((data.resources as JsonObject | undefined) ?? {}) };
      resources[name] = { ...((resources[name] as JsonObject | undefined) ?? {}), ...entry };
      data.resources = resources;
      return update(id, { data });
    },

    async delete(id) {
      await db.run('DELETE FROM snapshots WHERE id = $1', [id]);
    },
  };
}
