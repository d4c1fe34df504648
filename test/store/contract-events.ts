import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventRecord, Store } from '../../src/store/contract.js';
import { stack, withStore } from './fixtures.js';

function event(stackId: string, resourceName: string, status: string): Omit<EventRecord, 'id'> {
  return {
    uuid: `${resourceName}-${status}`,
    stackId,
    resourceName,
    resourceType: 'OS::Heat::None',
    physicalId: null,
    action: 'CREATE',
    status,
    reason: `state changed: ${status}`,
    createdAt: '2024-05-01T12:00:00.000Z',
  };
}

export function eventsContract(open: () => Promise<Store>): void {
  describe('events', () => {
    it('appends a batch and lists in order, with afterId, limit and resourceName', () =>
      withStore(open, async (store) => {
        const s = stack();
        await store.tx((tx) => tx.stacks.insert(s));
        const batch = [
          event(s.id, 'a', 'IN_PROGRESS'),
          event(s.id, 'b', 'IN_PROGRESS'),
          event(s.id, 'a', 'COMPLETE'),
          event('another-stack', 'a', 'COMPLETE'),
        ];
        await store.tx((tx) => tx.events.append(batch));
        await store.tx((tx) => tx.events.append([event(s.id, 'b', 'COMPLETE')]));
        await store.tx((tx) => tx.events.append([]));
        const all = await store.tx((tx) => tx.events.list(s.id));
        assert.deepEqual(
          all.map(({ id: _id, ...rest }) => rest),
          [batch[0], batch[1], batch[2], event(s.id, 'b', 'COMPLETE')],
        );
        assert.ok(all.every((e, i) => i === 0 || e.id > all[i - 1]!.id));
        const page = await store.tx((tx) => tx.events.list(s.id, { afterId: all[0]!.id, limit: 2 }));
        assert.deepEqual(
          page.map((e) => e.uuid),
          ['b-IN_PROGRESS', 'a-COMPLETE'],
        );
        const ofA = await store.tx((tx) => tx.events.list(s.id, { resourceName: 'a' }));
        assert.deepEqual(
          ofA.map((e) => e.uuid),
          ['a-IN_PROGRESS', 'a-COMPLETE'],
        );
        assert.deepEqual(await store.tx((tx) => tx.events.list(s.id, { afterId: all[3]!.id })), []);
        assert.equal((await store.tx((tx) => tx.events.list('another-stack'))).length, 1);
        assert.equal(await store.tx((tx) => tx.events.latestId(s.id)), all[3]!.id);
        assert.equal(await store.tx((tx) => tx.events.latestId('no-such-stack')), 0);
      }));
  });

  describe('services', () => {
    it('heartbeat inserts or updates; list and remove', () =>
      withStore(open, async (store) => {
        const e1 = { engineId: 'e1', host: 'h1', pid: 10, startedAt: 1000, heartbeatAt: 1000 };
        const e2 = { engineId: 'e2', host: 'h2', pid: 20, startedAt: 1500, heartbeatAt: 1500 };
        await store.tx(async (tx) => {
          await tx.services.heartbeat(e2);
          await tx.services.heartbeat(e1);
          await tx.services.heartbeat({ ...e1, heartbeatAt: 2000 });
        });
        assert.deepEqual(await store.tx((tx) => tx.services.list()), [{ ...e1, heartbeatAt: 2000 }, e2]);
        await store.tx((tx) => tx.services.remove('e1'));
        assert.deepEqual(await store.tx((tx) => tx.services.list()), [e2]);
      }));
  });
}
