import type { StackQuery, StackSortKey } from '../contract.js';
import { Conditions } from './conditions.js';
import type { SqlValue } from './driver.js';

const SORT_COLUMNS: Record<StackSortKey, string> = {
  name: 'name',
  status: 'status',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/**
 * The WHERE and ORDER BY of a stack list page, as SQL both backends run. Sorting is on the
 * column, then id, so pages are stable; the marker is compared as that same pair.
 */
export function stackQuerySql(query: StackQuery): { sql: string; params: SqlValue[]; filter: string } {
  const where = new Conditions();
  // Tags are a JSON array of strings: a tag is present when its JSON form is in the text.
  const hasTag = (tag: string) =>
    `tags LIKE ${where.param(`%${JSON.stringify(tag).replace(/[%_\\]/g, '\\$&')}%`)} ESCAPE '\\'`;

  if (query.projectId !== undefined) where.add(`project_id = ${where.param(query.projectId)}`);
  if (query.name !== undefined) where.add(`name = ${where.param(query.name)}`);
  if (query.parentId === null) where.add('parent_id IS NULL');
  else if (query.parentId !== undefined) where.add(`parent_id = ${where.param(query.parentId)}`);
  if (query.convergence !== undefined) where.add(`convergence = ${query.convergence ? 1 : 0}`);
  if (!query.includeDeleted) where.add('deleted_at IS NULL');
  where.anyOf('id', query.ids);
  where.anyOf('name', query.names);
  if (query.nameContains) {
    // The database's LOWER on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's only
    // outside ASCII; each backend then folds the name and the text alike.
    const text = `%${query.nameContains.replace(/[%_\\]/g, '\\$&')}%`;
    where.add(`LOWER(name) LIKE LOWER(${where.param(text)}) ESCAPE '\\'`);
  }
  where.anyOf('action', query.actions);
  where.statuses(query.statuses);
  for (const tag of query.tags ?? []) where.add(hasTag(tag));
  if (query.tagsAny?.length) where.add(`(${query.tagsAny.map(hasTag).join(' OR ')})`);
  if (query.notTags?.length) where.add(`NOT (${query.notTags.map(hasTag).join(' AND ')})`);
  for (const tag of query.notTagsAny ?? []) where.add(`NOT ${hasTag(tag)}`);

  const column = SORT_COLUMNS[query.sortKey ?? 'createdAt'];
  const desc = (query.sortDir ?? 'desc') === 'desc';
  // NULLs (a never-updated stack's updated_at) sort as the smallest value on both backends.
  const key = column === 'updated_at' ? 'COALESCE(updated_at, 0)' : column;
  if (query.marker !== undefined) {
    const marker = where.param(query.marker);
    where.after(key, `(SELECT ${key} FROM stacks WHERE id = ${marker})`, marker, desc ? '<' : '>');
  }
  const dir = desc ? 'DESC' : 'ASC';
  const filter = where.clause();
  let sql = `${filter} ORDER BY ${key} ${dir}, id ${dir}`;
  if (query.limit !== undefined) sql += ` LIMIT ${where.param(query.limit)}`;
  return { sql, params: where.params, filter };
}
