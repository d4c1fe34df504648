import type { Tx } from '../contract.js';
import type { SqlExecutor } from './driver.js';

/** Legacy engine mode's stack locks: a row per locked stack, taken and stolen by compare-and-swap. */
export function stackLockRepository(db: SqlExecutor): Tx['stackLocks'] {
  return {
    async get(stackId) {
      const [row] = await db.all('SELECT * FROM stack_locks WHERE stack_id = $1', [stackId]);
      if (!row) return undefined;
      return {
        stackId: row.stack_id as string,
        engineId: row.engine_id as string,
        acquiredAt: Number(row.acquired_at),
      };
    },

    async acquire(stackId, engineId, now, from) {
      // The conditional upsert is the compare-and-swap: an existing lock moves only from `from`.
      const changed = await db.run(
        `INSERT INTO stack_locks (stack_id, engine_id, acquired_at) VALUES ($1, $2, $3)
         ON CONFLICT (stack_id) DO UPDATE SET engine_id = excluded.engine_id, acquired_at = excluded.acquired_at
         WHERE stack_locks.engine_id = $4`,
        [stackId, engineId, now, from ?? null],
      );
      return changed > 0;
    },

    async release(stackId, engineId) {
      const changed = await db.run('DELETE FROM stack_locks WHERE stack_id = $1 AND engine_id = $2', [
        stackId,
        engineId,
      ]);
      return changed > 0;
    },
  };
}
