import { type Claim, ClaimLostError, type NewWork, type Tx, type WorkItem } from '../contract.js';
import type { Dialect, SqlDriver, SqlExecutor, SqlValue } from './driver.js';
import { batchInsertEncoded, encodeValue, memoSql } from './columns.js';
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
  'inputs',
];
const CLAIMED_WORK_COLUMNS = [...NEW_WORK_COLUMNS, 'claimed_by', 'claim_expires'];

/** The inputs column of a new unit: NULL when it carries none (it reads its sync point's). */
const inputsOf = (w: NewWork): SqlValue => (w.inputs ? encodeValue('json', w.inputs) : null);

/** The time a released item becomes due: its new run time, or earlier if it was woken meanwhile. */
const RELEASE_AT = 'CASE WHEN woken_at IS NOT NULL AND woken_at < $3 THEN woken_at ELSE $3 END';

/**
 * `touched` is told when a statement may have made work due, so the transaction can wake idle
 * engines once it commits.
 */
export function workRepository(
  db: SqlExecutor,
  dialect: Dialect,
  touched: () => void = () => {},
): Tx['work'] {
  return {
    async enqueue(items) {
      if (items.length === 0) return;
      // Encoded a statement's worth at a time (a traversal start enqueues up to a million items).
      await batchInsertEncoded(db, dialect, 'work', NEW_WORK_COLUMNS, items, (w): SqlValue[] => {
        const runAt = ms(w.runAt ?? 0);
        const payload = encodeValue('json', w.payload ?? null);
        return [
          w.rootStackId,
          w.stackId,
          w.traversalId,
          w.kind,
          w.node,
          payload,
          runAt,
          runAt,
          0,
          inputsOf(w),
        ];
      });
      touched();
    },

    async enqueueClaimed(items, engineId, expires) {
      if (items.length === 0) return [];
      // A claim as claimWork makes it (attempt 1), whose lease makes the item due when it ends.
      const claimedBy = `${engineId}#1`;
      const until = ms(expires);
      const rows = await batchInsertEncoded(
        db,
        dialect,
        'work',
        CLAIMED_WORK_COLUMNS,
        items,
        (w): SqlValue[] => [
          w.rootStackId,
          w.stackId,
          w.traversalId,
          w.kind,
          w.node,
          encodeValue('json', w.payload ?? null),
          ms(w.runAt ?? 0),
          until,
          1,
          inputsOf(w),
          claimedBy,
          until,
        ],
        'id',
      );
      // RETURNING gives no order the databases promise: the new ids, ascending, are the rows in
      // the order they were inserted (one statement, one transaction, an increasing key).
      const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
      // Not due for anyone else, but progress: watchers (the console's feed) wake on it.
      touched();
      return items.map((w, i) => ({
        id: ids[i]!,
        rootStackId: w.rootStackId,
        stackId: w.stackId,
        traversalId: w.traversalId,
        kind: w.kind,
        node: w.node,
        payload: w.payload ?? null,
        runAt: ms(w.runAt ?? 0),
        attempts: 1,
        claimedBy,
        claimExpires: until,
        waitingFor: null,
        inputs: w.inputs ?? null,
      }));
    },

    async complete(claim) {
      const changed = await db.run('DELETE FROM work WHERE id = $1 AND claimed_by = $2', [
        claim.id,
        claimToken(claim),
      ]);
      if (changed === 0) throw new ClaimLostError(claim.id);
    },

    async completeMany(claims) {
      const size = Math.min(500, Math.floor(dialect.maxParams / 2));
      for (let start = 0; start < claims.length; start += size) {
        const chunk = claims.slice(start, start + size);
        const params = chunk.flatMap((c): SqlValue[] => [c.id, claimToken(c)]);
        const changed = await db.run(claimsSql(dialect, chunk.length, 'DELETE FROM work', 1), params);
        if (changed < chunk.length) {
          // The lost one is still queued under another claim (or gone: then name the first).
          const ids = chunk.map((c) => c.id);
          const [held] = await db.all(
            `SELECT id FROM work WHERE ${dialect.inIntegers('id', '$1')} ORDER BY id LIMIT 1`,
            [JSON.stringify(ids)],
          );
          throw new ClaimLostError(held ? Number(held.id) : ids[0]!);
        }
      }
    },

    async reschedule(claim, runAt, payload, waitingFor) {
      const params: SqlValue[] = [claim.id, claimToken(claim), ms(runAt), waitingFor ?? null];
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
      if (changed === 0) throw new ClaimLostError(claim.id);
      touched();
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
      const released = await db.run(
        `UPDATE work SET claimed_by = NULL, claim_expires = NULL, available_at = $3
         WHERE claimed_by >= $1 AND claimed_by < $2`,
        [...claimsOf(engineId), now],
      );
      if (released > 0) touched();
      return released;
    },

    async renewClaims(claims, expires, renewBefore = Number.MAX_SAFE_INTEGER) {
      let renewed = 0;
      const size = Math.min(500, Math.floor((dialect.maxParams - 1) / 2));
      for (let start = 0; start < claims.length; start += size) {
        const chunk = claims.slice(start, start + size);
        const params: SqlValue[] = [
          ms(expires),
          ms(renewBefore),
          ...chunk.flatMap((c): SqlValue[] => [c.id, claimToken(c)]),
        ];
        renewed += await db.run(
          claimsSql(
            dialect,
            chunk.length,
            'UPDATE work SET claim_expires = $1, available_at = $1',
            3,
            'claim_expires < $2 AND ',
          ),
          params,
        );
      }
      return renewed;
    },

    async countForStack(stackId) {
      // Observation items come back forever: they are no operation's.
      const [row] = await db.all("SELECT COUNT(*) AS n FROM work WHERE stack_id = $1 AND kind <> 'observe'", [
        stackId,
      ]);
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
      const woken = await db.run(
        `UPDATE work SET
           run_at = CASE WHEN claimed_by IS NULL AND run_at > $3 THEN $3 ELSE run_at END,
           available_at = CASE WHEN claimed_by IS NULL AND available_at > $3 THEN $3 ELSE available_at END,
           woken_at = CASE WHEN claimed_by IS NOT NULL AND (woken_at IS NULL OR woken_at > $3) THEN $3 ELSE woken_at END
         WHERE traversal_id = $1 AND node = $2`,
        [traversalId, node, now],
      );
      if (woken > 0) touched();
      return woken;
    },

    async wakeWaiting(key, now) {
      // As wake(): due now if unclaimed; remembered in woken_at if claimed (its worker's next
      // reschedule honours it). The key stays until that reschedule, so a second event is not lost.
      const woken = await db.run(
        `UPDATE work SET
           run_at = CASE WHEN claimed_by IS NULL AND run_at > $2 THEN $2 ELSE run_at END,
           available_at = CASE WHEN claimed_by IS NULL AND available_at > $2 THEN $2 ELSE available_at END,
           woken_at = CASE WHEN claimed_by IS NOT NULL AND (woken_at IS NULL OR woken_at > $2) THEN $2 ELSE woken_at END
         WHERE waiting_for = $1`,
        [key, now],
      );
      if (woken > 0) touched();
      return woken;
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
  const rows = await driver.transaction(
    (db) =>
      db.all(
        `UPDATE work SET claimed_by = CAST($1 AS TEXT) || '#' || CAST(attempts + 1 AS TEXT), claim_expires = $4, available_at = $4, attempts = attempts + 1, woken_at = NULL
       WHERE id IN (
         SELECT id FROM work WHERE available_at <= $2 ORDER BY available_at, id LIMIT $3${driver.dialect.claimLock}
       )
       RETURNING *`,
        [engineId, now, limit, expires],
      ),
    { isolation: 'read committed' },
  );
  return rows.map((r) => WORK.decode(r)).sort((a, b) => a.runAt - b.runAt || a.id - b.id);
}

export async function nextWorkTime(driver: SqlDriver): Promise<number | undefined> {
  const [row] = await driver.query('SELECT MIN(available_at) AS next FROM work');
  return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
}

/** The token a claim was made with (an item never claimed has none, and matches nothing). */
function claimToken(claim: Claim): string {
  return claim.claimedBy ?? '';
}

/**
 * The range of claim tokens of one engine: `<engine id>#<attempt>` sorts between `<engine id>#`
 * and `<engine id>$`, so the index on claimed_by finds them with one range scan.
 */
function claimsOf(engineId: string): [string, string] {
  return [`${engineId}#`, `${engineId}$`];
}

/** `head` (a DELETE or an UPDATE of work) where (id, claimed_by) is one of `rows` pairs from `$first` on. */
function claimsSql(dialect: Dialect, rows: number, head: string, first: number, also = ''): string {
  return memoSql(`work claims ${dialect.name}:${head}*${rows}@${first}:${also}`, () => {
    const pairs = Array.from(
      { length: rows },
      (_, r) => `(${dialect.bigintParam(`$${first + 2 * r}`)}, $${first + 2 * r + 1})`,
    );
    return `${head} WHERE ${also}(id, claimed_by) IN (VALUES ${pairs.join(', ')})`;
  });
}

/** A time as the BIGINT columns hold it: whole ms, never earlier than asked (jittered delays are fractional). */
function ms(time: number): number {
  return Math.ceil(time);
}
