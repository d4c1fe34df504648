import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nonePlugin } from '../../src/resources/heat/none.js';
import { diffProperties } from '../../src/template/properties/index.js';
import { FakeResource } from './helpers.js';

describe('OS::Heat::None', () => {
  it('creates with a UUID physical id that a retried create repeats', async () => {
    const r = new FakeResource(nonePlugin);
    const run = await r.create({ anything: 1 });
    assert.equal(run.polls, 0);
    assert.match(r.physicalId!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(r.data, { is_placeholder: 'True' });
    const again = await nonePlugin.create(r.ctx(), {});
    assert.equal(again.physicalId, r.physicalId);
    const other = new FakeResource(nonePlugin, { key: 'another' });
    await other.create();
    assert.notEqual(other.physicalId, r.physicalId);
    assert.equal(r.referenceId(), r.physicalId);
  });

  it('answers every attribute with null', async () => {
    const r = new FakeResource(nonePlugin);
    await r.create();
    assert.equal(nonePlugin.dynamicAttribute?.('whatever'), true);
    assert.equal(await r.attribute('whatever'), null);
    assert.equal(await r.attribute('show'), null);
  });

  it('never sees a change, so it is never updated or replaced', () => {
    const diff = diffProperties(nonePlugin.properties, { a: 1 }, { a: 2, b: 3 });
    assert.deepEqual(diff, { changed: [], requiresReplacement: [], immutable: [] });
  });

  it('reports its stored properties as reality, and is gone before it exists', async () => {
    const r = new FakeResource(nonePlugin);
    assert.deepEqual(await nonePlugin.getReality(r.ctx()), { state: 'gone' });
    await r.create();
    r.storedProperties = { flavor: 'm1.small' };
    assert.deepEqual(await nonePlugin.getReality(r.ctx()), {
      state: 'present',
      properties: { flavor: 'm1.small' },
    });
  });

  it('deletes without touching reality', async () => {
    const r = new FakeResource(nonePlugin);
    await r.create();
    const run = await r.delete();
    assert.equal(run.polls, 0);
    assert.equal(await r.reality.findByKey(nonePlugin.type, r.key), undefined);
  });
});
