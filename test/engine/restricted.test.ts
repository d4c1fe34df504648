import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import { updateStack } from '../../src/engine/operations/update.js';
import { parseEnvironment } from '../../src/template/environment/index.js';
import { Harness } from './harness.js';

// restricted_actions (restricted.ts) on the engine's side: what the CLI tests cannot reach.

const T = 'OS::Heat::TestResource';
const template = (value: string, wait = 0) =>
  `heat_template_version: 2018-08-31\nresources:\n  bar: {type: ${T}, properties: {value: ${value}, wait_secs: ${wait}}}\n`;
const RESTRICT = 'resource_registry:\n  resources:\n    bar: {restricted_actions: update}\n';

describe('restricted_actions', () => {
  it('a stack with an operation in progress is not failed under it: the request is refused', async () => {
    const h = await Harness.create();
    await h.create('s', template('a'));
    await h.settle();
    await h.update('s', template('b', 60));
    await h.round();
    const before = await h.stack('s');
    assert.equal(before.status, 'IN_PROGRESS');
    const rows = await h.rows('s');

    const input = { ...h.input(template('c')), environment: parseEnvironment('env.yaml', RESTRICT) };
    const stack = await findStack(h.deps, 'p', 's');
    await assert.rejects(
      updateStack(h.deps, h.engine.cache, stack.id, { template: input }),
      (err: unknown) =>
        err instanceof OperationError &&
        err.code === 'conflict' &&
        /UPDATE_IN_PROGRESS; .*resources\.bar: update is restricted for resource\./.test(err.message),
    );
    assert.deepEqual(await h.stack('s'), before, 'the running update goes on');
    assert.deepEqual(await h.rows('s'), rows);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
  });

  it('an environment with restricted_actions that the update does not trigger costs one preview, then runs as usual', async () => {
    const h = await Harness.create();
    await h.create('s', template('a'));
    await h.settle();
    const input = { ...h.input(template('a')), environment: parseEnvironment('env.yaml', RESTRICT) };
    const stack = await findStack(h.deps, 'p', 's');
    await updateStack(h.deps, h.engine.cache, stack.id, { template: input });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
  });
});

describe('restricted_actions inside a ResourceGroup', () => {
  const group = (value: string) => `heat_template_version: 2018-08-31
resources:
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: ${T}, properties: {value: ${value}}}
`;
  it('an update that would update a restricted member fails up front and changes nothing', async () => {
    const h = await Harness.create();
    await h.create('s', group('a'));
    await h.settle();
    const rows = await h.rows('s');
    const env = 'resource_registry:\n  resources:\n    g:\n      "1": {restricted_actions: update}\n';
    const input = { ...h.input(group('b')), environment: parseEnvironment('env.yaml', env) };
    const stack = await findStack(h.deps, 'p', 's');
    const failed = await updateStack(h.deps, h.engine.cache, stack.id, { template: input });
    assert.equal(`${failed.action}_${failed.status}`, 'UPDATE_FAILED');
    assert.match(failed.reason, /ResourceActionRestricted: .*g.*1.*: update is restricted for resource\./);
    await h.settle();
    assert.deepEqual(await h.rows('s'), rows, 'the group and its members are as they were');
  });
});
