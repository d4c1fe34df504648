import { addUpCounts, countInParts, type ResourceListing, type ResourceRepository } from '../contract.js';
import { yieldIfSliceSpent } from '../../util/loop-slice.js';
import { Conditions } from './conditions.js';
import type { Dialect, Row, SqlExecutor } from './driver.js';
import { RESOURCES } from './tables.js';

// What the console reads of a big stack: counts and pages, computed by the database, so that a
// 100,000-resource stack is never sent whole (nor decoded whole) to show a page of it.

const LISTING = RESOURCES.omit('properties', 'attributes', 'data', 'progress');
const LISTING_COLUMNS = LISTING.columnNames.map((c) => `r.${c}`).join(', ');
const LIVE = (t: string) => `NOT (${t}.action = 'DELETE' AND ${t}.status = 'COMPLETE')`;

/**
 * The row `r` is its name's current one: not replaced by a live row (while a replacement is made,
 * the new row carries the name), and not the replacement of a live row that is no longer replaced
 * (a rollback took the original back; its obsolete replacement is going). Each test is a lookup by
 * primary key, which no planner estimate can turn into a scan of the stack per row.
 */
const CURRENT = `NOT (r.replaced_by IS NOT NULL AND EXISTS (SELECT 1 FROM resources n
      WHERE n.id = r.replaced_by AND ${LIVE('n')}))
    AND NOT (r.replaces IS NOT NULL AND EXISTS (SELECT 1 FROM resources p
      WHERE p.id = r.replaces AND p.replaced_by IS NULL AND ${LIVE('p')}))`;

/** Rows counted per statement: about 10 ms of SQLite's time each. */
const CHUNK = 5000;

export function resourcePagesRepository(
  db: SqlExecutor,
  dialect: Dialect,
): Pick<ResourceRepository, 'countCurrent' | 'countCurrentPart' | 'listPage' | 'listNested'> {
  const part: ResourceRepository['countCurrentPart'] = async (stackId, after) => {
    const counts = (rows: Row[]) =>
      rows.map((r) => ({
        type: r.type as string,
        action: r.action as string,
        status: r.status as string,
        count: Number(r.n),
      }));
    if (dialect.name === 'postgres') {
      // An asynchronous driver: one statement, whatever the size.
      const rows = await db.all(
        `SELECT r.type, r.action, r.status, COUNT(*) AS n FROM resources r
         WHERE r.stack_id = $1 AND r.name > $2 AND ${LIVE('r')} AND ${CURRENT}
         GROUP BY r.type, r.action, r.status`,
        [stackId, after],
      );
      return { counts: addUpCounts(counts(rows)) };
    }
    // SQLite's statements block the event loop (100,000 rows at once are a 200 ms stall): CHUNK
    // names of the (stack_id, name) index, their groups with the last name (as the database
    // orders names), where the next part starts.
    await yieldIfSliceSpent();
    const rows = await db.all(
      `SELECT c.type, c.action, c.status, COUNT(*) AS n, MAX(MAX(c.name)) OVER () AS last
       FROM (SELECT r.type, r.action, r.status, r.name FROM resources r
         WHERE r.stack_id = $1 AND r.name > $2 AND ${LIVE('r')} AND ${CURRENT}
         ORDER BY r.name LIMIT ${CHUNK}) c
       GROUP BY c.type, c.action, c.status`,
      [stackId, after],
    );
    const read = rows.reduce((n, r) => n + Number(r.n), 0);
    return {
      counts: addUpCounts(counts(rows)),
      ...(read === CHUNK ? { next: rows[0]!.last as string } : {}),
    };
  };

  return {
    countCurrentPart: part,

    countCurrent: (stackId) => countInParts((after) => part(stackId, after)),

    async listPage(stackId, query) {
      // $1 the stack, $2 the names after which to read, and on SQLite $3 the last name to read.
      const sqlite = dialect.name === 'sqlite';
      const where = new Conditions();
      where.param(stackId);
      where.param(query.marker ?? '');
      if (sqlite) where.param('');
      where.add(`r.stack_id = $1 AND r.name > $2${sqlite ? ' AND r.name <= $3' : ''}`);
      where.add(LIVE('r'));
      if (query.type !== undefined) where.add(`r.type = ${where.param(query.type)}`);
      if (query.status !== undefined) {
        const split = /^([A-Z]+)_(IN_PROGRESS|COMPLETE|FAILED)$/.exec(query.status);
        where.add(
          split
            ? `r.action = ${where.param(split[1]!)} AND r.status = ${where.param(split[2]!)}`
            : `r.status = ${where.param(query.status)}`,
        );
      }
      if (query.nameContains) {
        // As the stack list's name_contains: the database folds the name and the text alike.
        const text = `%${query.nameContains.replace(/[%_\\]/g, '\\$&')}%`;
        where.add(`LOWER(r.name) LIKE LOWER(${where.param(text)}) ESCAPE '\\'`);
      }
      where.add(CURRENT);
      const limit = where.param(query.limit);
      // Name order is the (stack_id, name) index's: a page reads its rows and the ones it skips.
      const sql = `SELECT ${LISTING_COLUMNS} FROM resources r ${where.clause()} ORDER BY r.name LIMIT ${limit}`;
      const params = where.params;
      if (!sqlite) return (await db.all(sql, params)).map((r) => LISTING.decode(r));
      // SQLite: a rare status or name may skip the whole stack, so the names are read CHUNK at a
      // time (the last name of the next CHUNK, from the index alone), the loop free between them.
      const out: ResourceListing[] = [];
      for (;;) {
        await yieldIfSliceSpent();
        const [end] = await db.all(
          `SELECT MAX(c.name) AS last FROM (SELECT name FROM resources
             WHERE stack_id = $1 AND name > $2 ORDER BY name LIMIT ${CHUNK}) c`,
          [stackId, params[1]!],
        );
        const last = end?.last as string | null | undefined;
        if (last === null || last === undefined) return out;
        params[2] = last;
        params[params.length - 1] = query.limit - out.length;
        for (const r of await db.all(sql, params)) out.push(LISTING.decode(r));
        if (out.length >= query.limit) return out;
        params[1] = last;
      }
    },

    async listNested(stackId, limit) {
      // The stack's children (stacks_by_parent), each with the resource it implements.
      const rows = await db.all(
        `SELECT r.name, r.action, r.status, c.id AS nested_id, c.name AS nested_name
         FROM stacks c JOIN resources r
           ON r.stack_id = c.parent_id AND r.name = c.parent_resource AND r.physical_id = c.id
         WHERE c.parent_id = $1 AND c.deleted_at IS NULL AND ${LIVE('r')}
         ORDER BY r.name, c.id LIMIT $2`,
        [stackId, limit],
      );
      const [total] = await db.all(
        'SELECT COUNT(*) AS n FROM stacks WHERE parent_id = $1 AND deleted_at IS NULL',
        [stackId],
      );
      return {
        nested: rows.map((r) => ({
          name: r.name as string,
          action: r.action as string,
          status: r.status as string,
          nestedId: r.nested_id as string,
          nestedName: r.nested_name as string,
        })),
        total: Number(total?.n ?? 0),
      };
    },
  };
}
