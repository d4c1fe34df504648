import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventQuery, EventRecord, Store } from '../../src/store/contract.js';
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
        // A follower's narrow rows: what a log line shows, after an id, of this stack only.
        assert.deepEqual(
          await store.read((tx) => tx.events.lines(s.id, all[1]!.id)),
          [all[2]!, all[3]!].map(({ id, resourceName, action, status, reason, createdAt }) => ({
            id,
            resourceName,
            action,
            status,
            reason,
            createdAt,
          })),
        );
        assert.deepEqual(await store.read((tx) => tx.events.lines(s.id, all[3]!.id)), []);
      }));
  });

  describe('event queries', () => {
    // Six events of two stacks, recorded in this order.
    async function seed(store: Store) {
      const s = stack();
      const n = stack({ parentId: s.id, rootId: s.id });
      await store.tx(async (tx) => {
        await tx.stacks.insert(s);
        await tx.stacks.insert(n);
      });
      const rows = [
        { ...event(s.id, 's', 'IN_PROGRESS'), resourceType: 'OS::Heat::Stack' },
        { ...event(s.id, 'b', 'IN_PROGRESS'), resourceType: 'OS::Heat::Value' },
        { ...event(n.id, 'x', 'IN_PROGRESS'), resourceType: 'OS::Heat::None' },
        { ...event(s.id, 'b', 'COMPLETE'), resourceType: 'OS::Heat::Value' },
        { ...event(s.id, 'a', 'FAILED'), action: 'UPDATE', resourceType: 'OS::Heat::None' },
        { ...event(s.id, 's', 'COMPLETE'), resourceType: 'OS::Heat::Stack' },
      ];
      for (const row of rows) await store.tx((tx) => tx.events.append([row]));
      return { s, n };
    }
    const uuids = (events: EventRecord[]) => events.map((e) => e.uuid);

    it('filters by resource name, type, action and status (alone or with its action), and by uuid', () =>
      withStore(open, async (store) => {
        const { s } = await seed(store);
        const q = (extra: Partial<EventQuery>) =>
          store.tx((tx) => tx.events.query({ stackIds: [s.id], ...extra }));
        assert.deepEqual(uuids(await q({})), [
          's-IN_PROGRESS',
          'b-IN_PROGRESS',
          'b-COMPLETE',
          'a-FAILED',
          's-COMPLETE',
        ]);
        assert.deepEqual(uuids(await q({ resourceNames: ['b', 'a'] })), [
          'b-IN_PROGRESS',
          'b-COMPLETE',
          'a-FAILED',
        ]);
        assert.deepEqual(uuids(await q({ resourceTypes: ['OS::Heat::Stack'] })), [
          's-IN_PROGRESS',
          's-COMPLETE',
        ]);
        assert.deepEqual(uuids(await q({ actions: ['UPDATE'] })), ['a-FAILED']);
        assert.deepEqual(uuids(await q({ statuses: ['COMPLETE'] })), ['b-COMPLETE', 's-COMPLETE']);
        assert.deepEqual(uuids(await q({ statuses: ['UPDATE_FAILED', 'CREATE_IN_PROGRESS'] })), [
          's-IN_PROGRESS',
          'b-IN_PROGRESS',
          'a-FAILED',
        ]);
        assert.deepEqual(uuids(await q({ statuses: ['CREATE_FAILED'] })), []);
        assert.deepEqual(uuids(await q({ resourceNames: [] })), []);
        assert.deepEqual(uuids(await q({ uuid: 'b-COMPLETE' })), ['b-COMPLETE']);
        assert.deepEqual(await store.tx((tx) => tx.events.query({ stackIds: [] })), []);
      }));

    it('lists several stacks’ events in one order, pages after a marker in either direction', () =>
      withStore(open, async (store) => {
        const { s, n } = await seed(store);
        const q = (extra: Partial<EventQuery>) =>
          store.tx((tx) => tx.events.query({ stackIds: [s.id, n.id], ...extra }));
        const all = uuids(await q({}));
        assert.deepEqual(all, [
          's-IN_PROGRESS',
          'b-IN_PROGRESS',
          'x-IN_PROGRESS',
          'b-COMPLETE',
          'a-FAILED',
          's-COMPLETE',
        ]);
        assert.deepEqual(uuids(await q({ sortDir: 'desc' })), [...all].reverse());
        assert.deepEqual(uuids(await q({ marker: 'b-IN_PROGRESS', limit: 2 })), [
          'x-IN_PROGRESS',
          'b-COMPLETE',
        ]);
        assert.deepEqual(uuids(await q({ marker: 'b-COMPLETE', sortDir: 'desc' })), [
          'x-IN_PROGRESS',
          'b-IN_PROGRESS',
          's-IN_PROGRESS',
        ]);
        assert.deepEqual(uuids(await q({ limit: 0 })), []);
        // A marker of another stack's events is no position in these.
        assert.deepEqual(
          uuids(await store.tx((tx) => tx.events.query({ stackIds: [s.id], marker: 'x-IN_PROGRESS' }))),
          [],
        );
      }));

    it('sorts by resource type, then id, and pages by that pair', () =>
      withStore(open, async (store) => {
        const { s, n } = await seed(store);
        const q = (extra: Partial<EventQuery>) =>
          store.tx((tx) => tx.events.query({ stackIds: [s.id, n.id], sortKey: 'type', ...extra }));
        const all = uuids(await q({}));
        assert.deepEqual(all, [
          'x-IN_PROGRESS',
          'a-FAILED',
          's-IN_PROGRESS',
          's-COMPLETE',
          'b-IN_PROGRESS',
          'b-COMPLETE',
        ]);
        assert.deepEqual(uuids(await q({ sortDir: 'desc' })), [...all].reverse());
        assert.deepEqual(uuids(await q({ marker: 'a-FAILED', limit: 3 })), [
          's-IN_PROGRESS',
          's-COMPLETE',
          'b-IN_PROGRESS',
        ]);
        assert.deepEqual(uuids(await q({ marker: 's-COMPLETE', sortDir: 'desc' })), [
          's-IN_PROGRESS',
          'a-FAILED',
          'x-IN_PROGRESS',
        ]);
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
