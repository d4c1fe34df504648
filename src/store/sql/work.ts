import type { Tx, WorkItem } from '../contract.js';
import type { Dialect, SqlDriver, SqlExecutor, SqlValue } from './driver.js';
import { batchInsert, encodeValue } from './columns.js';
import { WORK } from './tables.js';

const NEW_WORK_COLUMNS = [
  'root_stack_id',
  'stack_id',
  'traversal_id',
  'kind',
  'node',
  'payload',
  'run_at',
  'available_at',
  'attempts',
];

/** The time a released item becomes due: its new run time, or earlier if it was woken meanwhile. */
const RELEASE_AT = 'CASE WHEN woken_at IS NOT NULL AND woken_at < $3 THEN woken_at ELSE $3 END';

export function workRepository(db: SqlExecutor, dialect: Dialect): Tx['work'] {
  return {
    async enqueue(items) {
      const rows = items.map((w): SqlValue[] => {
        const runAt = w.runAt ?? 0;
        const payload = encodeValue('json', w.payload ?? null);
        return [w.rootStackId, w.stackId, w.traversalId, w.kind, w.node, payload, runAt, runAt, 0];
      });
      await batchInsert(db, dialect, 'work', NEW_WORK_COLUMNS, rows);
    },

    async complete(id, claimedBy) {
      return (await db.run('DELETE FROM work WHERE id = $1 AND claimed_by = $2', [id, claimedBy])) > 0;
    },

    async completeMany(ids, claimedBy) {
      if (ids.length === 0) return 0;
      return db.run(`DELETE FROM work WHERE claimed_by = $2 AND id IN ${dialect.integersFromJson('$1')}`, [
        JSON.stringify(ids),
        claimedBy,
      ]);
    },

    async reschedule(id, claimedBy, runAt, payload, waitingFor) {
      const params: SqlValue[] = [id, claimedBy, runAt, waitingFor ?? null];
      let setPayload = '';
      if (payload !== undefined) {
        params.push(encodeValue('json', payload));
        setPayload = ', payload = $5';
      }
      const changed = await db.run(
        `UPDATE work SET run_at = ${RELEASE_AT}, available_at = ${RELEASE_AT},
           claimed_by = NULL, claim_expires = NULL, woken_at = NULL, waiting_for = $4${setPayload}
         WHERE id = $1 AND claimed_by = $2`,
        params,
      );
      return changed > 0;
    },

    async listForTraversal(traversalId) {
      const rows = await db.all('SELECT * FROM work WHERE traversal_id = $1 ORDER BY id', [traversalId]);
      return rows.map((r) => WORK.decode(r));
    },

    async deleteForTraversal(traversalId) {
      await db.run('DELETE FROM work WHERE traversal_id = $1', [traversalId]);
    },

    async signalQueuedBefore(node, id) {
      const rows = await db.all(
        "SELECT 1 AS one FROM work WHERE kind = 'signal' AND node = $1 AND id < $2 LIMIT 1",
        [node, id],
      );
      return rows.length > 0;
    },

    async exists(id) {
      return (await db.all('SELECT 1 AS one FROM work WHERE id = $1', [id])).length > 0;
    },

    async releaseClaimsOf(engineId, now) {
      return db.run(
        `UPDATE work SET claimed_by = NULL, claim_expires = NULL, available_at = $2
         WHERE claimed_by = $1`,
        [engineId, now],
      );
    },

    async countForStack(stackId) {
      const [row] = await db.all('SELECT COUNT(*) AS n FROM work WHERE stack_id = $1', [stackId]);
      return Number(row?.n ?? 0);
    },

    async stats(now) {
      // One pass over the covering index on available_at: a claimed item's is its lease's end, so
      // items due now are exactly those at or before now (an expired claim is due again).
      const [all] = await db.all(
        `SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN available_at <= $1 THEN 1 ELSE 0 END), 0) AS due,
           MIN(available_at) AS next FROM work`,
        [now],
      );
      // Live claims are few (a batch per engine): found through the index on claimed_by (a range
      // the planner takes, unlike IS NOT NULL; the unary plus keeps it off the index on available_at,
      // whose later part may be long).
      const [held] = await db.all(
        "SELECT COUNT(*) AS n FROM work WHERE claimed_by > '' AND +available_at > $1",
        [now],
      );
      const total = Number(all?.total ?? 0);
      const due = Number(all?.due ?? 0);
      const claimed = Number(held?.n ?? 0);
      const next = all?.next;
      return {
        due,
        claimed,
        scheduled: total - due - claimed,
        nextAvailableAt: next === null || next === undefined ? undefined : Number(next),
      };
    },

    async wake(traversalId, node, now) {
      // An unclaimed item becomes due now. A claimed one is being run: its worker may already have
      // looked and be about to reschedule it for later, so the wake is remembered and that
      // reschedule makes it due no later than now (no lost wake-up).
      return db.run(
        `UPDATE work SET
           run_at = CASE WHEN claimed_by IS NULL AND run_at > $3 THEN $3 ELSE run_at END,
           available_at = CASE WHEN claimed_by IS NULL AND available_at > $3 THEN $3 ELSE available_at END,
           woken_at = CASE WHEN claimed_by IS NOT NULL AND (woken_at IS NULL OR woken_at > $3) THEN $3 ELSE woken_at END
         WHERE traversal_id = $1 AND node = $2`,
        [traversalId, node, now],
      );
    },

    async wakeWaiting(key, now) {
      // As wake(): due now if unclaimed; remembered in woken_at if claimed (its worker's next
      // reschedule honours it). The key stays until that reschedule, so a second event is not lost.
      return db.run(
        `UPDATE work SET
           run_at = CASE WHEN claimed_by IS NULL AND run_at > $2 THEN $2 ELSE run_at END,
           available_at = CASE WHEN claimed_by IS NULL AND available_at > $2 THEN $2 ELSE available_at END,
           woken_at = CASE WHEN claimed_by IS NOT NULL AND (woken_at IS NULL OR woken_at > $2) THEN $2 ELSE woken_at END
         WHERE waiting_for = $1`,
        [key, now],
      );
    },
  };
}

/**
 * Claims due items: one index range scan on available_at (a held item's available_at is its
 * lease's end, so live claims are never scanned), one UPDATE. SQLite serialises writers with
 * BEGIN IMMEDIATE; PostgreSQL claimers skip each other's locked rows.
 */
export async function claimWork(
  driver: SqlDriver,
  engineId: string,
  now: number,
  limit: number,
  leaseMs: number,
): Promise<WorkItem[]> {
  if (limit <= 0) return [];
  const expires = now + leaseMs;
  const rows = await driver.transaction((db) =>
    db.all(
      `UPDATE work SET claimed_by = $1, claim_expires = $4, available_at = $4, attempts = attempts + 1, woken_at = NULL
       WHERE id IN (
         SELECT id FROM work WHERE available_at <= $2 ORDER BY available_at, id LIMIT $3${driver.dialect.claimLock}
       )
       RETURNING *`,
      [engineId, now, limit, expires],
    ),
  );
  return rows.map((r) => WORK.decode(r)).sort((a, b) => a.runAt - b.runAt || a.id - b.id);
}

export async function nextWorkTime(driver: SqlDriver): Promise<number | undefined> {
  const [row] = await driver.query('SELECT MIN(available_at) AS next FROM work');
  return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
}
