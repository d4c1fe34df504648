import type { ResourceRecord, Tx } from '../contract.js';
import type { Dialect, SqlExecutor } from './driver.js';
import { batchInsert, normalizeTime } from './columns.js';
import { RESOURCES } from './tables.js';

const NEW_RESOURCE = RESOURCES.omit('id');
/** A locked write always bumps the key itself; the id is the row's identity. */
const SKIP_ON_UPDATE: ReadonlySet<string> = new Set(['id', 'atomicKey']);
const DELETE_COMPLETE = "action = 'DELETE' AND status = 'COMPLETE'";

export function resourcesRepository(db: SqlExecutor, dialect: Dialect): Tx['resources'] {
  const idsIn = dialect.integersFromJson('$1');

  return {
    async insert(rows) {
      if (rows.length === 0) return [];
      const returned = await batchInsert(
        db,
        dialect,
        'resources',
        NEW_RESOURCE.columnNames,
        rows.map((row) => NEW_RESOURCE.encode(row)),
        'id, uuid',
      );
      // Ids are assigned in VALUES order and statements run in input order, so ascending ids are
      // input order (RETURNING itself promises no order on either backend). The rows are the
      // caller's (no decoding 10,000 JSON documents back), with timestamps as reads return them.
      const ids = returned.map((r) => ({ id: Number(r.id), uuid: r.uuid })).sort((a, b) => a.id - b.id);
      return rows.map((row, i): ResourceRecord => {
        const { id, uuid } = ids[i]!;
        if (uuid !== row.uuid) throw new Error('resources.insert: returned ids out of input order');
        return {
          ...row,
          id,
          createdAt: normalizeTime(row.createdAt)!,
          updatedAt: normalizeTime(row.updatedAt),
        };
      });
    },

    async get(id) {
      const [row] = await db.all('SELECT * FROM resources WHERE id = $1', [id]);
      return row && RESOURCES.decode(row);
    },

    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await db.all(`SELECT * FROM resources WHERE id IN ${idsIn}`, [JSON.stringify(ids)]);
      const byId = new Map(rows.map((r) => RESOURCES.decode(r)).map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async listActive(stackId) {
      const rows = await db.all(
        `SELECT * FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId],
      );
      return rows.map((r) => RESOURCES.decode(r));
    },

    async listAll(stackId) {
      const rows = await db.all('SELECT * FROM resources WHERE stack_id = $1 ORDER BY id', [stackId]);
      return rows.map((r) => RESOURCES.decode(r));
    },

    async update(id, expectedKey, expectedEngine, changes: Partial<ResourceRecord>) {
      const set = RESOURCES.setClause(changes, 4, SKIP_ON_UPDATE);
      const assignments =
        set.sql === '' ? 'atomic_key = atomic_key + 1' : `${set.sql}, atomic_key = atomic_key + 1`;
      const [row] = await db.all(
        `UPDATE resources SET ${assignments}
         WHERE id = $1 AND atomic_key = $2 AND ${dialect.nullSafeEquals('engine_id', '$3')}
         RETURNING *`,
        [id, expectedKey, expectedEngine, ...set.params],
      );
      return row && RESOURCES.decode(row);
    },

    async setTemplate(ids, templateId) {
      if (ids.length === 0) return 0;
      return db.run(`UPDATE resources SET template_id = $2 WHERE id IN ${idsIn}`, [
        JSON.stringify(ids),
        templateId,
      ]);
    },

    async delete(ids) {
      if (ids.length === 0) return;
      await db.run(`DELETE FROM resources WHERE id IN ${idsIn}`, [JSON.stringify(ids)]);
    },
  };
}
