import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import {
  type Row,
  type SqlDriver,
  type SqlExecutor,
  type SqlValue,
  SqlStore,
} from '../../src/store/sql/index.js';
import { SqliteDriver } from '../../src/store/sqlite/index.js';
import { point, resource, stack, traversal, work } from './fixtures.js';

/** A driver that remembers every statement the store runs, to check their query plans. */
class RecordingDriver implements SqlDriver {
  readonly statements = new Set<string>();
  constructor(readonly inner: SqliteDriver) {}
  get dialect() {
    return this.inner.dialect;
  }
  transaction<T>(fn: (db: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inner.transaction((db) =>
      fn({
        all: (sql, params) => (this.statements.add(sql), db.all(sql, params)),
        run: (sql, params) => (this.statements.add(sql), db.run(sql, params)),
      }),
    );
  }
  query(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
    this.statements.add(sql);
    return this.inner.query(sql, params);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A migrated in-memory store whose driver records every statement, closed after `fn`. */
async function withRecordingStore(
  fn: (driver: RecordingDriver, store: SqlStore) => Promise<void>,
): Promise<void> {
  const driver = new RecordingDriver(new SqliteDriver(':memory:'));
  const store = new SqlStore(driver);
  try {
    await store.migrate();
    await fn(driver, store);
  } finally {
    await store.close();
  }
}

/** Every access path of the engine's per-node work, exercised once. */
async function exercise(store: Store): Promise<void> {
  const s = stack({ name: 'web' });
  const t = traversal(s.id, { remaining: 2 });
  await store.tx(async (tx) => {
    await tx.stacks.insert({ ...s, traversalId: t.id });
    await tx.traversals.insert(t);
    const [a, b] = await tx.resources.insert([resource(s.id, 'a'), resource(s.id, 'b')]);
    await tx.sync.insert([
      point(t.id, s.id, 'u:1', { dependents: ['u:2'] }),
      point(t.id, s.id, 'u:2', { waiting: 1 }),
    ]);
    await tx.work.enqueue([work(t.id, s.id, 'u:1'), work(t.id, s.id, 'u:2')]);
    await tx.stacks.get(s.id);
    await tx.stacks.findByName(s.projectId, 'web');
    await tx.stacks.list({ projectId: s.projectId });
    await tx.stacks.list({ parentId: s.id });
    await tx.stacks.children(s.id);
    await tx.stacks.progress(s.id);
    await tx.stacks.activity(s.id, 3);
    await tx.stacks.update(s.id, t.id, { reason: 'r' });
    await tx.resources.get(a!.id);
    await tx.resources.getMany([a!.id, b!.id]);
    await tx.resources.listActive(s.id);
    await tx.resources.listAll(s.id);
    await tx.resources.findByName(s.id, 'a');
    await tx.resources.listStatesByName(s.id, ['a', 'b']);
    await tx.resources.listUnsettled(s.id);
    await tx.resources.countCurrent(s.id);
    await tx.resources.countCurrentPart(s.id, 'a');
    await tx.resources.listPage(s.id, { limit: 5 });
    await tx.resources.listPage(s.id, {
      type: 'x',
      status: 'CREATE_FAILED',
      nameContains: 'a',
      marker: 'a',
      limit: 5,
    });
    await tx.resources.listNested(s.id, 5);
    await tx.resources.update(a!.id, 0, null, { engineId: 'e' });
    await tx.resources.setTemplate([a!.id, b!.id], 'tpl');
    await tx.resources.updateMany([
      { id: a!.id, expectedKey: 1, expectedEngine: 'e', changes: { engineId: null } },
      { id: b!.id, expectedKey: 0, expectedEngine: null, changes: { engineId: null } },
    ]);
    await tx.resources.removeMany([{ id: b!.id, expectedKey: 9, expectedEngine: null }]);
    await tx.events.lines(s.id, 0);
    await tx.sync.get(t.id, 'u:1');
    await tx.sync.report(t.id, [{ node: 'u:2', from: 'u:1', data: { x: 1 } }]);
    await tx.sync.report(t.id, [{ node: 'u:2', from: 'u:1', data: { x: 1 } }]);
    await tx.sync.getMany(t.id, ['u:1', 'u:2']);
    await tx.sync.addDependent(t.id, 'u:1', 'c:1');
    await tx.sync.markDone(t.id, ['u:1']);
    await tx.sync.markDone(t.id, ['u:1', 'u:2']);
    await tx.traversals.finishNodes(t.id, 1);
    await tx.traversals.get(t.id);
    await tx.work.wake(t.id, 'u:1', 5);
    await tx.work.wakeWaiting(`stack:${s.id}`, 5);
    await tx.work.countForStack(s.id);
    await tx.work.completeMany([]);
    await tx.resources.purge('nope');
    await tx.resources.purge('nope', true);
    await tx.work.listForTraversal(t.id);
    await tx.events.append([
      {
        uuid: 'e',
        stackId: s.id,
        resourceName: 'a',
        resourceType: 'x',
        physicalId: null,
        action: 'CREATE',
        status: 'COMPLETE',
        reason: '',
        createdAt: s.createdAt,
      },
    ]);
    await tx.events.list(s.id, { resourceName: 'a', afterId: 0, limit: 5 });
    await tx.events.latestId(s.id);
    await tx.resources.delete([b!.id]);
  });
  const [item] = await store.claimWork('e', 10, 5, 1000);
  await store.nextWorkTime();
  await store.tx((tx) => tx.work.reschedule(item!, 20));
  const [again] = await store.claimWork('e', 20, 5, 1000);
  await store.tx((tx) => tx.work.reschedule(again!, 30, null, `stack:${s.id}`));
  await store.tx((tx) => tx.work.renewClaims([again!], 40));
  const [last, other] = await store.claimWork('e', 1030, 5, 1000);
  await store.tx(async (tx) => {
    await tx.work.completeMany([other!]);
    await tx.work.complete(last!);
    await tx.work.deleteForTraversal(t.id);
    await tx.sync.deleteTraversal(t.id);
    await tx.traversals.delete(t.id);
    await tx.templates.get('tpl');
    await tx.templates.digests('tpl');
    await tx.templates.existing(['tpl', 'other']);
    await tx.templates.delete('tpl');
  });
}

export function queryPlanTests(): void {
  describe('query plans', () => {
    it('every statement finds its rows through an index (no table scans; no sorting before a LIMIT)', async () => {
      await withRecordingStore(async (driver, store) => {
        driver.statements.clear();
        await exercise(store);
        const problems: string[] = [];
        for (const sql of driver.statements) {
          if (/^\s*(INSERT INTO \w+ \([^)]*\) VALUES|PRAGMA)/.test(sql) && !/SELECT/.test(sql)) continue;
          const count = Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
          const plan = await driver.inner.query(`EXPLAIN QUERY PLAN ${sql}`, Array(count).fill(null));
          for (const step of plan.map((r) => String(r.detail))) {
            const scan = /^SCAN (\w+)/.exec(step);
            // json_each and the VALUES table `w` of a multi-row update are the statement's input.
            const input =
              scan && (scan[1] === 'json_each' || (scan[1] === 'w' && /^WITH w /.test(sql.trim())));
            // A progress query's stack tree (a CTE found through stacks_by_root) and its one-row
            // aggregates are read whole: they are the statement's own small tables.
            const derived = scan && new RegExp(`(?:\\) |FROM tree )${scan[1]}\\b`).test(sql);
            const fullScan = scan && !input && !derived && !/CONSTANT ROW/.test(step);
            // Sorting a LIMITed query reads every match first (findByName's matches are one name's).
            // (Grouping a derived table that is itself LIMITed groups only its rows: a count's chunk.)
            const chunk = /TEMP B-TREE FOR GROUP BY/.test(step) && /LIMIT \S+\) \w+\s+GROUP BY/.test(sql);
            const sort = /TEMP B-TREE/.test(step) && /LIMIT/.test(sql) && !/FROM stacks/.test(sql) && !chunk;
            if (fullScan || sort) problems.push(`${step}\n    in: ${sql.replace(/\s+/g, ' ')}`);
          }
        }
        assert.deepEqual(problems, []);
        assert.ok(driver.statements.size > 30);
      });
    });

    it("a progress poll reads no sync point: a traversal's counts are in its row", async () => {
      await withRecordingStore(async (driver, store) => {
        const s = stack();
        const t = traversal(s.id, { remaining: 3 });
        await store.tx(async (tx) => {
          await tx.stacks.insert({ ...s, traversalId: t.id });
          await tx.traversals.insert(t);
        });
        driver.statements.clear();
        await store.tx((tx) => tx.stacks.progress(s.id));
        const [sql] = driver.statements;
        assert.equal(driver.statements.size, 1);
        const plan = await driver.inner.query(`EXPLAIN QUERY PLAN ${sql}`, [null]);
        const steps = plan.map((r) => String(r.detail));
        assert.ok(!steps.some((step) => /sync_points/.test(step)), steps.join('\n'));
        assert.ok(
          steps.some((step) => /SEARCH v USING INDEX sqlite_autoindex_traversals/.test(step)),
          steps.join('\n'),
        );
        // Rows of resources only through the partial indexes of running and failed rows, or of an
        // ended nested stack (counted from its index alone).
        for (const step of steps.filter((x) => /\br\b/.test(x) && /resources|SEARCH r /.test(x)))
          assert.match(step, /USING (COVERING )?INDEX resources_(running|failed|by_stack\w*) /);
      });
    });

    it("an update's unsettled rows and a finish's purge are found through the partial index, not the stack's rows", async () => {
      await withRecordingStore(async (driver, store) => {
        driver.statements.clear();
        await store.tx(async (tx) => {
          await tx.resources.listUnsettled('s');
          await tx.resources.purge('s');
        });
        assert.equal(driver.statements.size, 2);
        for (const sql of driver.statements) {
          const plan = await driver.inner.query(`EXPLAIN QUERY PLAN ${sql}`, ['s']);
          assert.match(String(plan[0]?.detail), /USING INDEX resources_unsettled/, sql);
        }
      });
    });

    it("an update's rows read by name are looked up by name, not read through the stack's index in id order", async () => {
      await withRecordingStore(async (driver, store) => {
        driver.statements.clear();
        await store.tx((tx) => tx.resources.listStatesByName('s', ['a']));
        const [sql] = driver.statements;
        const plan = await driver.inner.query(`EXPLAIN QUERY PLAN ${sql}`, ['s', '["a"]']);
        assert.match(
          String(plan[0]?.detail),
          /USING INDEX resources_by_stack_name \(stack_id=\? AND name=\?\)/,
        );
      });
    });

    it('the monitoring counts read indexes only: no table row is read, whatever the size', async () => {
      await withRecordingStore(async (driver, store) => {
        driver.statements.clear();
        await store.tx(async (tx) => {
          await tx.stacks.countByStatus();
          await tx.work.stats(0);
        });
        const steps: string[] = [];
        for (const sql of driver.statements) {
          const count = Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
          const plan = await driver.inner.query(`EXPLAIN QUERY PLAN ${sql}`, Array(count).fill(null));
          steps.push(...plan.map((r) => String(r.detail)));
        }
        assert.equal(driver.statements.size, 3);
        for (const step of steps) assert.match(step, /USING (COVERING )?INDEX (stacks_by_status|work_)/);
        // The claimed count reads rows, but only the claimed ones (through their index).
        assert.deepEqual(
          steps.filter((s) => !/COVERING/.test(s)),
          ['SEARCH work USING INDEX work_claimed_by (claimed_by>?)'],
        );
      });
    });
  });
}
