import { DRIFT_STATUSES, type DriftStatus, type Tx } from '../contract.js';
import type { Dialect, SqlExecutor, SqlValue } from './driver.js';
import { batchInsert, decodeValue } from './columns.js';
import { DRIFT } from './tables.js';

const COLUMNS = [...DRIFT.columnNames, 'root_stack_id'];

export function driftRepository(db: SqlExecutor, dialect: Dialect): Tx['drift'] {
  return {
    async replace(stackId, rootStackId, records) {
      await db.run('DELETE FROM resource_drift WHERE stack_id = $1', [stackId]);
      const rows: SqlValue[][] = records.map((r) => [...DRIFT.encode({ ...r, stackId }), rootStackId]);
      await batchInsert(db, dialect, 'resource_drift', COLUMNS, rows);
    },

    async list(stackId) {
      const rows = await db.all('SELECT * FROM resource_drift WHERE stack_id = $1 ORDER BY resource_name', [
        stackId,
      ]);
      return rows.map((r) => DRIFT.decode(r));
    },

    async summary(stackIds) {
      const counts = Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0])) as Record<DriftStatus, number>;
      if (stackIds.length === 0) return { counts, detectedAt: null };
      const rows = await db.all(
        `SELECT status, COUNT(*) AS n, MAX(detected_at) AS at FROM resource_drift
         WHERE ${dialect.inStrings('stack_id', '$1')} GROUP BY status`,
        [JSON.stringify(stackIds)],
      );
      let newest: number | null = null;
      for (const row of rows) {
        counts[row.status as DriftStatus] = Number(row.n);
        const at = Number(row.at);
        if (newest === null || at > newest) newest = at;
      }
      return { counts, detectedAt: newest === null ? null : (decodeValue('time', newest) as string) };
    },
  };
}
