import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cancelStack, markUnhealthy } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import { Harness } from './harness.js';

const T = 'OS::Heat::TestResource';

const chain = (value: string, waitSecs = 0, extra = '') => `heat_template_version: 2018-08-31
parameters:
  wait: {type: number, default: ${waitSecs}}
resources:
  test1: {type: ${T}, properties: {value: ${value}, action_wait_secs: {create: {get_param: wait}, update: {get_param: wait}}}}
  test2: {type: ${T}, properties: {value: {get_attr: [test1, output]}}}
${extra}`;

async function id(h: Harness): Promise<string> {
  return (await findStack(h.deps, 'p', 's')).id;
}

describe('stack operations', () => {
  it('cancel without rollback: the running resource finishes, the next one is never touched', async () => {
    const h = await Harness.create();
    await h.create('s', chain('a', 10));
    await h.round(); // test1's create starts and waits
    await cancelStack(h.deps, await id(h), { rollback: false });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.match((await h.stack('s')).reason, /cancelled/);
    const rows = await h.rows('s');
    assert.equal(rows.find((r) => r.name === 'test1')!.status, 'COMPLETE', 'in-flight work finished');
    assert.equal(rows.find((r) => r.name === 'test2')!.action, 'INIT', 'the rest never started');
  });

  it('cancel with rollback returns an update to the previous template', async () => {
    const h = await Harness.create();
    await h.create('s', chain('a'));
    await h.settle();
    await h.update('s', chain('b', 10));
    await h.round();
    await cancelStack(h.deps, await id(h), { rollback: true });
    await h.settle();
    assert.equal(await h.status('s'), 'ROLLBACK_COMPLETE');
    const values = (await h.live()).map((o) => o.properties.value).sort();
    assert.deepEqual(values, ['a', 'a']);
  });

  it('cancel refuses a stack that is not running', async () => {
    const h = await Harness.create();
    await h.create('s', chain('a'));
    await h.settle();
    await assert.rejects(cancelStack(h.deps, await id(h), { rollback: false }), OperationError);
  });

  it('a stack that passes its timeout fails', async () => {
    const h = await Harness.create();
    await h.create(
      's',
      chain('a', 0, `  slow: {type: ${T}, depends_on: test2, properties: {wait_secs: 600}}\n`),
    );
    const stackId = await id(h);
    await h.deps.store.tx(async (tx) => {
      const s = await tx.stacks.get(stackId);
      await tx.stacks.update(s!.id, s!.traversalId, { timeoutMins: 1 });
    });
    await h.rounds(3);
    h.clock.t += 2 * 60_000;
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.equal((await h.stack('s')).reason, 'Timed out');
  });

  it('mark-unhealthy makes the next update replace the resource', async () => {
    const h = await Harness.create();
    await h.create('s', chain('a'));
    await h.settle();
    const before = (await h.rows('s')).find((r) => r.name === 'test1')!;
    await markUnhealthy(h.deps, await id(h), 'test1', 'disk broke');
    assert.equal((await h.rows('s')).find((r) => r.name === 'test1')!.status, 'FAILED');
    await h.update('s', chain('a'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const after = (await h.rows('s')).find((r) => r.name === 'test1')!;
    assert.notEqual(after.physicalId, before.physicalId, 'replaced');
    assert.equal((await h.live()).length, 2, 'the unhealthy one was deleted');
  });
});

describe('immutable parameters', () => {
  const TPL = `heat_template_version: 2018-08-31
parameters:
  flavor: {type: string, immutable: true}
  size: {type: string, default: 'one'}
resources:
  r: {type: ${T}, properties: {value: {list_join: ['-', [{get_param: flavor}, {get_param: size}]]}}}
`;

  it('an update that changes one is refused and touches nothing; other parameters may change', async () => {
    const h = await Harness.create();
    await h.create('s', TPL, { parameters: { flavor: 'small' } });
    await h.settle();
    const before = await h.stack('s');
    await assert.rejects(
      h.update('s', TPL, { parameters: { flavor: 'large' } }),
      (err: unknown) =>
        err instanceof OperationError &&
        err.message === 'The following parameters are immutable and may not be updated: flavor',
    );
    const after = await h.stack('s');
    assert.equal(`${after.action}_${after.status}`, 'CREATE_COMPLETE');
    assert.equal(after.templateId, before.templateId, 'no new template');
    assert.equal(after.traversalId, before.traversalId);

    await h.update('s', TPL, { parameters: { flavor: 'small', size: 'two' } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(
      (await h.live()).map((o) => o.properties.value),
      ['small-two'],
    );
  });

  it('a parameter that is not immutable may change', async () => {
    const h = await Harness.create();
    const mutable = TPL.replace('immutable: true', 'immutable: false');
    await h.create('s', mutable, { parameters: { flavor: 'small' } });
    await h.settle();
    await h.update('s', mutable, { parameters: { flavor: 'large' } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(
      (await h.live()).map((o) => o.properties.value),
      ['large-one'],
    );
  });
});
