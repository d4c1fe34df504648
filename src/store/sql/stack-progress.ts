import type { StackActivity, StackProgressCounts } from '../contract.js';
import type { SqlExecutor } from './driver.js';

// The stack tree of an operation: the stack ($1) and, when it is a root, the nested stacks that
// its current operation started (a stack's updated_at is when its latest traversal began, so
// nested stacks the operation left alone drop out). Found by index: stacks by root (migration 20).
const TREE = `w AS (
    SELECT id, status, COALESCE(updated_at, created_at) AS started FROM stacks WHERE id = $1
  ),
  tree AS (
    SELECT s.id, s.traversal_id, s.status, s.parent_resource, 1 AS nested, w.status AS root_status
      FROM stacks s JOIN w ON s.root_stack_id = w.id AND s.id <> w.id AND s.updated_at >= w.started
    UNION ALL
    SELECT s.id, s.traversal_id, s.status, s.parent_resource, 0 AS nested, s.status AS root_status
      FROM stacks s WHERE s.id = $1
  )`;

// Each part an index range scan per stack of the tree (sync points by traversal; resources by
// stack, the running and failed ones through partial indexes that hold only them): a progress
// display never reads a settled row, however big the tree. CROSS JOIN keeps SQLite going from
// the tree to the rows. A nested stack whose traversal has ended lost its graph: its rows count
// as done while the operation runs, so the total does not drop.
const PROGRESS = `WITH ${TREE}
  SELECT
    (SELECT COUNT(*) FROM w) AS found,
    g.nodes, g.done, g.ready, e.ended, f.failed
  FROM
    (SELECT COUNT(*) AS nodes,
        COALESCE(SUM(CASE WHEN p.done = 1 THEN 1 ELSE 0 END), 0) AS done,
        COALESCE(SUM(CASE WHEN p.done = 0 AND p.waiting = 0 THEN 1 ELSE 0 END), 0) AS ready
      FROM tree t CROSS JOIN sync_points p WHERE p.traversal_id = t.traversal_id) g,
    (SELECT COUNT(*) AS ended FROM tree t CROSS JOIN resources r
      WHERE r.stack_id = t.id AND t.nested = 1 AND t.status <> 'IN_PROGRESS' AND t.root_status = 'IN_PROGRESS') e,
    (SELECT COUNT(*) AS failed FROM tree t CROSS JOIN resources r
      WHERE r.stack_id = t.id AND r.status = 'FAILED') f`;

/** A nested stack's resource is named after the resource that made its stack: `group.3`. */
const NAMED = (status: string, order: string) => `WITH ${TREE}
  SELECT CASE WHEN t.nested = 1 THEN COALESCE(t.parent_resource, '?') || '.' || r.name ELSE r.name END AS name,
      COALESCE(r.updated_at, r.created_at) AS since
    FROM tree t CROSS JOIN resources r
    WHERE r.stack_id = t.id AND r.status = '${status}'
    ORDER BY ${order}
    LIMIT $2`;

const RUNNING = NAMED('IN_PROGRESS', 'since, r.id');
const FAILED = NAMED('FAILED', 'since, r.id');

export async function stackProgress(db: SqlExecutor, id: string): Promise<StackProgressCounts | undefined> {
  const [row] = await db.all(PROGRESS, [id]);
  if (!row || Number(row.found) === 0) return undefined;
  const ended = Number(row.ended);
  const nodes = Number(row.nodes);
  const done = Number(row.done);
  const ready = Number(row.ready);
  return {
    total: nodes + ended,
    done: done + ended,
    inProgress: ready,
    waiting: nodes - done - ready,
    failed: Number(row.failed),
  };
}

export async function stackActivity(db: SqlExecutor, id: string, limit: number): Promise<StackActivity> {
  const running = await db.all(RUNNING, [id, limit]);
  const failed = await db.all(FAILED, [id, limit]);
  return {
    running: running.map((r) => ({ name: r.name as string, since: Number(r.since) })),
    failed: failed.map((r) => r.name as string),
  };
}
