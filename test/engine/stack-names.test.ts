import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OperationError } from '../../src/engine/core/errors.js';
import { Harness } from './harness.js';

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  a: {type: OS::Heat::TestResource, properties: {value: one}}
`;

// A name is checked and the stack inserted in one transaction; on PostgreSQL two such
// transactions see the same snapshot, so only the unique index on live names keeps them apart.
describe('a live stack name is unique in its project', () => {
  it('of many creates of one name sent at once, exactly one succeeds', async () => {
    const h = await Harness.create();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => h.create('same', TEMPLATE)));
    const created = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    assert.equal(created.length, 1, `created ${created.length} stacks named "same"`);
    for (const error of refused) {
      assert.ok(error instanceof OperationError, String(error));
      assert.equal(error.code, 'conflict');
      assert.match(error.message, /a stack named "same" already exists/);
    }
    await h.settle();
    assert.equal(await h.status('same'), 'CREATE_COMPLETE');
  });

  it('is free again once the stack is deleted', async () => {
    const h = await Harness.create();
    await h.create('again', TEMPLATE);
    await h.settle();
    await h.delete('again');
    await h.settle();
    const second = await h.create('again', TEMPLATE);
    await h.settle();
    const live = await h.deps.store.tx((tx) => tx.stacks.findByName('p', 'again'));
    assert.equal(live?.id, second.id);
    assert.equal(`${live.action}_${live.status}`, 'CREATE_COMPLETE');
  });
});
