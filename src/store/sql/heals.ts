import type { Tx } from '../contract.js';
import { batchInsert } from './columns.js';
import type { Dialect, SqlExecutor } from './driver.js';
import { HEALS } from './tables.js';

/** The observer's bookkeeping: heals per resource (bounds, flapping) and counts per project (metrics). */
export function healRepository(db: SqlExecutor, dialect: Dialect): Tx['heals'] {
  return {
    async listTree(rootStackId) {
      const rows = await db.all(
        'SELECT * FROM resource_heals WHERE root_stack_id = $1 ORDER BY stack_id, resource_name',
        [rootStackId],
      );
      return rows.map((r) => HEALS.decode(r));
    },

    async put(records) {
      for (const record of records) {
        await db.run('DELETE FROM resource_heals WHERE stack_id = $1 AND resource_name = $2', [
          record.stackId,
          record.resourceName,
        ]);
      }
      await batchInsert(
        db,
        dialect,
        'resource_heals',
        HEALS.columnNames,
        records.map((r) => HEALS.encode(r)),
      );
    },

    async remove(stackId, names) {
      if (names.length === 0) return;
      await db.run(
        `DELETE FROM resource_heals WHERE stack_id = $1 AND ${dialect.inStrings('resource_name', '$2')}`,
        [stackId, JSON.stringify(names)],
      );
    },

    async clearTree(rootStackId) {
      await db.run('DELETE FROM resource_heals WHERE root_stack_id = $1', [rootStackId]);
    },
  };
}

export function observerCountsRepository(db: SqlExecutor): Tx['observerCounts'] {
  return {
    async add({ projectId, checks, drifts, heals }) {
      await db.run(
        `INSERT INTO observer_counts (project_id, checks, drifts, heals) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id) DO UPDATE SET checks = observer_counts.checks + excluded.checks,
           drifts = observer_counts.drifts + excluded.drifts, heals = observer_counts.heals + excluded.heals`,
        [projectId, checks, drifts, heals],
      );
    },

    async list() {
      const rows = await db.all('SELECT * FROM observer_counts ORDER BY project_id', []);
      return rows.map((r) => ({
        projectId: String(r.project_id),
        checks: Number(r.checks),
        drifts: Number(r.drifts),
        heals: Number(r.heals),
      }));
    },
  };
}
