import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import { SCHEMA_VERSION } from '../../src/store/sql/index.js';
import { resource, stack, stackWithTraversal, withStore, work } from './fixtures.js';

export function transactionContract(open: () => Promise<Store>): void {
  describe('transactions', () => {
    it('commits when the function resolves, and returns its value', () =>
      withStore(open, async (store) => {
        const s = stack();
        assert.equal(await store.tx(async (tx) => (await tx.stacks.insert(s), 42)), 42);
        assert.equal((await store.tx((tx) => tx.stacks.get(s.id)))?.id, s.id);
      }));

    it('rolls back everything, enqueued work included, when the function throws', () =>
      withStore(open, async (store) => {
        const { stackId, traversalId } = await stackWithTraversal(store);
        const failure = new Error('boom');
        await assert.rejects(
          store.tx(async (tx) => {
            await tx.stacks.update(stackId, traversalId, { status: 'COMPLETE' });
            await tx.resources.insert([resource(stackId, 'r')]);
            await tx.work.enqueue([work(traversalId, stackId, 'u:1')]);
            await tx.events.append([
              {
                uuid: 'e',
                stackId,
                resourceName: 's',
                resourceType: 'OS::Heat::Stack',
                physicalId: null,
                action: 'CREATE',
                status: 'COMPLETE',
                reason: '',
                createdAt: '2024-05-01T12:00:00.000Z',
              },
            ]);
            throw failure;
          }),
          (error) => error === failure,
        );
        await store.tx(async (tx) => {
          assert.equal((await tx.stacks.get(stackId))?.status, 'IN_PROGRESS');
          assert.deepEqual(await tx.resources.listAll(stackId), []);
          assert.deepEqual(await tx.work.listForTraversal(traversalId), []);
          assert.deepEqual(await tx.events.list(stackId), []);
        });
        assert.equal(await store.nextWorkTime(), undefined);
        assert.deepEqual(await store.claimWork('e1', Number.MAX_SAFE_INTEGER, 10, 1000), []);
      }));

    it('keeps concurrent transactions isolated (read-modify-write across awaits loses nothing)', () =>
      withStore(open, async (store) => {
        const s = stack({ reason: '0' });
        await store.tx((tx) => tx.stacks.insert(s));
        const increment = () =>
          store.tx(async (tx) => {
            const current = await tx.stacks.get(s.id);
            await new Promise((resolve) => setImmediate(resolve));
            await tx.stacks.update(s.id, null, { reason: String(Number(current!.reason) + 1) });
          });
        await Promise.all(Array.from({ length: 20 }, increment));
        assert.equal((await store.tx((tx) => tx.stacks.get(s.id)))?.reason, '20');
      }));

    it('a rejected transaction does not affect the next one', () =>
      withStore(open, async (store) => {
        const s = stack();
        await assert.rejects(store.tx(() => Promise.reject(new Error('first'))));
        await store.tx((tx) => tx.stacks.insert(s));
        assert.ok(await store.tx((tx) => tx.stacks.get(s.id)));
      }));

    it('a read transaction sees what was committed and refuses to write', () =>
      withStore(open, async (store) => {
        const s = stack();
        await store.tx((tx) => tx.stacks.insert(s));
        assert.equal((await store.read((tx) => tx.stacks.get(s.id)))?.id, s.id);
        await assert.rejects(store.read((tx) => tx.stacks.insert(stack())));
        assert.equal((await store.read((tx) => tx.stacks.list({}))).length, 1);
      }));

    it('a read transaction never sees a write transaction that is still open', () =>
      withStore(open, async (store) => {
        const s = stack();
        let inserted!: () => void;
        const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
        let finish!: () => void;
        const finishing = new Promise<void>((resolve) => (finish = resolve));
        const writing = store.tx(async (tx) => {
          await tx.stacks.insert(s);
          inserted();
          await finishing;
        });
        // The writer may not have begun yet on a backend that queues transactions: either way,
        // the read must not see an uncommitted row.
        await Promise.race([insertedNow, new Promise((resolve) => setTimeout(resolve, 50))]);
        const seen = store.read((tx) => tx.stacks.get(s.id));
        finish();
        await writing;
        const found = await seen;
        assert.ok(found === undefined || found.id === s.id);
        assert.equal((await store.read((tx) => tx.stacks.get(s.id)))?.id, s.id);
      }));

    it('migrate is idempotent, and schemaVersion reads the version it reached', () =>
      withStore(open, async (store) => {
        const s = stack();
        await store.tx((tx) => tx.stacks.insert(s));
        assert.equal(await store.migrate(), SCHEMA_VERSION);
        assert.equal(await store.migrate(), SCHEMA_VERSION);
        assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
        assert.ok(await store.tx((tx) => tx.stacks.get(s.id)));
      }));
  });
}
