import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceHead, ResourceRecord, Store } from '../../src/store/contract.js';
import type { Json } from '../../src/util/json.js';
import { resource, stack, withStore } from './fixtures.js';

const withoutId = ({ id: _id, ...rest }: ResourceRecord) => rest;

export function resourcesContract(open: () => Promise<Store>): void {
  describe('resources', () => {
    it('inserts a batch and returns the rows with ascending ids in input order', () =>
      withStore(open, async (store) => {
        const rows = ['c', 'a', 'b'].map((name) => resource('s1', name));
        const inserted = await store.tx((tx) => tx.resources.insert(rows));
        assert.deepEqual(inserted.map(withoutId), rows);
        assert.ok(inserted[0]!.id < inserted[1]!.id && inserted[1]!.id < inserted[2]!.id);
        assert.deepEqual(await store.tx((tx) => tx.resources.get(inserted[1]!.id)), inserted[1]);
        assert.deepEqual(await store.tx((tx) => tx.resources.insert([])), []);
      }));

    it('round-trips JSON columns, __proto__ keys as own properties', () =>
      withStore(open, async (store) => {
        const properties = JSON.parse(
          '{"__proto__": {"polluted": true}, "constructor": "c", "nested": [{"__proto__": 1}]}',
        );
        const row = resource('s1', 'r', {
          properties,
          attributes: { ünï: '☃', big: 2 ** 53 - 1, float: 0.1, empty: {}, list: [null, true, 'x'] },
          data: { value: 'secret' },
          progress: { step: 2, ids: ['a'] },
          requires: [3, 1, 2],
          replaces: 7,
          replacedBy: 9,
          physicalId: 'phys',
          templateId: 'tpl',
          unhealthy: true,
          updatedAt: '2024-05-01T12:00:01.500Z',
        });
        const [inserted] = await store.tx((tx) => tx.resources.insert([row]));
        const stored = await store.tx((tx) => tx.resources.get(inserted!.id));
        assert.deepEqual(stored && withoutId(stored), row);
        assert.ok(Object.hasOwn(stored!.properties!, '__proto__'));
        assert.deepEqual(stored!.properties!['__proto__'], { polluted: true });
        assert.equal(Object.getPrototypeOf(stored!.properties), Object.prototype);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        for (const progress of [null, 'text', 5, [1]] satisfies Json[]) {
          const [r] = await store.tx((tx) => tx.resources.insert([resource('s1', 'p', { progress })]));
          assert.deepEqual((await store.tx((tx) => tx.resources.get(r!.id)))?.progress, progress);
        }
      }));

    it('gets many in the order asked, skipping missing ids', () =>
      withStore(open, async (store) => {
        const [a, b, c] = await store.tx((tx) =>
          tx.resources.insert(['a', 'b', 'c'].map((n) => resource('s1', n))),
        );
        const got = await store.tx((tx) => tx.resources.getMany([c!.id, 999_999, a!.id]));
        assert.deepEqual(
          got.map((r) => r.name),
          ['c', 'a'],
        );
        assert.deepEqual(await store.tx((tx) => tx.resources.getMany([])), []);
        assert.equal(b!.name, 'b');
      }));

    it('lists active rows (not DELETE_COMPLETE) and all rows of one stack, by id', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.resources.insert([
            resource('s1', 'a', {
              physicalId: 'phys-a',
              requires: [7, 9],
              engineId: 'e1',
              replacedBy: 3,
              atomicKey: 4,
              templateId: 'tpl-a',
              unhealthy: true,
              properties: { p: [1] },
              attributes: { a: 'x' },
              data: { d: true },
            }),
            resource('s1', 'gone', { action: 'DELETE', status: 'COMPLETE' }),
            resource('s1', 'deleting', { action: 'DELETE', status: 'IN_PROGRESS' }),
            resource('s1', 'failed', { action: 'DELETE', status: 'FAILED' }),
            resource('s2', 'other'),
          ]),
        );
        const active = await store.tx((tx) => tx.resources.listActive('s1'));
        assert.deepEqual(
          active.map((r) => r.name),
          ['a', 'deleting', 'failed'],
        );
        const all = await store.tx((tx) => tx.resources.listAll('s1'));
        assert.deepEqual(
          all.map((r) => r.name),
          ['a', 'gone', 'deleting', 'failed'],
        );
        assert.deepEqual(await store.tx((tx) => tx.resources.listAll('nope')), []);
        const heads = await store.tx((tx) => tx.resources.listHeads('s1'));
        const pick = (r: ResourceRecord): ResourceHead => ({
          id: r.id,
          name: r.name,
          type: r.type,
          action: r.action,
          status: r.status,
          physicalId: r.physicalId,
          requires: r.requires,
          replacedBy: r.replacedBy,
          engineId: r.engineId,
          atomicKey: r.atomicKey,
          templateId: r.templateId,
        });
        assert.deepEqual(heads, active.map(pick), 'heads: the same rows, planning fields only');
        const listings = await store.tx((tx) => tx.resources.listListings('s1'));
        assert.deepEqual(
          listings,
          active.map(({ properties: _p, attributes: _a, data: _d, progress: _g, ...rest }) => rest),
          'listings: the same rows without their documents',
        );
        const states = await store.tx((tx) => tx.resources.listStates('s1'));
        assert.deepEqual(
          states,
          active.map((r) => ({
            ...pick(r),
            uuid: r.uuid,
            createRetries: r.createRetries,
            unhealthy: r.unhealthy,
            properties: r.properties,
            attributes: r.attributes,
            data: r.data,
          })),
          'states: the same rows, what a comparison reads',
        );
      }));

    it("finds one name's rows of one stack (not DELETE_COMPLETE), by id", () =>
      withStore(open, async (store) => {
        const [old, , replacement] = await store.tx((tx) =>
          tx.resources.insert([
            resource('s1', 'web', { action: 'UPDATE', status: 'COMPLETE' }),
            resource('s1', 'web', { action: 'DELETE', status: 'COMPLETE' }),
            resource('s1', 'web', { action: 'CREATE', status: 'IN_PROGRESS' }),
            resource('s1', 'db'),
            resource('s2', 'web'),
          ]),
        );
        const found = await store.tx((tx) => tx.resources.findByName('s1', 'web'));
        assert.deepEqual(
          found.map((r) => r.id),
          [old!.id, replacement!.id],
        );
        assert.deepEqual(found[1], replacement);
        assert.deepEqual(await store.tx((tx) => tx.resources.findByName('s1', 'nope')), []);
        assert.deepEqual(await store.tx((tx) => tx.resources.findByName('s3', 'web')), []);
      }));

    it('finds the rows of a physical id (not DELETE_COMPLETE) across stacks, by id', () =>
      withStore(open, async (store) => {
        const [old, , replacement, other] = await store.tx((tx) =>
          tx.resources.insert([
            resource('s1', 'cfg', { physicalId: 'p-1', action: 'CREATE', status: 'COMPLETE' }),
            resource('s1', 'gone', { physicalId: 'p-1', action: 'DELETE', status: 'COMPLETE' }),
            resource('s2', 'cfg', { physicalId: 'p-1', action: 'DELETE', status: 'IN_PROGRESS' }),
            resource('s2', 'db', { physicalId: 'p-2' }),
            resource('s2', 'none'),
          ]),
        );
        const found = await store.tx((tx) => tx.resources.findByPhysicalId('p-1'));
        assert.deepEqual(
          found.map((r) => r.id),
          [old!.id, replacement!.id],
        );
        assert.deepEqual(found[0], old);
        assert.deepEqual(
          (await store.tx((tx) => tx.resources.findByPhysicalId('p-2'))).map((r) => r.id),
          [other!.id],
        );
        assert.deepEqual(await store.tx((tx) => tx.resources.findByPhysicalId('nope')), []);
      }));

    it('tells which live stacks manage physical ids, with their projects (deleted rows and stacks left out)', () =>
      withStore(open, async (store) => {
        await store.tx(async (tx) => {
          await tx.stacks.insert(stack({ id: 'm1', name: 'mine', projectId: 'project-a' }));
          await tx.stacks.insert(stack({ id: 'm2', name: 'theirs', projectId: 'project-b' }));
          await tx.stacks.insert(
            stack({ id: 'm3', name: 'gone', projectId: 'project-b', deletedAt: '2026-01-01T00:00:00.000Z' }),
          );
          await tx.resources.insert([
            resource('m1', 'a', { physicalId: 'p-a', action: 'CREATE', status: 'COMPLETE' }),
            resource('m2', 'b', { physicalId: 'p-b', action: 'UPDATE', status: 'FAILED' }),
            resource('m2', 'old', { physicalId: 'p-old', action: 'DELETE', status: 'COMPLETE' }),
            resource('m3', 'c', { physicalId: 'p-c', action: 'CREATE', status: 'COMPLETE' }),
          ]);
        });
        const found = await store.tx((tx) =>
          tx.resources.managersOf(['p-a', 'p-b', 'p-old', 'p-c', 'p-none', 'p-a']),
        );
        assert.deepEqual(found, [
          { physicalId: 'p-a', stackId: 'm1', stackName: 'mine', projectId: 'project-a' },
          { physicalId: 'p-b', stackId: 'm2', stackName: 'theirs', projectId: 'project-b' },
        ]);
        assert.deepEqual(await store.tx((tx) => tx.resources.managersOf([])), []);
      }));

    it('locked update: only with the expected key and engine (null-safe); bumps the key', () =>
      withStore(open, async (store) => {
        const [row] = await store.tx((tx) => tx.resources.insert([resource('s1', 'r')]));
        const id = row!.id;
        const locked = await store.tx((tx) => tx.resources.update(id, 0, null, { engineId: 'e1' }));
        assert.equal(locked?.engineId, 'e1');
        assert.equal(locked?.atomicKey, 1);
        await store.tx(async (tx) => {
          assert.equal(await tx.resources.update(id, 0, null, { engineId: 'e2' }), undefined, 'stale key');
          assert.equal(await tx.resources.update(id, 1, null, { engineId: 'e2' }), undefined, 'locked by e1');
          assert.equal(
            await tx.resources.update(id, 1, 'e2', { status: 'FAILED' }),
            undefined,
            'wrong engine',
          );
          assert.equal(await tx.resources.update(999_999, 0, null, {}), undefined, 'missing row');
        });
        const written = await store.tx((tx) =>
          tx.resources.update(id, 1, 'e1', {
            ...locked!,
            id: 1234,
            atomicKey: 77,
            status: 'FAILED',
            data: { k: 'v' },
          }),
        );
        assert.equal(written?.id, id);
        assert.equal(written?.atomicKey, 2, 'the key is bumped, never taken from changes');
        assert.equal(written?.status, 'FAILED');
        const released = await store.tx((tx) => tx.resources.update(id, 2, 'e1', { engineId: null }));
        assert.equal(released?.engineId, null);
        assert.equal(released?.atomicKey, 3);
        assert.deepEqual(released?.data, { k: 'v' });
        const bumped = await store.tx((tx) => tx.resources.update(id, 3, null, {}));
        assert.equal(bumped?.atomicKey, 4);
        assert.deepEqual(await store.tx((tx) => tx.resources.get(id)), bumped);
      }));

    it('updateMany writes each row under its own compare-and-swap, in as few statements as it can', () =>
      withStore(open, async (store) => {
        const rows = await store.tx((tx) =>
          tx.resources.insert(['a', 'b', 'c', 'd', 'e'].map((n) => resource('s1', n))),
        );
        const [a, b, c, d, e] = rows;
        await store.tx((tx) => tx.resources.update(d!.id, 0, null, { engineId: 'other' }));
        const written = await store.tx((tx) =>
          tx.resources.updateMany([
            {
              id: a!.id,
              expectedKey: 0,
              expectedEngine: null,
              changes: { status: 'COMPLETE', properties: { v: 1 } },
            },
            {
              id: b!.id,
              expectedKey: 0,
              expectedEngine: null,
              changes: { status: 'FAILED', properties: { v: 2 } },
            },
            // Another set of fields, in the same call.
            {
              id: c!.id,
              expectedKey: 0,
              expectedEngine: null,
              changes: { engineId: 'me', updatedAt: '2026-01-02T03:04:05.006Z', requires: [a!.id] },
            },
            // Lost races: a stale key, a lock held by another engine.
            { id: e!.id, expectedKey: 7, expectedEngine: null, changes: { status: 'COMPLETE' } },
            { id: d!.id, expectedKey: 1, expectedEngine: null, changes: { status: 'COMPLETE' } },
          ]),
        );
        assert.deepEqual(
          [...written].sort((x, y) => x - y),
          [a!.id, b!.id, c!.id],
        );
        const after = new Map((await store.tx((tx) => tx.resources.listAll('s1'))).map((r) => [r.name, r]));
        assert.deepEqual(
          [after.get('a')?.status, after.get('a')?.properties, after.get('a')?.atomicKey],
          ['COMPLETE', { v: 1 }, 1],
        );
        assert.deepEqual([after.get('b')?.status, after.get('b')?.properties], ['FAILED', { v: 2 }]);
        const cRow = after.get('c')!;
        assert.deepEqual(
          [cRow.engineId, cRow.updatedAt, cRow.requires],
          ['me', '2026-01-02T03:04:05.006Z', [a!.id]],
        );
        assert.equal(after.get('d')?.status, d!.status, 'locked by another: untouched');
        assert.equal(after.get('e')?.atomicKey, 0, 'stale key: untouched');
        // A write that expects the engine holding the lock goes through.
        const mine = await store.tx((tx) =>
          tx.resources.updateMany([
            { id: c!.id, expectedKey: 1, expectedEngine: 'me', changes: { engineId: null } },
          ]),
        );
        assert.deepEqual([...mine], [c!.id]);
        assert.deepEqual(await store.tx((tx) => tx.resources.updateMany([])), new Set());
      }));

    it('removeMany removes each row under its own compare-and-swap', () =>
      withStore(open, async (store) => {
        const [a, b, c, d] = await store.tx((tx) =>
          tx.resources.insert(['a', 'b', 'c', 'd'].map((n) => resource('s1', n))),
        );
        await store.tx((tx) => tx.resources.update(c!.id, 0, null, { engineId: 'other' }));
        await store.tx((tx) => tx.resources.update(b!.id, 0, null, { engineId: 'me' }));
        const removed = await store.tx((tx) =>
          tx.resources.removeMany([
            { id: a!.id, expectedKey: 0, expectedEngine: null },
            // The lock holder's own removal.
            { id: b!.id, expectedKey: 1, expectedEngine: 'me' },
            // Lost races: a lock held by another engine, a stale key; a row already gone.
            { id: c!.id, expectedKey: 1, expectedEngine: null },
            { id: d!.id, expectedKey: 3, expectedEngine: null },
            { id: a!.id + 1000, expectedKey: 0, expectedEngine: null },
          ]),
        );
        assert.deepEqual(
          [...removed].sort((x, y) => x - y),
          [a!.id, b!.id],
        );
        const left = await store.tx((tx) => tx.resources.listAll('s1'));
        assert.deepEqual(left.map((r) => r.name).sort(), ['c', 'd']);
        assert.deepEqual(await store.tx((tx) => tx.resources.removeMany([])), new Set());
      }));

    it('points the rows it is given at a new template, and only those', () =>
      withStore(open, async (store) => {
        const rows = await store.tx((tx) =>
          tx.resources.insert([
            resource('s1', 'a', { templateId: 'old' }),
            resource('s1', 'b', { templateId: null }),
            resource('s1', 'c', { templateId: 'other' }),
            resource('s2', 'd', { templateId: 'old' }),
          ]),
        );
        const [a, b, , d] = rows.map((r) => r.id);
        assert.equal(await store.tx((tx) => tx.resources.setTemplate([a!, b!, d!], 'new')), 3);
        assert.equal(await store.tx((tx) => tx.resources.setTemplate([], 'new')), 0);
        const templates = (await store.tx((tx) => tx.resources.listAll('s1'))).map((r) => r.templateId);
        assert.deepEqual(templates, ['new', 'new', 'other']);
        assert.equal((await store.tx((tx) => tx.resources.listAll('s2')))[0]?.templateId, 'new');
      }));

    it('deletes rows, and never reuses their ids', () =>
      withStore(open, async (store) => {
        const rows = await store.tx((tx) =>
          tx.resources.insert(['a', 'b', 'c'].map((n) => resource('s1', n))),
        );
        await store.tx((tx) => tx.resources.delete([rows[1]!.id, rows[2]!.id]));
        await store.tx((tx) => tx.resources.delete([]));
        assert.deepEqual(
          (await store.tx((tx) => tx.resources.listAll('s1'))).map((r) => r.name),
          ['a'],
        );
        const [next] = await store.tx((tx) => tx.resources.insert([resource('s1', 'd')]));
        assert.ok(next!.id > rows[2]!.id);
      }));

    it('purges a stack’s deleted rows, or all of its rows', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.resources.insert([
            resource('s1', 'gone', { action: 'DELETE', status: 'COMPLETE' }),
            resource('s1', 'failed', { action: 'DELETE', status: 'FAILED' }),
            resource('s1', 'live', { action: 'CREATE', status: 'COMPLETE' }),
            resource('s2', 'other', { action: 'DELETE', status: 'COMPLETE' }),
          ]),
        );
        assert.equal(await store.tx((tx) => tx.resources.purge('s1')), 1);
        const names = async (stack: string) =>
          (await store.tx((tx) => tx.resources.listAll(stack))).map((r) => r.name);
        assert.deepEqual(await names('s1'), ['failed', 'live']);
        assert.equal(await store.tx((tx) => tx.resources.purge('s1', true)), 2);
        assert.deepEqual(await names('s1'), []);
        assert.deepEqual(await names('s2'), ['other']);
      }));
  });
}
