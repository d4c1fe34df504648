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

/** The kind of a node's unit of work (engine/core/nodes.ts CHECK_NODE: the store does not import the engine). */
const CHECK_NODE = 'check';

// Each part reads O(tree stacks + running + failed) rows, never a settled one, however big the
// tree: a traversal's size and what remains are in its row (done = nodes - remaining); what is
// ready or running is its queued units of work (a ready node has one until it is done, in the same
// transaction); the running and failed resources are in partial indexes that hold only them.
// CROSS JOIN keeps SQLite going from the tree to the rows. A nested stack whose traversal has
// ended lost its graph: its rows count as done while the operation runs, so the total does not drop.
const PROGRESS = `WITH ${TREE}
  SELECT
    (SELECT COUNT(*) FROM w) AS found,
    g.nodes, g.done, q.ready, e.ended, f.failed
  FROM
    (SELECT COALESCE(SUM(v.nodes), 0) AS nodes, COALESCE(SUM(v.nodes - v.remaining), 0) AS done
      FROM tree t CROSS JOIN traversals v WHERE v.id = t.traversal_id) g,
    (SELECT COUNT(*) AS ready FROM tree t CROSS JOIN work k
      WHERE k.traversal_id = t.traversal_id AND k.kind = '${CHECK_NODE}') q,
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
  // A unit of work counts until its node is done: never more than the nodes not done.
  const ready = Math.min(Number(row.ready), nodes - done);
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
