import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Harness } from './harness.js';

describe('a resource whose type changes', () => {
  it('is replaced by a row of the new type (later operations use the new type)', async () => {
    const h = await Harness.create();
    const tpl = (type: string) => `heat_template_version: 2018-08-31\nresources:\n  r: {type: ${type}}\n`;
    await h.create('s', tpl('OS::Heat::TestResource'));
    await h.settle();
    const [before] = await h.rows('s');
    await h.update('s', tpl('OS::Heat::None'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const rows = await h.rows('s');
    assert.deepEqual(
      rows.map((r) => [r.name, r.type]),
      [['r', 'OS::Heat::None']],
    );
    assert.notEqual(rows[0]!.physicalId, before!.physicalId);
    assert.deepEqual(await h.live(), [], 'the TestResource object was deleted');
  });
});
