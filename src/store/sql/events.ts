import type { Tx } from '../contract.js';
import type { Dialect, SqlExecutor, SqlValue } from './driver.js';
import { batchInsert, insertSql } from './columns.js';
import { eventQuerySql } from './event-query.js';
import { EVENTS, SERVICES } from './tables.js';

const NEW_EVENT = EVENTS.omit('id');
const EVENT_LINE = EVENTS.pick('id', 'resourceName', 'action', 'status', 'reason', 'createdAt');
const EVENT_COLUMNS = [...NEW_EVENT.columnNames, 'root_stack_id'];
const UPSERT_SERVICE = `${insertSql('services', SERVICES.columnNames, 1)}
  ON CONFLICT (engine_id) DO UPDATE SET
    host = excluded.host, pid = excluded.pid, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`;

export function eventsRepository(db: SqlExecutor, dialect: Dialect): Tx['events'] {
  /** Events rows carry their root stack (EventRecord doesn't): one lookup per distinct stack. */
  async function rootOf(stackId: string): Promise<string> {
    const [row] = await db.all('SELECT root_stack_id FROM stacks WHERE id = $1', [stackId]);
    // An event of a stack the store doesn't know (already purged) files under the stack itself.
    return row ? (row.root_stack_id as string) : stackId;
  }

  return {
    async append(events) {
      if (events.length === 0) return;
      const roots = new Map<string, string>();
      const rows: SqlValue[][] = [];
      for (const event of events) {
        let root = roots.get(event.stackId);
        if (root === undefined) roots.set(event.stackId, (root = await rootOf(event.stackId)));
        rows.push([...NEW_EVENT.encode(event), root]);
      }
      await batchInsert(db, dialect, 'events', EVENT_COLUMNS, rows);
    },

    async list(stackId, options = {}) {
      const params: SqlValue[] = [stackId, options.afterId ?? 0];
      let sql = 'SELECT * FROM events WHERE stack_id = $1 AND id > $2';
      if (options.resourceName !== undefined) {
        params.push(options.resourceName);
        sql += ` AND resource_name = $${params.length}`;
      }
      sql += ' ORDER BY id';
      if (options.limit !== undefined) {
        params.push(options.limit);
        sql += ` LIMIT $${params.length}`;
      }
      return (await db.all(sql, params)).map((r) => EVENTS.decode(r));
    },

    async query(query) {
      if (query.stackIds.length === 0) return [];
      const { sql, params } = eventQuerySql(query, dialect);
      return (await db.all(`SELECT * FROM events ${sql}`, params)).map((r) => EVENTS.decode(r));
    },

    async lines(stackId, afterId) {
      const rows = await db.all(
        `SELECT ${EVENT_LINE.columnNames.join(', ')} FROM events WHERE stack_id = $1 AND id > $2 ORDER BY id`,
        [stackId, afterId],
      );
      return rows.map((r) => EVENT_LINE.decode(r));
    },

    async latestId(stackId) {
      const [row] = await db.all('SELECT MAX(id) AS id FROM events WHERE stack_id = $1', [stackId]);
      return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
    },
  };
}

export function servicesRepository(db: SqlExecutor): Tx['services'] {
  return {
    async heartbeat(service) {
      await db.run(UPSERT_SERVICE, SERVICES.encode(service));
    },

    async list() {
      return (await db.all('SELECT * FROM services ORDER BY engine_id')).map((r) => SERVICES.decode(r));
    },

    async get(engineId) {
      const [row] = await db.all('SELECT * FROM services WHERE engine_id = $1', [engineId]);
      return row && SERVICES.decode(row);
    },

    async remove(engineId) {
      await db.run('DELETE FROM services WHERE engine_id = $1', [engineId]);
    },
  };
}
