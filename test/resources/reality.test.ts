import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PhysicalObject } from '../../src/resources/contract.js';
import { testResourcePlugin } from '../../src/resources/heat/test-resource.js';
import { CountingReality, type RealityOperation } from '../../src/resources/reality/counting.js';
import { MemoryReality } from '../../src/resources/reality/memory.js';
import { FakeResource } from './helpers.js';

function obj(id: string, key: string, type = 'T'): PhysicalObject {
  return { id, key, type, properties: { v: id }, status: 'ACTIVE' };
}

describe('MemoryReality', () => {
  it('puts, gets, finds by key and deletes, by type', async () => {
    const m = new MemoryReality();
    await m.put(obj('a', 'k1'));
    await m.put(obj('a', 'k1', 'U'));
    assert.equal((await m.get('T', 'a'))?.type, 'T');
    assert.equal((await m.findByKey('U', 'k1'))?.type, 'U');
    assert.equal(await m.findByKey('T', 'k2'), undefined);
    assert.equal(await m.get('T', 'b'), undefined);
    assert.equal(m.size, 2);
    assert.equal(await m.delete('T', 'a'), true);
    assert.equal(await m.delete('T', 'a'), false);
    assert.equal(await m.findByKey('T', 'k1'), undefined);
    assert.deepEqual(
      m.list().map((o) => o.type),
      ['U'],
    );
  });

  it('copies objects in and out', async () => {
    const m = new MemoryReality();
    const o = obj('a', 'k');
    await m.put(o);
    o.properties.v = 'changed';
    const read = (await m.get('T', 'a'))!;
    assert.equal(read.properties.v, 'a');
    read.properties.v = 'changed';
    assert.equal((await m.get('T', 'a'))!.properties.v, 'a');
  });

  it('re-indexes an object whose key changes', async () => {
    const m = new MemoryReality();
    await m.put(obj('a', 'k1'));
    await m.put(obj('a', 'k2'));
    assert.equal(await m.findByKey('T', 'k1'), undefined);
    assert.equal((await m.findByKey('T', 'k2'))?.id, 'a');
    assert.equal(m.size, 1);
  });
});

describe('CountingReality', () => {
  it('counts creates, updates and deletes per type', async () => {
    const c = new CountingReality(new MemoryReality());
    await c.put(obj('a', 'k1'));
    await c.put(obj('a', 'k1'));
    await c.put(obj('b', 'k2', 'U'));
    await c.delete('T', 'a');
    await c.delete('T', 'a');
    assert.deepEqual(c.statsByType(), {
      T: { creates: 1, updates: 1, deletes: 1, deleteMisses: 1, duplicateCreates: 0 },
      U: { creates: 1, updates: 0, deletes: 0, deleteMisses: 0, duplicateCreates: 0 },
    });
    assert.equal(c.creates(), 2);
    assert.equal(c.deletes('U'), 0);
    c.resetCounts();
    assert.equal(c.creates(), 0);
    assert.deepEqual(c.liveObjects(), [{ type: 'U', id: 'b', key: 'k2' }]);
  });

  it('reports two live objects with one idempotency key as a duplicate', async () => {
    const c = new CountingReality(new MemoryReality());
    await c.put(obj('a', 'k'));
    await c.put(obj('b', 'k'));
    await c.put(obj('c', 'k', 'U'));
    assert.deepEqual(c.duplicates(), [{ type: 'T', key: 'k', ids: ['a', 'b'] }]);
    assert.equal(c.stats('T').duplicateCreates, 1);
    assert.deepEqual(c.problems(['a', 'b', 'c']), ['duplicate: T key k has a, b']);
    await c.delete('T', 'b');
    assert.deepEqual(c.duplicates(), []);
  });

  it('reports live objects nobody expects as leaks', async () => {
    const c = new CountingReality(new MemoryReality());
    await c.put(obj('a', 'k1'));
    await c.put(obj('b', 'k2'));
    assert.deepEqual(c.leaks(['a']), [{ type: 'T', id: 'b', key: 'k2' }]);
    assert.deepEqual(c.problems(['a']), ['leak: T b (key k2)']);
    assert.equal(c.leaks().length, 2);
  });

  it('runs hooks around calls, so a crash after a create can be simulated', async () => {
    const seen: string[] = [];
    let crash = true;
    const c = new CountingReality(new MemoryReality(), {
      before: (op: RealityOperation) => {
        seen.push(`before ${op.kind}`);
      },
      after: (op: RealityOperation) => {
        seen.push(`after ${op.kind}`);
        if (op.kind === 'put' && crash) {
          crash = false;
          throw new Error('crash');
        }
      },
    });
    const r = new FakeResource(testResourcePlugin, { reality: c });
    await assert.rejects(r.create({ value: 'x' }), /crash/);
    assert.equal(r.physicalId, null, 'the engine never learnt the physical id');
    assert.equal(c.liveObjects().length, 1, 'but the object exists');
    // The retried create finds it: no duplicate, nothing leaked.
    await r.create({ value: 'x' });
    assert.equal(c.creates(), 1);
    assert.deepEqual(c.problems([r.physicalId!]), []);
    assert.deepEqual(seen.slice(0, 4), ['before findByKey', 'after findByKey', 'before put', 'after put']);
  });

  it('catches a plugin whose create is not idempotent', async () => {
    const c = new CountingReality(new MemoryReality());
    // A careless create: a new object every time, under the same key.
    let n = 0;
    const careless = async () => c.put(obj(`id-${++n}`, 'same-key'));
    await careless();
    await careless();
    assert.equal(c.duplicates().length, 1);
    assert.equal(c.problems().length, 3);
  });
});
