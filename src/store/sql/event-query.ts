import type { EventQuery } from '../contract.js';
import { Conditions } from './conditions.js';
import type { Dialect, SqlValue } from './driver.js';

/**
 * The WHERE, ORDER BY and LIMIT of an event list page, as SQL both backends run. The time order
 * is the id order, which the index on (stack_id, id) serves; the type order sorts by type, then
 * id, so pages are stable. The marker is compared as that same key.
 */
export function eventQuerySql(query: EventQuery, dialect: Dialect): { sql: string; params: SqlValue[] } {
  const where = new Conditions();
  // One stack is an equality (the index gives its events in order); several, a list bound once.
  const stacks =
    query.stackIds.length === 1
      ? `stack_id = ${where.param(query.stackIds[0]!)}`
      : dialect.inStrings('stack_id', where.param(JSON.stringify(query.stackIds)));
  where.add(stacks);
  where.anyOf('resource_name', query.resourceNames);
  where.anyOf('resource_type', query.resourceTypes);
  where.anyOf('action', query.actions);
  where.statuses(query.statuses);
  if (query.uuid !== undefined) where.add(`uuid = ${where.param(query.uuid)}`);

  const desc = query.sortDir === 'desc';
  const op = desc ? '<' : '>';
  const byType = query.sortKey === 'type';
  if (query.marker !== undefined) {
    // The marker is found through the (stack_id, id) index, newest first: a wait's poll names the
    // last event it saw, so this reads only the events it is about to get, not the stack's history.
    const newest = query.stackIds.length === 1 ? ' ORDER BY id DESC LIMIT 1' : '';
    const marker = `(SELECT id FROM events WHERE ${stacks} AND uuid = ${where.param(query.marker)}${newest})`;
    if (!byType) where.add(`id ${op} ${marker}`);
    else where.after('resource_type', `(SELECT resource_type FROM events WHERE id = ${marker})`, marker, op);
  }
  const dir = desc ? 'DESC' : 'ASC';
  let sql = `${where.clause()} ORDER BY ${byType ? `resource_type ${dir}, ` : ''}id ${dir}`;
  if (query.limit !== undefined) sql += ` LIMIT ${where.param(query.limit)}`;
  return { sql, params: where.params };
}
