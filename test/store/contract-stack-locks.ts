import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import { withStore } from './fixtures.js';

export function stackLockContract(open: () => Promise<Store>): void {
  describe('stack locks (legacy engine mode)', () => {
    it('is taken by one engine at a time, stolen only from the named holder, released by its holder', () =>
      withStore(open, async (store) => {
        const lock = (engine: string, from?: string) =>
          store.tx((tx) => tx.stackLocks.acquire('s1', engine, 1000, from));
        assert.equal(await lock('e1'), true);
        assert.equal(await lock('e2'), false, 'held by e1');
        assert.equal(await lock('e2', 'e3'), false, 'a steal names the holder it replaces');
        assert.deepEqual(await store.tx((tx) => tx.stackLocks.get('s1')), {
          stackId: 's1',
          engineId: 'e1',
          acquiredAt: 1000,
        });
        assert.equal(await store.tx((tx) => tx.stackLocks.acquire('s1', 'e2', 2000, 'e1')), true);
        assert.equal((await store.tx((tx) => tx.stackLocks.get('s1')))?.engineId, 'e2');
        assert.equal(await store.tx((tx) => tx.stackLocks.release('s1', 'e1')), false, 'e1 lost it');
        assert.equal(await store.tx((tx) => tx.stackLocks.release('s1', 'e2')), true);
        assert.equal(await store.tx((tx) => tx.stackLocks.get('s1')), undefined);
        assert.equal(await lock('e1'), true, 'free again');
        assert.equal(await store.tx((tx) => tx.stackLocks.acquire('s2', 'e1', 1000)), true, 'per stack');
      }));
  });
}
