import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import type { Json } from '../../src/util/json.js';
import { Harness } from './harness.js';

/** Completes on its third check; checks that report no progress say nothing of it. */
function quietPoller(seen: Json[]): ResourcePlugin {
  return {
    type: 'Test::QuietPoller',
    description: 'Polls without reporting progress (tests only).',
    properties: {},
    attributes: {},
    create: async (ctx) => ({ physicalId: `quiet-${ctx.idempotencyKey}`, progress: { token: 'abc' } }),
    checkCreateComplete: async (_ctx, progress) => {
      seen.push(progress);
      return { done: seen.length >= 3 };
    },
    update: async () => ({}),
    delete: async () => ({}),
    getReality: async () => ({ state: 'present', properties: {} }),
    attribute: async () => null,
  };
}

describe('persisted polling', () => {
  it('a check that reports no progress keeps the state the operation started with', async () => {
    const seen: Json[] = [];
    const h = await Harness.create({ plugins: [quietPoller(seen)] });
    await h.create('s', 'heat_template_version: 2018-08-31\nresources:\n  q: {type: Test::QuietPoller}\n');
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(seen, [{ token: 'abc' }, { token: 'abc' }, { token: 'abc' }]);
  });
});
