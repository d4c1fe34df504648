import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceCount, ResourcePageQuery, Store } from '../../src/store/contract.js';
import { resource, stack, withStore } from './fixtures.js';

/** The console's reads of a big stack: counts by type and status, pages in name order, nested stacks. */
export function resourcePagesContract(open: () => Promise<Store>): void {
  describe('resource counts and pages', () => {
    /** A stack of 12 resources (one being replaced, one deleted) beside another stack's rows. */
    async function seed(store: Store) {
      const s = stack({ name: 'big' });
      const other = stack({ name: 'other' });
      await store.tx(async (tx) => {
        await tx.stacks.insert(s);
        await tx.stacks.insert(other);
        await tx.resources.insert([
          ...Array.from({ length: 8 }, (_, i) =>
            resource(s.id, `n${i}`, { action: 'CREATE', status: i === 3 ? 'FAILED' : 'COMPLETE' }),
          ),
          resource(s.id, 'key', { type: 'OS::Heat::RandomString', action: 'CREATE', status: 'COMPLETE' }),
          resource(s.id, 'gone', { action: 'DELETE', status: 'COMPLETE' }),
          resource(s.id, 'waiting'),
          resource(other.id, 'n0', { action: 'CREATE', status: 'FAILED' }),
        ]);
        // `old` replaced by a row that is being created: the name counts once, as the new row.
        const [old] = await tx.resources.insert([
          resource(s.id, 'old', { type: 'OS::Nova::Server', action: 'CREATE', status: 'COMPLETE' }),
        ]);
        const [fresh] = await tx.resources.insert([
          resource(s.id, 'old', {
            type: 'OS::Nova::Server',
            action: 'CREATE',
            status: 'IN_PROGRESS',
            replaces: old!.id,
          }),
        ]);
        await tx.resources.update(old!.id, 0, null, { replacedBy: fresh!.id });
        // `back`: a rollback took the original back; its obsolete replacement does not count.
        const [original] = await tx.resources.insert([
          resource(s.id, 'back', { action: 'UPDATE', status: 'COMPLETE' }),
        ]);
        await tx.resources.insert([resource(s.id, 'back', { replaces: original!.id })]);
      });
      return { s, other };
    }

    it('counts the current rows of one stack by type, action and status', () =>
      withStore(open, async (store) => {
        const { s } = await seed(store);
        const counts = await store.read((tx) => tx.resources.countCurrent(s.id));
        assert.deepEqual(counts, [
          { type: 'OS::Heat::None', action: 'CREATE', status: 'COMPLETE', count: 7 },
          { type: 'OS::Heat::None', action: 'CREATE', status: 'FAILED', count: 1 },
          { type: 'OS::Heat::None', action: 'INIT', status: 'COMPLETE', count: 1 },
          { type: 'OS::Heat::None', action: 'UPDATE', status: 'COMPLETE', count: 1 },
          { type: 'OS::Heat::RandomString', action: 'CREATE', status: 'COMPLETE', count: 1 },
          { type: 'OS::Nova::Server', action: 'CREATE', status: 'IN_PROGRESS', count: 1 },
        ]);
        assert.deepEqual(await store.read((tx) => tx.resources.countCurrent('none')), []);
      }));

    it('counts and pages a stack bigger than a chunk of the reads whole', () =>
      withStore(open, async (store) => {
        const s = stack();
        await store.tx(async (tx) => {
          await tx.stacks.insert(s);
          await tx.resources.insert(
            Array.from({ length: 12_345 }, (_, i) =>
              resource(s.id, `r${i}`, { action: 'CREATE', status: i % 1000 === 0 ? 'FAILED' : 'COMPLETE' }),
            ),
          );
        });
        const counts = await store.read((tx) => tx.resources.countCurrent(s.id));
        assert.deepEqual(
          counts.map((c) => [c.status, c.count]),
          [
            ['COMPLETE', 12_332],
            ['FAILED', 13],
          ],
        );
        // The same a part at a time, each from where the last ended.
        const parts: ResourceCount[] = [];
        let reads = 0;
        for (let after: string | undefined = ''; after !== undefined; reads++) {
          const from: string = after;
          const part = await store.read((tx) => tx.resources.countCurrentPart(s.id, from));
          parts.push(...part.counts);
          after = part.next;
        }
        assert.equal(
          parts.reduce((n, c) => n + c.count, 0),
          12_345,
        );
        assert.ok(reads >= 1);
        // A rare status found across the chunks a page is read in, in name order, after a marker.
        const failedNames = Array.from({ length: 13 }, (_, k) => `r${k * 1000}`).sort();
        const page = (query: Partial<ResourcePageQuery>) =>
          store.read((tx) => tx.resources.listPage(s.id, { limit: 100, ...query }));
        assert.deepEqual(
          (await page({ status: 'FAILED' })).map((r) => r.name),
          failedNames,
        );
        assert.deepEqual(
          (await page({ status: 'FAILED', limit: 2, marker: failedNames[5] })).map((r) => r.name),
          failedNames.slice(6, 8),
        );
        const big = await page({ limit: 7000 });
        assert.equal(big.length, 7000);
        assert.equal(new Set(big.map((r) => r.name)).size, 7000);
        assert.deepEqual((await page({ marker: big.at(-1)!.name, limit: 7000 })).length, 12_345 - 7000);
      }));

    it('lists pages of current rows in name order, filtered, after a marker', () =>
      withStore(open, async (store) => {
        const { s } = await seed(store);
        const page = (query: Partial<ResourcePageQuery>) =>
          store.read((tx) => tx.resources.listPage(s.id, { limit: 100, ...query }));
        const names = async (query: Partial<ResourcePageQuery>) => (await page(query)).map((r) => r.name);
        assert.deepEqual(await names({}), [
          'back',
          'key',
          'n0',
          'n1',
          'n2',
          'n3',
          'n4',
          'n5',
          'n6',
          'n7',
          'old',
          'waiting',
        ]);
        const [current] = await page({ nameContains: 'OLD' });
        assert.equal(current?.status, 'IN_PROGRESS', 'the replacement');
        assert.equal(current?.replaces !== null, true);
        assert.deepEqual(await names({ limit: 3, marker: 'n2' }), ['n3', 'n4', 'n5']);
        assert.deepEqual(await names({ status: 'FAILED' }), ['n3']);
        assert.deepEqual(await names({ status: 'CREATE_COMPLETE', type: 'OS::Heat::None' }), [
          'n0',
          'n1',
          'n2',
          'n4',
          'n5',
          'n6',
          'n7',
        ]);
        assert.deepEqual(await names({ type: 'OS::Heat::Random' }), [], 'a type is matched exactly');
        assert.deepEqual(await names({ nameContains: '%' }), [], 'no wildcard');
        assert.deepEqual(await names({ nameContains: 'K' }), ['back', 'key']);
      }));

    it('names the resources that have a nested stack, with how many there are', () =>
      withStore(open, async (store) => {
        const s = stack({ name: 'top' });
        const children = ['a', 'b', 'c'].map((name) =>
          stack({ name: `top-${name}`, parentId: s.id, parentResource: name, rootId: s.id }),
        );
        await store.tx(async (tx) => {
          await tx.stacks.insert(s);
          for (const c of children) await tx.stacks.insert(c);
          await tx.resources.insert([
            ...children.map((c) =>
              resource(s.id, c.parentResource!, {
                type: 'OS::Heat::Stack',
                action: 'CREATE',
                status: 'COMPLETE',
                physicalId: c.id,
              }),
            ),
            resource(s.id, 'plain', { physicalId: 'x' }),
          ]);
        });
        const { nested, total } = await store.read((tx) => tx.resources.listNested(s.id, 2));
        assert.equal(total, 3);
        assert.deepEqual(nested, [
          { name: 'a', action: 'CREATE', status: 'COMPLETE', nestedId: children[0]!.id, nestedName: 'top-a' },
          { name: 'b', action: 'CREATE', status: 'COMPLETE', nestedId: children[1]!.id, nestedName: 'top-b' },
        ]);
      }));
  });
}
