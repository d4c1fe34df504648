import type { EventQuery } from '../contract.js';
import type { Dialect, SqlValue } from './driver.js';

/**
 * The WHERE, ORDER BY and LIMIT of an event list page, as SQL both backends run. The time order
 * is the id order, which the index on (stack_id, id) serves; the type order sorts by type, then
 * id, so pages are stable. The marker is compared as that same key.
 */
export function eventQuerySql(query: EventQuery, dialect: Dialect): { sql: string; params: SqlValue[] } {
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

  // One stack is an equality (the index gives its events in order); several, a list bound once.
  const stacks =
    query.stackIds.length === 1
      ? `stack_id = ${param(query.stackIds[0]!)}`
      : `stack_id IN ${dialect.stringsFromJson(param(JSON.stringify(query.stackIds)))}`;
  const where = [stacks];
  anyOf('resource_name', query.resourceNames);
  anyOf('resource_type', query.resourceTypes);
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
  if (query.uuid !== undefined) where.push(`uuid = ${param(query.uuid)}`);

  const desc = query.sortDir === 'desc';
  const op = desc ? '<' : '>';
  const byType = query.sortKey === 'type';
  if (query.marker !== undefined) {
    const marker = `(SELECT id FROM events WHERE ${stacks} AND uuid = ${param(query.marker)})`;
    if (!byType) where.push(`id ${op} ${marker}`);
    else {
      const type = `(SELECT resource_type FROM events WHERE id = ${marker})`;
      where.push(`(resource_type ${op} ${type} OR (resource_type = ${type} AND id ${op} ${marker}))`);
    }
  }
  const dir = desc ? 'DESC' : 'ASC';
  let sql = `WHERE ${where.join(' AND ')} ORDER BY ${byType ? `resource_type ${dir}, ` : ''}id ${dir}`;
  if (query.limit !== undefined) sql += ` LIMIT ${param(query.limit)}`;
  return { sql, params };
}
