import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bindCount } from '../../src/template/stubs.js';
import { startApi } from './harness.js';
import { createStack } from './stack-helpers.js';

// An update through the API, the template sent parsed as heatclient sends it: the engine binds
// the changed resource and its dependents only (operations/partial-bind.ts), the same plan as
// from the CLI's text.

const T = 'OS::Heat::TestResource';

function template(n: number, changed?: number): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const own = i === changed ? 'changed' : `v${i}`;
    const value = i % 10 === 0 ? own : { list_join: ['-', [own, { get_attr: [`r${i - 1}`, 'output'] }]] };
    resources[`r${i}`] = { type: T, properties: { value } };
  }
  return { heat_template_version: '2018-08-31', resources };
}

describe('an update of one resource through the API', () => {
  it('binds the changed resource and its dependents, and converges them', async () => {
    const api = await startApi();
    try {
      const stack = await createStack(api, 'proj', 's', { template: template(500) });
      assert.equal(stack.settled?.status, 'COMPLETE');
      const before = bindCount.resources;
      const res = await api.call('PUT', stack.url, { body: { template: template(500, 123) } });
      assert.equal(res.statusCode, 202, res.body);
      // r123 and the six after it in its chain.
      assert.equal(bindCount.resources - before, 7);
      const settled = await api.settle(stack.id);
      assert.equal(settled?.action, 'UPDATE');
      assert.equal(settled?.status, 'COMPLETE');
      // A wait's stack show reads the head: the partial bind serves it.
      const polled = bindCount.resources;
      const show = await api.call('GET', `${stack.url}?resolve_outputs=false`);
      assert.equal(show.statusCode, 200);
      assert.equal(
        (show.json() as { stack: { stack_status: string } }).stack.stack_status,
        'UPDATE_COMPLETE',
      );
      assert.equal(bindCount.resources - polled, 0);
      const shown = await api.call('GET', `${stack.url}/resources/r129`);
      const attrs = await api.call('GET', `${stack.url}/resources/r129?with_attr=output`);
      assert.equal(shown.statusCode, 200);
      assert.match(attrs.body, /v129-v128-v127-v126-v125-v124-changed-v122/);
    } finally {
      await api.close();
    }
  });
});
