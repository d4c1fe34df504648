import type { StackAction, StackFilter, StackRecord, Status, TemplateRecord, Tx } from '../contract.js';
import type { Dialect, Row, SqlExecutor, SqlValue } from './driver.js';
import { insertSql } from './columns.js';
import { stackActivity, stackProgress } from './stack-progress.js';
import { stackQuerySql } from './stack-query.js';
import { STACKS, TEMPLATES } from './tables.js';
import {
  DIGEST_CUTS,
  distinctHashes,
  piecedIfLong,
  readPieces,
  releasePieces,
  retainPieces,
} from './template-text.js';

const INSERT_STACK = insertSql('stacks', STACKS.columnNames, 1);
// A retried insert (a transaction run again, an operation retried) finds its row and adds nothing.
const INSERT_TEMPLATE = `${insertSql(
  'templates',
  [...TEMPLATES.columnNames, 'root_stack_id', 'text_chunks', 'digests', 'digest_chunks'],
  1,
)} ON CONFLICT (id) DO NOTHING`;
const TEMPLATE_COLUMNS = TEMPLATES.columnNames.join(', ');
const SKIP_ID: ReadonlySet<string> = new Set(['id']);

export function stacksRepository(db: SqlExecutor): Tx['stacks'] {
  const many = async (sql: string, params: SqlValue[]) =>
    (await db.all(sql, params)).map((r) => STACKS.decode(r));

  return {
    async insert(stack) {
      await db.run(INSERT_STACK, STACKS.encode(stack));
    },

    async get(id) {
      const [row] = await db.all('SELECT * FROM stacks WHERE id = $1', [id]);
      return row && STACKS.decode(row);
    },

    async findByName(projectId, name) {
      // Names are unique among live stacks of a project by convention; the newest wins if not.
      const [row] = await db.all(
        `SELECT * FROM stacks WHERE project_id = $1 AND name = $2 AND deleted_at IS NULL
         ORDER BY created_at DESC, id LIMIT 1`,
        [projectId, name],
      );
      return row && STACKS.decode(row);
    },

    async list(filter: StackFilter) {
      const where: string[] = [];
      const params: SqlValue[] = [];
      const equals = (column: string, value: string) => {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      };
      if (filter.projectId !== undefined) equals('project_id', filter.projectId);
      if (filter.name !== undefined) equals('name', filter.name);
      if (filter.parentId === null) where.push('parent_id IS NULL');
      else if (filter.parentId !== undefined) equals('parent_id', filter.parentId);
      if (filter.convergence !== undefined) where.push(`convergence = ${filter.convergence ? 1 : 0}`);
      if (!filter.includeDeleted) where.push('deleted_at IS NULL');
      const condition = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      return many(`SELECT * FROM stacks ${condition} ORDER BY created_at, id`, params);
    },

    async query(query) {
      const { sql, params } = stackQuerySql(query);
      return many(`SELECT * FROM stacks ${sql}`, params);
    },

    async count(query) {
      const { filter, params } = stackQuerySql({ ...query, limit: undefined, marker: undefined });
      const [row] = await db.all(`SELECT COUNT(*) AS n FROM stacks ${filter}`, params);
      return Number(row!.n);
    },

    async update(id, expectedTraversal, changes: Partial<StackRecord>) {
      const guard = expectedTraversal === null ? '' : ' AND traversal_id = $2';
      const where: SqlValue[] = expectedTraversal === null ? [id] : [id, expectedTraversal];
      const set = STACKS.setClause(changes, where.length + 1, SKIP_ID);
      if (set.sql === '') {
        return (await db.all(`SELECT 1 AS found FROM stacks WHERE id = $1${guard}`, where)).length > 0;
      }
      return (
        (await db.run(`UPDATE stacks SET ${set.sql} WHERE id = $1${guard}`, [...where, ...set.params])) > 0
      );
    },

    async children(parentId) {
      return many(
        'SELECT * FROM stacks WHERE parent_id = $1 AND deleted_at IS NULL ORDER BY created_at, id',
        [parentId],
      );
    },

    progress: (id) => stackProgress(db, id),

    activity: (id, limit) => stackActivity(db, id, limit),

    async countByStatus() {
      // An index on (deleted_at, action, status) answers it without reading the table (migration 10).
      const rows = await db.all(
        `SELECT action, status, COUNT(*) AS n FROM stacks WHERE deleted_at IS NULL
         GROUP BY action, status ORDER BY action, status`,
      );
      return rows.map((r) => ({
        action: r.action as StackAction,
        status: r.status as Status,
        count: Number(r.n),
      }));
    },
  };
}

export function templatesRepository(db: SqlExecutor, dialect: Dialect): Tx['templates'] {
  /** A row's text, or its digests: in pieces (template-text.ts), or in the row (older rows). */
  const text = (row: Row, list: string, inRow: string) =>
    typeof row[list] === 'string'
      ? readPieces(db, dialect, (row.root_stack_id as string | null) ?? '', row[list])
      : (row[inRow] as string | null);

  return {
    async insert(template: TemplateRecord, rootStackId, digests) {
      const text = piecedIfLong(template.template);
      const digestPieces = piecedIfLong(digests, DIGEST_CUTS);
      const values = TEMPLATES.encode(text ? { ...template, template: '' } : template);
      const added = await db.run(INSERT_TEMPLATE, [
        ...values,
        rootStackId,
        text?.list ?? null,
        digestPieces ? null : (digests ?? null),
        digestPieces?.list ?? null,
      ]);
      if (added === 0 || (!text && !digestPieces)) return;
      await retainPieces(
        db,
        dialect,
        rootStackId,
        new Map([...(text?.pieces ?? []), ...(digestPieces?.pieces ?? [])]),
      );
    },

    async get(id) {
      // Not the digests: what binds the template never reads them.
      const [row] = await db.all(
        `SELECT ${TEMPLATE_COLUMNS}, root_stack_id, text_chunks FROM templates WHERE id = $1`,
        [id],
      );
      if (!row) return undefined;
      // A top-level stack's template has no facade: it reads back as it was written, without one.
      const { facade, ...record } = TEMPLATES.decode(row);
      const template = (await text(row, 'text_chunks', 'template')) ?? '';
      return facade ? { ...record, template, facade } : { ...record, template };
    },

    async digests(id) {
      const [row] = await db.all(
        'SELECT root_stack_id, digests, digest_chunks FROM templates WHERE id = $1',
        [id],
      );
      if (!row) return undefined;
      return (await text(row, 'digest_chunks', 'digests')) ?? undefined;
    },

    async existing(ids) {
      if (ids.length === 0) return new Set();
      const rows = await db.all(`SELECT id FROM templates WHERE ${dialect.inStrings('id', '$1')}`, [
        JSON.stringify(ids),
      ]);
      return new Set(rows.map((r) => r.id as string));
    },

    async delete(id) {
      const [row] = await db.all(
        'DELETE FROM templates WHERE id = $1 RETURNING root_stack_id, text_chunks, digest_chunks',
        [id],
      );
      if (!row) return;
      const hashes = distinctHashes(row.text_chunks as string | null, row.digest_chunks as string | null);
      await releasePieces(db, dialect, (row.root_stack_id as string | null) ?? '', hashes);
    },

    async footprint(rootStackId) {
      const [row] = await db.all(
        `SELECT COUNT(*) AS n, COALESCE(SUM(chars), 0) AS chars, COALESCE(SUM(LENGTH(body)), 0) AS bytes
         FROM template_chunks WHERE root_stack_id = $1`,
        [rootStackId],
      );
      return { pieces: Number(row!.n), chars: Number(row!.chars), bytes: Number(row!.bytes) };
    },
  };
}
