import type { SyncPointRecord, Tx } from '../contract.js';
import { type Json, setOwn } from '../../util/json.js';
import type { Dialect, SqlExecutor, SqlValue } from './driver.js';
import { yieldIfSliceSpent } from '../../util/loop-slice.js';
import { batchInsertEncoded, encodeValue, insertSql, memoSql } from './columns.js';
import { TRAVERSALS } from './tables.js';

// `nodes` (the traversal's size, for progress: done = nodes - remaining) starts as `remaining`.
const INSERT_TRAVERSAL = insertSql('traversals', [...TRAVERSALS.columnNames, 'nodes'], 1);
const POINT_COLUMNS = [
  'traversal_id',
  'node',
  'stack_id',
  'root_stack_id',
  'waiting',
  'dependents',
  'direct',
  'done',
];
const INPUT_COLUMNS = ['traversal_id', 'node', 'from_node', 'root_stack_id', 'data'];

export function traversalsRepository(db: SqlExecutor): Tx['traversals'] {
  return {
    async insert(traversal) {
      await db.run(INSERT_TRAVERSAL, [...TRAVERSALS.encode(traversal), traversal.remaining]);
    },

    async get(id) {
      const [row] = await db.all('SELECT * FROM traversals WHERE id = $1', [id]);
      return row && TRAVERSALS.decode(row);
    },

    async finishNodes(id, count) {
      const [row] = await db.all(
        // Nodes added (a negative count) grow the traversal's size too.
        `UPDATE traversals SET remaining = remaining - $2,
           nodes = nodes + (CASE WHEN $2 < 0 THEN 0 - $2 ELSE 0 END) WHERE id = $1 RETURNING remaining`,
        [id, count],
      );
      // Callers count a node done after reading its sync point in the same transaction, and the
      // points go with the traversal: a missing row is a bug, not a race to absorb.
      if (!row) throw new Error(`traversals.finishNodes: traversal ${id} does not exist`);
      return Number(row.remaining);
    },

    async delete(id) {
      await db.run('DELETE FROM traversals WHERE id = $1', [id]);
    },
  };
}

export function syncRepository(db: SqlExecutor, dialect: Dialect): Tx['sync'] {
  // One node (the single path's case) is a plain key lookup; many are a JSON list bound to $2.
  const nodesIn = dialect.inStrings('node', '$2');
  const nodeIs = (nodes: readonly string[]) => (nodes.length === 1 ? 'node = $2' : nodesIn);
  const nodeParam = (nodes: readonly string[]) => (nodes.length === 1 ? nodes[0]! : JSON.stringify(nodes));

  /** Predecessors' data of the given points, by point: O(their in-degrees). */
  async function inputsOf(
    traversalId: string,
    nodes: readonly string[],
  ): Promise<Map<string, Record<string, Json>>> {
    const rows = await db.all(
      `SELECT node, from_node, data FROM sync_inputs WHERE traversal_id = $1 AND ${nodeIs(nodes)}`,
      [traversalId, nodeParam(nodes)],
    );
    const byNode = new Map<string, Record<string, Json>>();
    for (const row of rows) {
      const node = row.node as string;
      let inputs = byNode.get(node);
      if (!inputs) byNode.set(node, (inputs = {}));
      setOwn(
        inputs,
        row.from_node as string,
        row.data === null ? null : (JSON.parse(row.data as string) as Json),
      );
    }
    return byNode;
  }

  async function points(
    traversalId: string,
    nodes: readonly string[],
    options: { inputs?: boolean } = {},
  ): Promise<SyncPointRecord[]> {
    if (nodes.length === 0) return [];
    // The columns the record needs: not the keys the caller gave, nor the root it doesn't use.
    const rows = await db.all(
      `SELECT node, stack_id, waiting, dependents, direct, done FROM sync_points WHERE traversal_id = $1 AND ${nodeIs(nodes)}`,
      [traversalId, nodeParam(nodes)],
    );
    if (rows.length === 0) return [];
    const inputs =
      options.inputs === false
        ? new Map<string, Record<string, Json>>()
        : await inputsOf(
            traversalId,
            rows.map((r) => r.node as string),
          );
    return rows.map((row) => ({
      traversalId,
      node: row.node as string,
      stackId: row.stack_id as string,
      waiting: Number(row.waiting),
      dependents: JSON.parse(row.dependents as string) as string[],
      direct: Number(row.direct),
      inputs: inputs.get(row.node as string) ?? {},
      done: Number(row.done) !== 0,
    }));
  }

  /** The root stack of each traversal: sync rows carry it, but SyncPointRecord doesn't. */
  async function rootsOf(points: readonly SyncPointRecord[]): Promise<Map<string, string>> {
    const roots = new Map<string, string>();
    for (const { traversalId } of points) {
      if (roots.has(traversalId)) continue;
      const [row] = await db.all('SELECT root_stack_id FROM traversals WHERE id = $1', [traversalId]);
      if (!row) throw new Error(`sync.insert: traversal ${traversalId} does not exist (insert it first)`);
      roots.set(traversalId, row.root_stack_id as string);
    }
    return roots;
  }

  return {
    async insert(points) {
      if (points.length === 0) return;
      const roots = await rootsOf(points);
      // Encoded a statement's worth at a time: a traversal start inserts up to a million points.
      await batchInsertEncoded(db, dialect, 'sync_points', POINT_COLUMNS, points, (p): SqlValue[] => [
        p.traversalId,
        p.node,
        p.stackId,
        roots.get(p.traversalId)!,
        p.waiting,
        JSON.stringify(p.dependents),
        p.direct ?? 0,
        p.done ? 1 : 0,
      ]);
      const inputs: [SyncPointRecord, string, Json][] = [];
      for (let i = 0; i < points.length; i++) {
        if (i % 1024 === 0) await yieldIfSliceSpent();
        const p = points[i]!;
        for (const [from, data] of Object.entries(p.inputs)) inputs.push([p, from, data]);
      }
      await batchInsertEncoded(db, dialect, 'sync_inputs', INPUT_COLUMNS, inputs, ([p, from, data]) => [
        p.traversalId,
        p.node,
        from,
        roots.get(p.traversalId)!,
        encodeValue('json', data),
      ]);
    },

    async get(traversalId, node) {
      return (await points(traversalId, [node]))[0];
    },

    getMany: points,

    async report(traversalId, sent) {
      // An input row is keyed by its sender, so a repeated report inserts nothing: each point's
      // counter goes down once per predecessor however often a unit of work runs. Two multi-row
      // statements per chunk: insert the inputs, then take what arrived off the counters.
      const arrived = new Map<string, number>();
      // One report per sender and point (the first): within one statement the databases would
      // pick among duplicates differently.
      const seen = new Set<string>();
      const reports = sent.filter(({ node, from }) => {
        const key = JSON.stringify([node, from]);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      // A counted report stores nothing: the countdown below finds its point if there is one.
      for (const { node, counted } of reports) if (counted) arrived.set(node, (arrived.get(node) ?? 0) + 1);
      const stored = reports.filter((r) => !r.counted);
      const size = Math.min(500, Math.floor((dialect.maxParams - 1) / 3));
      for (let start = 0; start < stored.length; start += size) {
        const chunk = stored.slice(start, start + size);
        const params: SqlValue[] = [traversalId];
        for (const { node, from, data } of chunk) params.push(node, from, encodeValue('json', data));
        for (const row of await db.all(reportInputsSql(chunk.length), params)) {
          const node = row.node as string;
          arrived.set(node, (arrived.get(node) ?? 0) + 1);
        }
      }
      const ready: string[] = [];
      const counts = [...arrived];
      const countSize = Math.min(500, Math.floor((dialect.maxParams - 1) / 2));
      for (let start = 0; start < counts.length; start += countSize) {
        const chunk = counts.slice(start, start + countSize);
        const params: SqlValue[] = [traversalId];
        for (const [node, count] of chunk) params.push(node, count);
        for (const row of await db.all(countDownSql(dialect, chunk.length), params)) {
          if (Number(row.waiting) <= 0 && Number(row.done) === 0) ready.push(row.node as string);
        }
      }
      return ready;
    },

    async markDone(traversalId, nodes) {
      if (nodes.length === 0) return [];
      const rows = await db.all(
        `UPDATE sync_points SET done = 1 WHERE traversal_id = $1 AND ${nodeIs(nodes)} AND done = 0
         RETURNING node, dependents, direct`,
        [traversalId, nodeParam(nodes)],
      );
      return rows.map((row) => ({
        node: row.node as string,
        dependents: JSON.parse(row.dependents as string) as string[],
        direct: Number(row.direct),
      }));
    },

    async addDependent(traversalId, node, dependent) {
      // Compare-and-swap on the list itself: under PostgreSQL's READ COMMITTED a plain
      // read-modify-write could lose a concurrent addition. Adding one already there is a no-op.
      while (true) {
        const [row] = await db.all(
          'SELECT dependents FROM sync_points WHERE traversal_id = $1 AND node = $2',
          [traversalId, node],
        );
        if (!row) return;
        const before = row.dependents as string;
        const dependents = JSON.parse(before) as string[];
        if (dependents.includes(dependent)) return;
        dependents.push(dependent);
        const changed = await db.run(
          'UPDATE sync_points SET dependents = $4 WHERE traversal_id = $1 AND node = $2 AND dependents = $3',
          [traversalId, node, before, JSON.stringify(dependents)],
        );
        if (changed > 0) return;
      }
    },

    async deleteTraversal(traversalId) {
      // In bounded statements: one DELETE of 200,000 rows holds the loop (SQLite runs statements
      // on it) for a third of a second; the executor lets the loop turn between statements.
      for (const [table, key] of [
        ['sync_inputs', 'node, from_node'],
        ['sync_points', 'node'],
      ] as const) {
        const sql =
          `DELETE FROM ${table} WHERE traversal_id = $1 AND (${key}) IN ` +
          `(SELECT ${key} FROM ${table} WHERE traversal_id = $1 LIMIT ${DELETE_CHUNK})`;
        while ((await db.run(sql, [traversalId])) === DELETE_CHUNK);
      }
    },
  };
}

/** Most rows one statement of deleteTraversal removes. */
const DELETE_CHUNK = 5000;

/** Inserts the inputs of `rows` reports ($1 the traversal; node, sender, data each); returns the nodes that got one. */
function reportInputsSql(rows: number): string {
  return memoSql(`sync.report inputs*${rows}`, () => {
    const tuples = Array.from({ length: rows }, (_, r) => `($${2 + 3 * r}, $${3 + 3 * r}, $${4 + 3 * r})`);
    // WHERE true: SQLite needs it to read ON CONFLICT as the upsert clause, not a join constraint.
    return `WITH w (w_node, w_from, w_data) AS (VALUES ${tuples.join(', ')})
      INSERT INTO sync_inputs (traversal_id, node, from_node, root_stack_id, data)
      SELECT p.traversal_id, p.node, w.w_from, p.root_stack_id, w.w_data
      FROM w JOIN sync_points p ON p.traversal_id = $1 AND p.node = w.w_node WHERE true
      ON CONFLICT (traversal_id, node, from_node) DO NOTHING
      RETURNING node`;
  });
}

/** Takes `rows` (node, count) pairs off the points' counters ($1 the traversal). */
function countDownSql(dialect: Dialect, rows: number): string {
  return memoSql(`sync.report ${dialect.name}:count*${rows}`, () => {
    const tuples = Array.from(
      { length: rows },
      (_, r) => `($${2 + 2 * r}, ${dialect.bigintParam(`$${3 + 2 * r}`)})`,
    );
    return `WITH w (w_node, w_count) AS (VALUES ${tuples.join(', ')})
      UPDATE sync_points SET waiting = waiting - w.w_count FROM w
      WHERE sync_points.traversal_id = $1 AND sync_points.node = w.w_node
      RETURNING sync_points.node, sync_points.waiting, sync_points.done`;
  });
}
