import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenStackError } from '../../src/openstack/index.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { attr, P } from '../../src/template/properties/index.js';
import { Harness } from './harness.js';

// A plugin whose attributes cannot be read once its action is done (a cloud refusing the read):
// the resource fails with why, the stack fails, and nothing runs again for ever.

const T = 'Test::UnreadableAttribute';

function unreadable(): ResourcePlugin {
  return {
    type: T,
    description: 'Its attribute cannot be read (tests only).',
    properties: { value: P.string() },
    attributes: { secret_sauce: attr('Never readable.', 'string') },
    async create() {
      return { physicalId: 'unreadable-1' };
    },
    async attribute() {
      throw new OpenStackError({
        status: 403,
        service: 'network',
        method: 'GET',
        url: 'http://cloud/v2.0/segments',
        detail: '(rule:get_segments) is disallowed by policy',
        attempts: 1,
      });
    },
    async delete() {
      return { done: true };
    },
  } as unknown as ResourcePlugin;
}

describe('an attribute the plugin cannot read after its action', () => {
  it('fails the resource and the stack with the reason, instead of retrying for ever', async () => {
    const h = await Harness.create({ plugins: [unreadable()] });
    await h.create('s', `heat_template_version: 2018-08-31\nresources:\n  u: {type: ${T}}\n`);
    await h.settle(200);
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    const [row] = await h.rows('s');
    assert.equal(row!.status, 'FAILED');
    assert.match(
      row!.reason ?? '',
      /^Forbidden: resources\.u: \(rule:get_segments\) is disallowed by policy/,
    );
    assert.equal(await h.deps.store.nextWorkTime(), undefined, 'no unit left to run again');
  });
});
