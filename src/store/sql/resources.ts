import type { LockedWrite, ResourceRecord, Tx } from '../contract.js';
import type { Dialect, SqlExecutor, SqlValue } from './driver.js';
import {
  batchInsertEncoded,
  type ColumnSpec,
  encodeValue,
  memoSql,
  normalizeTime,
  rowsPerStatement,
} from './columns.js';
import { RESOURCES, UNSETTLED } from './tables.js';
import { yieldIfSliceSpent } from '../../util/loop-slice.js';
import { resourcePagesRepository } from './resource-pages.js';

const NEW_RESOURCE = RESOURCES.omit('id');
/** The fields of ResourceHead and ResourceState (store/contract.ts): what planning and comparing read. */
const HEAD_FIELDS = [
  'id',
  'name',
  'type',
  'action',
  'status',
  'physicalId',
  'requires',
  'replacedBy',
  'engineId',
  'atomicKey',
  'templateId',
] as const;
const HEAD = RESOURCES.pick(...HEAD_FIELDS);
const HEAD_COLUMNS = HEAD.columnNames.join(', ');
const STATE = RESOURCES.pick(
  ...HEAD_FIELDS,
  'uuid',
  'createRetries',
  'unhealthy',
  'properties',
  'attributes',
  'data',
);
const STATE_COLUMNS = STATE.columnNames.join(', ');
const LISTING = RESOURCES.omit('properties', 'attributes', 'data', 'progress');
const LISTING_COLUMNS = LISTING.columnNames.join(', ');
/** A locked write always bumps the key itself; the id is the row's identity. */
const SKIP_ON_UPDATE: ReadonlySet<string> = new Set(['id', 'atomicKey']);
const DELETE_COMPLETE = "action = 'DELETE' AND status = 'COMPLETE'";

export function resourcesRepository(db: SqlExecutor, dialect: Dialect): Tx['resources'] {
  const idIn = dialect.inIntegers('id', '$1');

  return {
    // The console's counts and pages: in a file of their own.
    ...resourcePagesRepository(db, dialect),

    async insert(rows) {
      if (rows.length === 0) return [];
      const returned = await batchInsertEncoded(
        db,
        dialect,
        'resources',
        NEW_RESOURCE.columnNames,
        rows,
        (row) => NEW_RESOURCE.encode(row),
        'id, uuid',
      );
      // Ids are assigned in VALUES order and statements run in input order, so ascending ids are
      // input order (RETURNING itself promises no order on either backend). The rows are the
      // caller's (no decoding 10,000 JSON documents back), with timestamps as reads return them.
      const ids = returned.map((r) => ({ id: Number(r.id), uuid: r.uuid }));
      // Usually in order already: then no sort (200,000 of them take a while).
      if (ids.some((r, i) => i > 0 && r.id < ids[i - 1]!.id)) ids.sort((a, b) => a.id - b.id);
      const out: ResourceRecord[] = [];
      for (let i = 0; i < rows.length; i++) {
        if (i % 1024 === 0) await yieldIfSliceSpent();
        const row = rows[i]!;
        const { id, uuid } = ids[i]!;
        if (uuid !== row.uuid) throw new Error('resources.insert: returned ids out of input order');
        // `id` before the spread: `{ ...row, id }` (a key the source lacks, after a spread) gives
        // every object a hidden class of its own in V8, 600 bytes each and megamorphic reads.
        const record: ResourceRecord = {
          id,
          ...row,
          createdAt: normalizeTime(row.createdAt)!,
          updatedAt: normalizeTime(row.updatedAt),
        };
        // A row given as a copy of a stored one (its `id` and all) gets its own.
        record.id = id;
        out.push(record);
      }
      return out;
    },

    async get(id) {
      const [row] = await db.all('SELECT * FROM resources WHERE id = $1', [id]);
      return row && RESOURCES.decode(row);
    },

    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await db.all(`SELECT * FROM resources WHERE ${idIn}`, [JSON.stringify(ids)]);
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

    async listListings(stackId) {
      const rows = await db.all(
        `SELECT ${LISTING_COLUMNS} FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId],
      );
      return rows.map((r) => LISTING.decode(r));
    },

    async listHeads(stackId) {
      const rows = await db.all(
        `SELECT ${HEAD_COLUMNS} FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId],
      );
      return rows.map((r) => HEAD.decode(r));
    },

    async listStates(stackId) {
      const rows = await db.all(
        `SELECT ${STATE_COLUMNS} FROM resources WHERE stack_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId],
      );
      return rows.map((r) => STATE.decode(r));
    },

    async listStatesByName(stackId, names) {
      if (names.length === 0) return [];
      // `+id`: with a plain `id`, SQLite reads the stack's rows in id order through the index on
      // stack_id (a scan of 100,000 rows for one name) instead of looking the names up.
      const rows = await db.all(
        `SELECT ${STATE_COLUMNS} FROM resources
         WHERE stack_id = $1 AND ${dialect.inStrings('name', '$2')} AND NOT (${DELETE_COMPLETE}) ORDER BY +id`,
        [stackId, JSON.stringify([...new Set(names)])],
      );
      return rows.map((r) => STATE.decode(r));
    },

    async listUnsettled(stackId) {
      const rows = await db.all(
        `SELECT ${STATE_COLUMNS} FROM resources
         WHERE stack_id = $1 AND ${UNSETTLED} AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId],
      );
      return rows.map((r) => STATE.decode(r));
    },

    async findByName(stackId, name) {
      const rows = await db.all(
        `SELECT * FROM resources WHERE stack_id = $1 AND name = $2 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [stackId, name],
      );
      return rows.map((r) => RESOURCES.decode(r));
    },

    async findByPhysicalId(physicalId) {
      const rows = await db.all(
        `SELECT * FROM resources WHERE physical_id = $1 AND NOT (${DELETE_COMPLETE}) ORDER BY id`,
        [physicalId],
      );
      return rows.map((r) => RESOURCES.decode(r));
    },

    async managersOf(physicalIds) {
      if (physicalIds.length === 0) return [];
      const rows = await db.all(
        `SELECT r.physical_id, s.id AS stack_id, s.name, s.project_id FROM resources r
         JOIN stacks s ON s.id = r.stack_id
         WHERE ${dialect.inStrings('r.physical_id', '$1')} AND NOT (r.action = 'DELETE' AND r.status = 'COMPLETE')
           AND s.deleted_at IS NULL
         ORDER BY r.physical_id, s.id`,
        [JSON.stringify([...new Set(physicalIds)])],
      );
      return rows.map((r) => ({
        physicalId: r.physical_id as string,
        stackId: r.stack_id as string,
        stackName: r.name as string,
        projectId: r.project_id as string,
      }));
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

    async updateMany(writes) {
      // One statement per set of fields written (and per chunk): the rows' new values come in
      // as a VALUES table joined on id, with each row's own compare-and-swap.
      const groups = new Map<string, LockedWrite[]>();
      for (const write of writes) {
        const fields = Object.keys(write.changes).filter(
          (f) => (write.changes as Record<string, unknown>)[f] !== undefined && !SKIP_ON_UPDATE.has(f),
        );
        const key = fields.join(',');
        const group = groups.get(key);
        if (group) group.push(write);
        else groups.set(key, [write]);
      }
      const written = new Set<number>();
      for (const [key, group] of groups) {
        const columns = key === '' ? [] : key.split(',').map((f) => RESOURCES.columnOf(f));
        const size = rowsPerStatement(dialect, columns.length + 3);
        for (let start = 0; start < group.length; start += size) {
          const chunk = group.slice(start, start + size);
          const params: SqlValue[] = [];
          for (const w of chunk) {
            params.push(w.id, w.expectedKey, w.expectedEngine);
            const changes = w.changes as Record<string, unknown>;
            for (const c of columns) params.push(encodeValue(c.kind, changes[c.field]));
          }
          const rows = await db.all(updateManySql(dialect, columns, chunk.length), params);
          for (const row of rows) written.add(Number(row.id));
        }
      }
      return written;
    },

    async removeMany(writes) {
      const removed = new Set<number>();
      const size = rowsPerStatement(dialect, 3);
      for (let start = 0; start < writes.length; start += size) {
        const chunk = writes.slice(start, start + size);
        const params: SqlValue[] = [];
        for (const w of chunk) params.push(w.id, w.expectedKey, w.expectedEngine);
        for (const row of await db.all(removeManySql(dialect, chunk.length), params))
          removed.add(Number(row.id));
      }
      return removed;
    },

    async setTemplate(ids, templateId) {
      if (ids.length === 0) return 0;
      return db.run(`UPDATE resources SET template_id = $2 WHERE ${idIn}`, [JSON.stringify(ids), templateId]);
    },

    async purge(stackId, all = false) {
      // Deleted rows are unsettled ones: the partial index finds them without a scan of the stack.
      return db.run(
        `DELETE FROM resources WHERE stack_id = $1${all ? '' : ` AND ${UNSETTLED} AND ${DELETE_COMPLETE}`}`,
        [stackId],
      );
    },

    async delete(ids) {
      if (ids.length === 0) return;
      await db.run(`DELETE FROM resources WHERE ${idIn}`, [JSON.stringify(ids)]);
    },
  };
}

/**
 * `DELETE FROM resources WHERE id IN (<the rows of w whose compare-and-swap holds>)`: the join
 * finds each row by its key (SQLite's DELETE has no FROM), then the delete by id.
 */
function removeManySql(dialect: Dialect, rows: number): string {
  return memoSql(`resources.removeMany ${dialect.name}*${rows}`, () => {
    const tuples: string[] = [];
    for (let r = 0, n = 1; r < rows; r++, n += 3)
      tuples.push(`(${dialect.bigintParam(`$${n}`)}, ${dialect.bigintParam(`$${n + 1}`)}, $${n + 2})`);
    return `WITH w (w_id, w_key, w_engine) AS (VALUES ${tuples.join(', ')})
    DELETE FROM resources WHERE id IN (
      SELECT r.id FROM w JOIN resources r ON r.id = w.w_id AND r.atomic_key = w.w_key
        AND ${dialect.nullSafeEquals('r.engine_id', 'w.w_engine')})
    RETURNING id`;
  });
}

/**
 * `WITH w(...) AS (VALUES ...) UPDATE resources SET ... FROM w WHERE <id and compare-and-swap>`,
 * portable to SQLite (3.33+) and PostgreSQL (ids and keys typed for it: see Dialect.bigintParam).
 */
function updateManySql(dialect: Dialect, columns: readonly ColumnSpec[], rows: number): string {
  const key = `resources.updateMany ${dialect.name}:${columns.map((c) => c.column).join(',')}*${rows}`;
  return memoSql(key, () => {
    const names = ['w_id', 'w_key', 'w_engine', ...columns.map((c) => `w_${c.column}`)];
    // A VALUES table's columns have no type PostgreSQL can infer: integers are typed by hand.
    const integer = [true, true, false, ...columns.map((c) => c.kind !== 'text' && c.kind !== 'json')];
    const tuples: string[] = [];
    let n = 1;
    for (let r = 0; r < rows; r++) {
      const values = names.map((_, i) => (integer[i] ? dialect.bigintParam(`$${n++}`) : `$${n++}`));
      tuples.push(`(${values.join(', ')})`);
    }
    const set = [
      ...columns.map((c) => `${c.column} = w.w_${c.column}`),
      'atomic_key = resources.atomic_key + 1',
    ];
    return `WITH w (${names.join(', ')}) AS (VALUES ${tuples.join(', ')})
    UPDATE resources SET ${set.join(', ')} FROM w
    WHERE resources.id = w.w_id AND resources.atomic_key = w.w_key
      AND ${dialect.nullSafeEquals('resources.engine_id', 'w.w_engine')}
    RETURNING resources.id`;
  });
}
