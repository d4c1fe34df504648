import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DriftRecord, Store } from '../../src/store/contract.js';
import { withStore } from './fixtures.js';

function result(stackId: string, name: string, overrides: Partial<DriftRecord> = {}): DriftRecord {
  return {
    stackId,
    resourceName: name,
    resourceType: 'OS::Neutron::Net',
    physicalId: `id-${name}`,
    status: 'IN_SYNC',
    diff: [],
    reason: null,
    detectedAt: '2024-05-01T12:00:00.000Z',
    ...overrides,
  };
}

export function driftContract(open: () => Promise<Store>): void {
  describe('drift results', () => {
    it('stores a detection per stack, replaces it with the next, and lists it by name', () =>
      withStore(open, async (store) => {
        const modified = result('s1', 'net', {
          status: 'MODIFIED',
          diff: [{ name: 'name', expected: 'a', actual: { deep: [1, null] } }],
        });
        const first = [
          result('s1', 'z'),
          modified,
          result('s1', 'gone', { status: 'DELETED', physicalId: null }),
        ];
        await store.tx((tx) => tx.drift.replace('s1', 'root', first));
        await store.tx((tx) =>
          tx.drift.replace('s2', 'root', [result('s2', 'a', { status: 'FAILED', reason: 'boom' })]),
        );
        assert.deepEqual(await store.tx((tx) => tx.drift.list('s1')), [first[2], modified, first[0]]);
        const later = result('s1', 'net', { detectedAt: '2024-05-02T00:00:00.000Z' });
        await store.tx((tx) => tx.drift.replace('s1', 'root', [later]));
        assert.deepEqual(await store.tx((tx) => tx.drift.list('s1')), [later]);
        assert.equal((await store.tx((tx) => tx.drift.list('s2')))[0]?.reason, 'boom');
        await store.tx((tx) => tx.drift.replace('s2', 'root', []));
        assert.deepEqual(await store.tx((tx) => tx.drift.list('s2')), []);
      }));

    it('counts the results of some stacks by status, with the newest time, in one query', () =>
      withStore(open, async (store) => {
        await store.tx(async (tx) => {
          await tx.drift.replace('s1', 'r', [
            result('s1', 'a'),
            result('s1', 'b', { status: 'MODIFIED', detectedAt: '2024-05-03T00:00:00.000Z' }),
          ]);
          await tx.drift.replace('s2', 'r', [result('s2', 'a', { status: 'NOT_CHECKED', reason: 'why' })]);
          await tx.drift.replace('s3', 'r', [
            result('s3', 'a', { status: 'DELETED', detectedAt: '2030-01-01T00:00:00.000Z' }),
          ]);
        });
        assert.deepEqual(await store.tx((tx) => tx.drift.summary(['s1', 's2'])), {
          counts: { IN_SYNC: 1, MODIFIED: 1, DELETED: 0, ERROR: 0, NOT_CHECKED: 1, FAILED: 0 },
          detectedAt: '2024-05-03T00:00:00.000Z',
        });
        assert.deepEqual(await store.tx((tx) => tx.drift.summary([])), {
          counts: { IN_SYNC: 0, MODIFIED: 0, DELETED: 0, ERROR: 0, NOT_CHECKED: 0, FAILED: 0 },
          detectedAt: null,
        });
      }));

    it('writes a large detection in batched statements', () =>
      withStore(open, async (store) => {
        const many = Array.from({ length: 3000 }, (_, i) => result('big', `r${String(i).padStart(5, '0')}`));
        await store.tx((tx) => tx.drift.replace('big', 'big', many));
        const summary = await store.tx((tx) => tx.drift.summary(['big']));
        assert.equal(summary.counts.IN_SYNC, 3000);
        assert.equal((await store.tx((tx) => tx.drift.list('big'))).length, 3000);
      }));
  });
}
