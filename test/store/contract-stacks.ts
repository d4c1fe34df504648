import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StackFilter, StackRecord, Store } from '../../src/store/contract.js';
import { point, resource, stack, T0, template, traversal, withStore, work } from './fixtures.js';

const T1 = '2024-05-01T12:01:00.000Z';
const T2 = '2024-05-01T12:02:00.000Z';
const T3 = '2024-05-01T12:03:00.000Z';

export function stacksContract(open: () => Promise<Store>): void {
  describe('stacks', () => {
    it('round-trips every field', () =>
      withStore(open, async (store) => {
        const record = stack({
          parentId: 'p-1',
          parentResource: 'nested',
          rootId: 'root-1',
          templateId: 'tpl-2',
          prevTemplateId: 'tpl-1',
          convergence: false,
          timeoutMins: 60,
          disableRollback: true,
          tags: ['a', 'b,c'],
          updatedAt: '2024-05-01T12:30:00.123Z',
          deletedAt: '2024-05-02T00:00:00.000Z',
        });
        await store.tx((tx) => tx.stacks.insert(record));
        assert.deepEqual(await store.tx((tx) => tx.stacks.get(record.id)), record);
        assert.equal(await store.tx((tx) => tx.stacks.get('missing')), undefined);
      }));

    it('finds a live stack by project and name', () =>
      withStore(open, async (store) => {
        const live = stack({ name: 'web' });
        const deleted = stack({ name: 'web', deletedAt: '2024-05-01T13:00:00.000Z' });
        const other = stack({ name: 'web', projectId: 'project-b' });
        await store.tx(async (tx) => {
          for (const s of [deleted, live, other]) await tx.stacks.insert(s);
        });
        await store.tx(async (tx) => {
          assert.equal((await tx.stacks.findByName('project-a', 'web'))?.id, live.id);
          assert.equal((await tx.stacks.findByName('project-b', 'web'))?.id, other.id);
          assert.equal(await tx.stacks.findByName('project-a', 'db'), undefined);
        });
      }));

    it('lists by project, name and parent; deleted stacks only on request', () =>
      withStore(open, async (store) => {
        const a = stack({ name: 'a', createdAt: '2024-05-01T10:00:00.000Z' });
        const b = stack({ name: 'b', createdAt: '2024-05-01T11:00:00.000Z' });
        const child = stack({ name: 'b-child', parentId: b.id, parentResource: 'r', rootId: b.id });
        const gone = stack({ name: 'gone', deletedAt: '2024-05-01T13:00:00.000Z' });
        const elsewhere = stack({ name: 'x', projectId: 'project-b' });
        await store.tx(async (tx) => {
          for (const s of [child, gone, b, a, elsewhere]) await tx.stacks.insert(s);
        });
        const names = async (filter: StackFilter) =>
          (await store.tx((tx) => tx.stacks.list(filter))).map((s) => s.name);
        assert.deepEqual(await names({ projectId: 'project-a', parentId: null }), ['a', 'b']);
        assert.deepEqual(await names({ projectId: 'project-a' }), ['a', 'b', 'b-child']);
        assert.deepEqual(await names({ parentId: b.id }), ['b-child']);
        assert.deepEqual(await names({ name: 'gone' }), []);
        assert.deepEqual(await names({ name: 'gone', includeDeleted: true }), ['gone']);
        assert.deepEqual((await names({})).sort(), ['a', 'b', 'b-child', 'x']);
        assert.deepEqual(
          (await store.tx((tx) => tx.stacks.children(b.id))).map((s) => s.id),
          [child.id],
        );
      }));

    it('queries and counts names containing a text, ASCII case aside, wildcards taken literally', () =>
      withStore(open, async (store) => {
        const names = ['web-prod', 'Web-Staging', 'db', '100%_real', '100x_real', 'a\\b', 'other-web'];
        await store.tx(async (tx) => {
          for (const [i, name] of names.entries())
            await tx.stacks.insert(stack({ name, createdAt: `2024-05-01T10:0${i}:00.000Z` }));
          await tx.stacks.insert(stack({ name: 'web-elsewhere', projectId: 'project-b' }));
        });
        const found = (nameContains: string) =>
          store.tx(async (tx) => {
            const query = {
              projectId: 'project-a',
              nameContains,
              sortKey: 'name' as const,
              sortDir: 'asc' as const,
            };
            const listed = (await tx.stacks.query(query)).map((s) => s.name);
            assert.equal(await tx.stacks.count(query), listed.length);
            return listed.sort();
          });
        assert.deepEqual(await found('web'), ['Web-Staging', 'other-web', 'web-prod'].sort());
        assert.deepEqual(await found('WEB-P'), ['web-prod']);
        assert.deepEqual(await found('%_'), ['100%_real']);
        assert.deepEqual(await found('_'), ['100%_real', '100x_real']);
        assert.deepEqual(await found('\\'), ['a\\b']);
        assert.deepEqual(await found('nothing'), []);
        // A page of the matches (oldest first: no collation in the way), then the next after its marker.
        const first = await store.tx((tx) =>
          tx.stacks.query({
            projectId: 'project-a',
            nameContains: 'web',
            sortKey: 'createdAt',
            sortDir: 'asc',
            limit: 2,
          }),
        );
        assert.deepEqual(
          first.map((s) => s.name),
          ['web-prod', 'Web-Staging'],
        );
        const next = await store.tx((tx) =>
          tx.stacks.query({
            projectId: 'project-a',
            nameContains: 'web',
            sortKey: 'createdAt',
            sortDir: 'asc',
            marker: first[1]!.id,
          }),
        );
        assert.deepEqual(
          next.map((s) => s.name),
          ['other-web'],
        );
      }));

    it('lists, queries and counts by engine: convergence or legacy', () =>
      withStore(open, async (store) => {
        const modern = stack({ name: 'modern', createdAt: '2024-05-01T10:00:00.000Z' });
        const old = stack({ name: 'old', convergence: false, createdAt: '2024-05-01T11:00:00.000Z' });
        const oldChild = stack({ name: 'old-child', convergence: false, parentId: old.id, rootId: old.id });
        const oldGone = stack({
          name: 'old-gone',
          convergence: false,
          deletedAt: '2024-05-02T00:00:00.000Z',
        });
        await store.tx(async (tx) => {
          for (const s of [modern, old, oldChild, oldGone]) await tx.stacks.insert(s);
        });
        await store.tx(async (tx) => {
          const names = (list: { name: string }[]) => list.map((s) => s.name);
          assert.deepEqual(names(await tx.stacks.list({ parentId: null, convergence: false })), ['old']);
          assert.deepEqual(names(await tx.stacks.list({ convergence: false })), ['old', 'old-child']);
          assert.deepEqual(names(await tx.stacks.list({ convergence: true })), ['modern']);
          assert.deepEqual(names(await tx.stacks.query({ convergence: false, sortDir: 'asc' })), [
            'old',
            'old-child',
          ]);
          assert.equal(await tx.stacks.count({ parentId: null, convergence: true }), 1);
          assert.equal(await tx.stacks.count({ convergence: false, includeDeleted: true }), 3);
        });
      }));

    it('update is a compare-and-swap on the traversal', () =>
      withStore(open, async (store) => {
        const s = stack({ traversalId: 't-1' });
        await store.tx((tx) => tx.stacks.insert(s));
        await store.tx(async (tx) => {
          assert.equal(await tx.stacks.update(s.id, 't-0', { status: 'FAILED' }), false);
          assert.equal(await tx.stacks.update(s.id, 't-1', { traversalId: 't-2', action: 'UPDATE' }), true);
          assert.equal(await tx.stacks.update(s.id, 't-1', { traversalId: 't-3' }), false);
          assert.equal(await tx.stacks.update('missing', null, { status: 'FAILED' }), false);
        });
        let stored = await store.tx((tx) => tx.stacks.get(s.id));
        assert.equal(stored?.traversalId, 't-2');
        assert.equal(stored?.action, 'UPDATE');
        assert.equal(stored?.status, 'IN_PROGRESS');

        // null: no check; '' is a real value (a failed traversal), not "no check".
        assert.equal(
          await store.tx((tx) => tx.stacks.update(s.id, null, { traversalId: '', status: 'FAILED' })),
          true,
        );
        assert.equal(await store.tx((tx) => tx.stacks.update(s.id, 't-2', { status: 'COMPLETE' })), false);
        assert.equal(
          await store.tx((tx) => tx.stacks.update(s.id, '', { reason: 'why', timeoutMins: 5 })),
          true,
        );
        // No changes: reports whether the swap would have won. A whole record may be passed; the id stays.
        assert.equal(await store.tx((tx) => tx.stacks.update(s.id, '', {})), true);
        assert.equal(await store.tx((tx) => tx.stacks.update(s.id, 'x', {})), false);
        stored = await store.tx((tx) => tx.stacks.get(s.id));
        assert.ok(stored);
        assert.equal(
          await store.tx((tx) => tx.stacks.update(s.id, '', { ...stored, id: 'other', tags: ['t'] })),
          true,
        );
        assert.deepEqual(await store.tx((tx) => tx.stacks.get(s.id)), {
          ...stored,
          tags: ['t'],
        });
      }));
    it("progress counts the current traversal's nodes by state and the stack's failed resources", () =>
      withStore(open, async (store) => {
        const s = stack({ updatedAt: T1 });
        // Four nodes planned; a fifth (a replacement's cleanup) added while it runs.
        const current = traversal(s.id, { remaining: 4 });
        const old = traversal(s.id, { remaining: 2 });
        const other = stack();
        await store.tx(async (tx) => {
          await tx.stacks.insert({ ...s, traversalId: current.id });
          await tx.stacks.insert(other);
          await tx.traversals.insert(current);
          await tx.traversals.insert(old);
          await tx.sync.insert([
            point(current.id, s.id, 'u:1', { done: true }),
            point(current.id, s.id, 'u:2', { done: true }),
            point(current.id, s.id, 'u:3'),
            point(current.id, s.id, 'c:4', { waiting: 1 }),
            point(current.id, s.id, 'c:5', { waiting: 2 }),
            // A superseded traversal's points are not this operation's.
            point(old.id, s.id, 'u:1'),
            point(old.id, s.id, 'u:9', { done: true }),
          ]);
          // What the engine keeps beside the points: the counts in the traversal's row, a unit of
          // work per ready node (a signal's is not a node's).
          await tx.traversals.finishNodes(current.id, -1);
          await tx.traversals.finishNodes(current.id, 2);
          await tx.traversals.finishNodes(old.id, 1);
          await tx.work.enqueue([
            work(current.id, s.id, 'u:3'),
            work(current.id, s.id, 'u:3', { kind: 'signal' }),
            work(old.id, s.id, 'u:1'),
          ]);
          await tx.resources.insert([
            resource(s.id, 'a', { action: 'CREATE', status: 'COMPLETE' }),
            resource(s.id, 'b', { action: 'CREATE', status: 'IN_PROGRESS' }),
            resource(s.id, 'd', { action: 'CREATE', status: 'FAILED' }),
            resource(other.id, 'x', { action: 'CREATE', status: 'FAILED' }),
            resource(other.id, 'y', { action: 'DELETE', status: 'IN_PROGRESS' }),
          ]);
        });
        // Ready nodes (all inputs in, not done) are in progress, whatever their rows say.
        assert.deepEqual(await store.tx((tx) => tx.stacks.progress(s.id)), {
          total: 5,
          done: 2,
          inProgress: 1,
          waiting: 2,
          failed: 1,
        });
        // No traversal running (ended, or failed: the id is ''): nothing to count but failures.
        await store.tx((tx) => tx.stacks.update(s.id, null, { traversalId: '', status: 'FAILED' }));
        assert.deepEqual(await store.tx((tx) => tx.stacks.progress(s.id)), {
          total: 0,
          done: 0,
          inProgress: 0,
          waiting: 0,
          failed: 1,
        });
        assert.equal(await store.tx((tx) => tx.stacks.progress('missing')), undefined);
      }));

    it("a root's progress takes in the nested stacks its operation started; activity names their resources", () =>
      withStore(open, async (store) => {
        const root = stack({ updatedAt: T1 });
        const nested = (name: string, changes: Partial<StackRecord>) =>
          stack({ rootId: root.id, parentId: root.id, parentResource: name, ...changes });
        // Running: its graph counts. Ended: its graph is gone, its rows count as done.
        const running = nested('group', { updatedAt: T2, traversalId: 'run' });
        const ended = nested('done', { updatedAt: T2, traversalId: '', status: 'COMPLETE' });
        // Left alone by this operation (its latest traversal began before): not counted.
        const untouched = nested('old', { updatedAt: T0, traversalId: '', status: 'COMPLETE' });
        const grandchild = stack({
          rootId: root.id,
          parentId: running.id,
          parentResource: '0',
          updatedAt: T2,
        });
        const t = traversal(root.id, { remaining: 2 });
        const run = traversal(running.id, { id: 'run', rootStackId: root.id, remaining: 3 });
        const g = traversal(grandchild.id, { rootStackId: root.id, remaining: 1 });
        await store.tx(async (tx) => {
          for (const x of [{ ...root, traversalId: t.id }, running, ended, untouched])
            await tx.stacks.insert(x);
          await tx.stacks.insert({ ...grandchild, traversalId: g.id });
          for (const x of [t, run, g]) await tx.traversals.insert(x);
          await tx.sync.insert([
            point(t.id, root.id, 'u:1'),
            point(t.id, root.id, 'u:2', { done: true }),
            point(run.id, running.id, 'u:10'),
            point(run.id, running.id, 'u:11', { done: true }),
            point(run.id, running.id, 'u:12', { waiting: 1 }),
            point(g.id, grandchild.id, 'u:20'),
          ]);
          await tx.traversals.finishNodes(t.id, 1);
          await tx.traversals.finishNodes(run.id, 1);
          await tx.work.enqueue([
            work(t.id, root.id, 'u:1'),
            work(run.id, running.id, 'u:10'),
            work(g.id, grandchild.id, 'u:20'),
          ]);
          await tx.resources.insert([
            resource(root.id, 'group', { status: 'IN_PROGRESS', updatedAt: T1 }),
            resource(running.id, '0', { status: 'IN_PROGRESS', updatedAt: T3 }),
            resource(running.id, '1', { status: 'IN_PROGRESS', updatedAt: T2 }),
            resource(running.id, '2', { status: 'FAILED', updatedAt: T2 }),
            resource(ended.id, 'a', { status: 'COMPLETE' }),
            resource(ended.id, 'b', { status: 'COMPLETE' }),
            resource(untouched.id, 'x', { status: 'FAILED' }),
            resource(untouched.id, 'y', { status: 'IN_PROGRESS' }),
            resource(grandchild.id, 'leaf', { status: 'IN_PROGRESS', updatedAt: T3 }),
          ]);
        });
        assert.deepEqual(await store.tx((tx) => tx.stacks.progress(root.id)), {
          total: 2 + 3 + 1 + 2,
          done: 1 + 1 + 0 + 2,
          inProgress: 1 + 1 + 1,
          waiting: 1,
          failed: 1,
        });
        assert.deepEqual(await store.tx((tx) => tx.stacks.activity(root.id, 3)), {
          running: [
            { name: 'group', since: Date.parse(T1) },
            { name: 'group.1', since: Date.parse(T2) },
            { name: 'group.0', since: Date.parse(T3) },
          ],
          failed: ['group.2'],
        });
        assert.equal((await store.tx((tx) => tx.stacks.activity(root.id, 1))).running.length, 1);
        // A nested stack alone is its own tree.
        assert.deepEqual(await store.tx((tx) => tx.stacks.progress(running.id)), {
          total: 3,
          done: 1,
          inProgress: 1,
          waiting: 1,
          failed: 1,
        });
        // The root settled: ended nested stacks' rows no longer count.
        await store.tx((tx) => tx.stacks.update(root.id, null, { traversalId: '', status: 'COMPLETE' }));
        const settled = await store.tx((tx) => tx.stacks.progress(root.id));
        assert.equal(settled?.total, 3 + 1, 'only the graphs of the nested stacks still running');
      }));

    it('counts live stacks by action and status, nested ones included', () =>
      withStore(open, async (store) => {
        assert.deepEqual(await store.tx((tx) => tx.stacks.countByStatus()), []);
        const parent = stack({ action: 'CREATE', status: 'COMPLETE' });
        await store.tx(async (tx) => {
          for (const s of [
            parent,
            stack({ action: 'CREATE', status: 'COMPLETE', projectId: 'project-b' }),
            stack({ action: 'CREATE', status: 'COMPLETE', parentId: parent.id, rootId: parent.id }),
            stack({ action: 'UPDATE', status: 'IN_PROGRESS' }),
            stack({ action: 'CREATE', status: 'FAILED' }),
            stack({ action: 'DELETE', status: 'COMPLETE', deletedAt: '2024-05-01T13:00:00.000Z' }),
          ])
            await tx.stacks.insert(s);
        });
        assert.deepEqual(await store.tx((tx) => tx.stacks.countByStatus()), [
          { action: 'CREATE', status: 'COMPLETE', count: 3 },
          { action: 'CREATE', status: 'FAILED', count: 1 },
          { action: 'UPDATE', status: 'IN_PROGRESS', count: 1 },
        ]);
      }));
  });

  describe('templates', () => {
    it('round-trips files and environment, and deletes', () =>
      withStore(open, async (store) => {
        const environment = JSON.parse('{"parameters": {"__proto__": {"x": 1}, "n": [1, 2.5, null]}}');
        const files = JSON.parse('{"file:///a.yaml": "a: 1\\n", "__proto__": "not a prototype"}');
        const record = template({ files, environment });
        await store.tx((tx) => tx.templates.insert(record, 'root-1'));
        const stored = await store.tx((tx) => tx.templates.get(record.id));
        assert.deepEqual(stored, record);
        assert.ok(stored && Object.hasOwn(stored.environment.parameters as object, '__proto__'));
        assert.equal(stored && Object.getPrototypeOf(stored.files), Object.prototype);
        assert.equal(stored?.files['__proto__'], 'not a prototype');
        await store.tx((tx) => tx.templates.delete(record.id));
        assert.equal(await store.tx((tx) => tx.templates.get(record.id)), undefined);
      }));

    it("round-trips a nested stack's parent facade; a template without one reads back without one", () =>
      withStore(open, async (store) => {
        const facade = { metadata: { a: [1, 'x'] }, deletion_policy: 'Retain', update_policy: {} };
        const nested = template({ id: 'tpl-nested', facade });
        const top = template({ id: 'tpl-top' });
        await store.tx(async (tx) => {
          await tx.templates.insert(nested, 'root-1');
          await tx.templates.insert(top, 'root-1');
        });
        assert.deepEqual(await store.tx((tx) => tx.templates.get('tpl-nested')), nested);
        const stored = await store.tx((tx) => tx.templates.get('tpl-top'));
        assert.deepEqual(stored, top);
        assert.ok(stored && !Object.hasOwn(stored, 'facade'));
      }));
  });
}
