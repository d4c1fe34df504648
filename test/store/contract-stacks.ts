import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StackFilter, Store } from '../../src/store/contract.js';
import { point, resource, stack, template, traversal, withStore } from './fixtures.js';

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
    it("progress counts the current traversal's nodes and the stack's running and failed resources", () =>
      withStore(open, async (store) => {
        const s = stack();
        const current = traversal(s.id);
        const old = traversal(s.id);
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
            point(current.id, s.id, 'c:4'),
            // A superseded traversal's points are not this operation's.
            point(old.id, s.id, 'u:1'),
            point(old.id, s.id, 'u:9', { done: true }),
          ]);
          await tx.resources.insert([
            resource(s.id, 'a', { action: 'CREATE', status: 'COMPLETE' }),
            resource(s.id, 'b', { action: 'CREATE', status: 'IN_PROGRESS' }),
            resource(s.id, 'c', { action: 'UPDATE', status: 'IN_PROGRESS' }),
            resource(s.id, 'd', { action: 'CREATE', status: 'FAILED' }),
            resource(s.id, 'e', { action: 'INIT', status: 'COMPLETE' }),
            resource(other.id, 'x', { action: 'CREATE', status: 'FAILED' }),
            resource(other.id, 'y', { action: 'DELETE', status: 'IN_PROGRESS' }),
          ]);
        });
        assert.deepEqual(await store.tx((tx) => tx.stacks.progress(s.id)), {
          total: 4,
          done: 2,
          inProgress: 2,
          failed: 1,
        });
        // No traversal running (ended, or failed: the id is ''): nothing to count but resources.
        await store.tx((tx) => tx.stacks.update(s.id, null, { traversalId: '', status: 'FAILED' }));
        assert.deepEqual(await store.tx((tx) => tx.stacks.progress(s.id)), {
          total: 0,
          done: 0,
          inProgress: 2,
          failed: 1,
        });
        assert.equal(await store.tx((tx) => tx.stacks.progress('missing')), undefined);
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
  });
}
