import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStack } from '../../src/engine/operations/create.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { updateStack } from '../../src/engine/operations/update.js';
import { signalResource } from '../../src/engine/operations/signal.js';
import { parseEnvironment } from '../../src/template/environment/index.js';
import { Harness } from './harness.js';

// Breakpoints (hooks.ts) on template resources (nested.ts): Heat pauses before any create,
// update or delete of the resource, its child stack's operation included.

const T = 'OS::Heat::TestResource';
const group = (count: number) => `heat_template_version: 2018-08-31
resources:
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}
      resource_def: {type: ${T}, properties: {value: x}}
`;
const hooked = (hook: string) =>
  parseEnvironment('env.yaml', `resource_registry:\n  resources:\n    g: {hooks: ${hook}}\n`);

async function withHook(h: Harness, name: string, text: string, hook: string, create = false): Promise<void> {
  const input = { ...h.input(text), environment: hooked(hook) };
  if (create) {
    await createStack(h.deps, h.engine.cache, {
      name,
      projectId: 'p',
      template: input,
      disableRollback: true,
    });
    return;
  }
  const stack = await findStack(h.deps, 'p', name);
  await updateStack(h.deps, h.engine.cache, stack.id, { template: input });
}

async function reasons(h: Harness): Promise<string[]> {
  const stack = await h.stack('s');
  const events = await h.deps.store.tx((tx) => tx.events.list(stack.id, {}));
  return events.filter((e) => e.resourceName === 'g').map((e) => e.reason);
}

async function clear(h: Harness, hook: string): Promise<void> {
  await signalResource(h.deps, (await h.stack('s')).id, 'g', { unset_hook: hook });
}

describe('hooks on a ResourceGroup', () => {
  it('pre-create stops before the child stack is made', async () => {
    const h = await Harness.create();
    await withHook(h, 's', group(1), 'pre-create', true);
    await h.rounds(5);
    assert.equal(await h.status('s'), 'CREATE_IN_PROGRESS');
    assert.equal((await h.live()).length, 0);
    assert.ok((await reasons(h)).includes('CREATE paused until Hook pre-create is cleared'));
    await clear(h, 'pre-create');
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal((await h.live()).length, 1);
  });

  it('pre-update stops the in-place update (growing the group) until cleared', async () => {
    const h = await Harness.create();
    await withHook(h, 's', group(1), 'pre-update', true);
    await h.settle();
    const child = (await h.rows('s'))[0]!.physicalId;
    await withHook(h, 's', group(2), 'pre-update');
    await h.rounds(5);
    assert.equal(await h.status('s'), 'UPDATE_IN_PROGRESS');
    assert.equal((await h.live()).length, 1, 'the group has not grown');
    assert.ok((await reasons(h)).includes('UPDATE paused until Hook pre-update is cleared'));
    await clear(h, 'pre-update');
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await h.live()).length, 2);
    assert.equal((await h.rows('s'))[0]!.physicalId, child, 'the same child stack, updated in place');
  });

  it('pre-delete stops before the child stack is deleted', async () => {
    const h = await Harness.create();
    await withHook(h, 's', group(1), 'pre-delete', true);
    await h.settle();
    await h.delete('s');
    await h.rounds(5);
    assert.equal((await h.live()).length, 1);
    assert.ok((await reasons(h)).includes('DELETE paused until Hook pre-delete is cleared'));
    await clear(h, 'pre-delete');
    await h.settle();
    assert.equal((await h.live()).length, 0);
  });
});
