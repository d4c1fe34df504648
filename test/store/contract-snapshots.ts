import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SnapshotRecord, Store } from '../../src/store/contract.js';
import { withStore } from './fixtures.js';

function snapshot(id: string, overrides: Partial<SnapshotRecord> = {}): SnapshotRecord {
  return {
    id,
    stackId: 's1',
    projectId: 'p1',
    name: `snap-${id}`,
    status: 'IN_PROGRESS',
    statusReason: '',
    traversalId: `t-${id}`,
    data: null,
    deleting: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    ...overrides,
  };
}

export function snapshotContract(open: () => Promise<Store>): void {
  describe('stack snapshots', () => {
    it('stores snapshots by stack, finds one by id or by its traversal, updates and deletes them', () =>
      withStore(open, async (store) => {
        await store.tx(async (tx) => {
          await tx.snapshots.insert(snapshot('b', { createdAt: '2026-01-01T00:00:02.000Z' }));
          await tx.snapshots.insert(snapshot('a', { createdAt: '2026-01-01T00:00:01.000Z', name: null }));
          await tx.snapshots.insert(snapshot('c', { stackId: 's2' }));
        });
        assert.deepEqual(
          (await store.tx((tx) => tx.snapshots.list('s1'))).map((s) => s.id),
          ['a', 'b'],
          'oldest first, only the stack’s',
        );
        assert.deepEqual(
          await store.tx((tx) => tx.snapshots.get('a')),
          snapshot('a', {
            createdAt: '2026-01-01T00:00:01.000Z',
            name: null,
          }),
        );
        assert.equal((await store.tx((tx) => tx.snapshots.byTraversal('t-b')))?.id, 'b');
        assert.equal(await store.tx((tx) => tx.snapshots.byTraversal('')), undefined);
        assert.equal(await store.tx((tx) => tx.snapshots.get('nothing')), undefined);

        const changed = await store.tx((tx) =>
          tx.snapshots.update('b', {
            status: 'COMPLETE',
            statusReason: 'Stack SNAPSHOT completed successfully',
            traversalId: '',
            data: { template: { heat_template_version: '2018-08-31' } },
            deleting: true,
            updatedAt: '2026-01-01T00:00:05.000Z',
          }),
        );
        assert.equal(changed, true);
        assert.deepEqual(
          await store.tx((tx) => tx.snapshots.get('b')),
          snapshot('b', {
            createdAt: '2026-01-01T00:00:02.000Z',
            status: 'COMPLETE',
            statusReason: 'Stack SNAPSHOT completed successfully',
            traversalId: '',
            data: { template: { heat_template_version: '2018-08-31' } },
            deleting: true,
            updatedAt: '2026-01-01T00:00:05.000Z',
          }),
        );
        assert.equal(await store.tx((tx) => tx.snapshots.update('nothing', { status: 'FAILED' })), false);

        await store.tx((tx) => tx.snapshots.delete('b'));
        assert.deepEqual(
          (await store.tx((tx) => tx.snapshots.list('s1'))).map((s) => s.id),
          ['a'],
        );
      }));

    it("records each resource's entry beside the others, merging a second record of one resource", () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.snapshots.insert(snapshot('a', { data: { template: {} } })));
        await Promise.all([
          store.tx((tx) => tx.snapshots.recordResource('a', 'vol', { type: 'OS::Cinder::Volume' })),
          store.tx((tx) => tx.snapshots.recordResource('a', 'web', { resource_data: { image: 'i1' } })),
        ]);
        await store.tx((tx) =>
          tx.snapshots.recordResource('a', 'vol', { resource_data: { backup_id: 'b1' } }),
        );
        assert.deepEqual((await store.tx((tx) => tx.snapshots.get('a')))?.data, {
          template: {},
          resources: {
            vol: { type: 'OS::Cinder::Volume', resource_data: { backup_id: 'b1' } },
            web: { resource_data: { image: 'i1' } },
          },
        });
        assert.equal(await store.tx((tx) => tx.snapshots.recordResource('nothing', 'vol', {})), false);
      }));
  });
}
