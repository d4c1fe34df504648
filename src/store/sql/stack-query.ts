import type { StackQuery, StackSortKey } from '../contract.js';
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
  const where: string[] = [];
  const params: SqlValue[] = [];
  const param = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  const anyOf = (column: string, values: readonly string[] | undefined) => {
    if (values === undefined) return;
    if (values.length === 0) where.push('1 = 0');
    else where.push(`${column} IN (${values.map((v) => param(v)).join(', ')})`);
  };
  // Tags are a JSON array of strings: a tag is present when its JSON form is in the text.
  const hasTag = (tag: string) =>
    `tags LIKE ${param(`%${JSON.stringify(tag).replace(/[%_\\]/g, '\\$&')}%`)} ESCAPE '\\'`;

  if (query.projectId !== undefined) where.push(`project_id = ${param(query.projectId)}`);
  if (query.name !== undefined) where.push(`name = ${param(query.name)}`);
  if (query.parentId === null) where.push('parent_id IS NULL');
  else if (query.parentId !== undefined) where.push(`parent_id = ${param(query.parentId)}`);
  if (!query.includeDeleted) where.push('deleted_at IS NULL');
  anyOf('id', query.ids);
  anyOf('name', query.names);
  anyOf('action', query.actions);
  if (query.statuses !== undefined) {
    const terms = query.statuses.map((s) => {
      const split = /^([A-Z]+)_(IN_PROGRESS|COMPLETE|FAILED)$/.exec(s);
      return split
        ? `(action = ${param(split[1]!)} AND status = ${param(split[2]!)})`
        : `status = ${param(s)}`;
    });
    where.push(terms.length === 0 ? '1 = 0' : `(${terms.join(' OR ')})`);
  }
  for (const tag of query.tags ?? []) where.push(hasTag(tag));
  if (query.tagsAny?.length) where.push(`(${query.tagsAny.map(hasTag).join(' OR ')})`);
  if (query.notTags?.length) where.push(`NOT (${query.notTags.map(hasTag).join(' AND ')})`);
  for (const tag of query.notTagsAny ?? []) where.push(`NOT ${hasTag(tag)}`);

  const column = SORT_COLUMNS[query.sortKey ?? 'createdAt'];
  const desc = (query.sortDir ?? 'desc') === 'desc';
  // NULLs (a never-updated stack's updated_at) sort as the smallest value on both backends.
  const key = column === 'updated_at' ? 'COALESCE(updated_at, 0)' : column;
  if (query.marker !== undefined) {
    const marker = param(query.marker);
    const markerKey = `(SELECT ${key} FROM stacks WHERE id = ${marker})`;
    const op = desc ? '<' : '>';
    where.push(`(${key} ${op} ${markerKey} OR (${key} = ${markerKey} AND id ${op} ${marker}))`);
  }
  const dir = desc ? 'DESC' : 'ASC';
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  let sql = `${filter} ORDER BY ${key} ${dir}, id ${dir}`;
  if (query.limit !== undefined) sql += ` LIMIT ${param(query.limit)}`;
  return { sql, params, filter };
}
