import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { history, outputValues, params, parseJson, statuses, T, Workdir } from './workdir.js';

// Heat's functional tests of operations that meet a running one, end to end through the CLI:
// test_stack_cancel.py (cancel an update with and without rollback, cancel a create) and
// test_simultaneous_update.py (updates issued while another runs: the last one wins). Slow
// resources are TestResources with action_wait_secs; the tests poll the CLI for the moment to
// act rather than sleeping. Each test has its own database, so the tests run side by side.

const HOT = 'heat_template_version: 2018-08-31';

/**
 * How long the in-flight action waits: long enough for the next command to arrive while it runs,
 * even on a loaded machine (each command is a new process); the tests take about this long.
 */
const SLOW = 10;

/** Heat's cancel template: test2 follows test1, whose actions wait for `wait` seconds. */
const CANCEL = `${HOT}
parameters:
  v: {type: string, default: one}
  wait: {type: number, default: 0}
resources:
  test1:
    type: ${T}
    properties: {value: {get_param: v}, action_wait_secs: {create: {get_param: wait}, update: {get_param: wait}}}
  test2: {type: ${T}, properties: {value: {get_attr: [test1, output]}}}
outputs:
  test2: {value: {get_attr: [test2, output]}}
`;

/** Polls until a resource of the stack has the status. */
async function untilStatus(w: Workdir, resource: string, status: string): Promise<void> {
  await w.until(`${resource} is ${status}`, async () => {
    const r = await w.run(['stack', 'resource', 'list', 's', '-f', 'json']);
    return r.code === 0 && statuses(parseJson(r.stdout))[resource] === status;
  });
}

/** Creates the cancel stack, then starts a slow update of test1 to "two", returning once test1 is on it. */
async function slowUpdate(w: Workdir) {
  await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
  const before = await w.ids('s');
  const update = w.start([
    'stack',
    'update',
    's',
    '--existing',
    ...params({ v: 'two', wait: SLOW }),
    '--wait',
  ]);
  await untilStatus(w, 'test1', 'UPDATE_IN_PROGRESS');
  return { before, update };
}

describe(
  'cancel and simultaneous updates through the CLI (Heat functional tests)',
  { concurrency: true },
  () => {
    it('test_cancel_update_with_rollback: ROLLBACK_COMPLETE, the old values are back', async () => {
      const w = new Workdir({ 't.yaml': CANCEL });
      const { before, update } = await slowUpdate(w);

      assert.match(await w.ok(['stack', 'cancel', 's', '--wait']), /ROLLBACK_COMPLETE/);
      const background = await update.done;
      assert.equal(background.code, 0, background.stderr);
      assert.match(background.stdout, /ROLLBACK_COMPLETE/);

      const shown = await w.show('s');
      assert.equal(shown.stack_status, 'ROLLBACK_COMPLETE');
      assert.deepEqual(outputValues(shown), { test2: 'one' });
      assert.deepEqual(await w.ids('s'), before);
      assert.equal(await w.attribute('s', 'test1'), 'one', 'test1, updated when the cancel came, is back');
      const events = await w.events('s');
      assert.deepEqual(history(events, 's').slice(2), [
        'UPDATE_IN_PROGRESS',
        'UPDATE_FAILED',
        'ROLLBACK_IN_PROGRESS',
        'ROLLBACK_COMPLETE',
      ]);
      const failed = events.find((e) => e.resource_name === 's' && e.resource_status === 'UPDATE_FAILED')!;
      assert.equal(failed.resource_status_reason, 'Stack UPDATE cancelled');
      assert.deepEqual(
        history(events, 'test2'),
        ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
        'test2 never moved',
      );
    });

    it('test_cancel_update_without_rollback: UPDATE_FAILED; the in-flight test1 completes, test2 is untouched', async () => {
      const w = new Workdir({ 't.yaml': CANCEL });
      const { before, update } = await slowUpdate(w);

      await w.ok(['stack', 'cancel', 's', '--no-rollback', '--wait']);
      const background = await update.done;
      assert.equal(background.code, 1);
      assert.match(background.stderr, /UPDATE_FAILED: Stack UPDATE cancelled/);

      const shown = await w.show('s');
      assert.equal(shown.stack_status, 'UPDATE_FAILED');
      assert.equal(shown.stack_status_reason, 'Stack UPDATE cancelled');
      assert.deepEqual(outputValues(shown), { test2: 'one' });
      const rows = await w.resources('s');
      assert.deepEqual(statuses(rows), { test1: 'UPDATE_COMPLETE', test2: 'CREATE_COMPLETE' });
      assert.deepEqual(
        Object.fromEntries(rows.map((r) => [r.resource_name, r.physical_resource_id])),
        before,
      );
      assert.equal(await w.attribute('s', 'test1'), 'two');

      // The stack can be updated to its end afterwards.
      await w.ok(['stack', 'update', 's', '--existing', ...params({ wait: 0 }), '--wait']);
      assert.deepEqual(await w.outputs('s'), { test2: 'two' });
    });

    it('test_cancel_create_without_rollback: CREATE_FAILED; test1 completes, test2 is never created', async () => {
      const w = new Workdir({ 't.yaml': CANCEL });
      const create = w.start(['stack', 'create', 's', '-t', 't.yaml', ...params({ wait: SLOW }), '--wait']);
      await untilStatus(w, 'test1', 'CREATE_IN_PROGRESS');
      await w.ok(['stack', 'cancel', 's', '--no-rollback', '--wait']);
      const background = await create.done;
      assert.equal(background.code, 1);
      assert.match(background.stderr, /CREATE_FAILED: Stack CREATE cancelled/);
      assert.equal(await w.status('s'), 'CREATE_FAILED');
      assert.deepEqual(statuses(await w.resources('s')), {
        test1: 'CREATE_COMPLETE',
        test2: 'INIT_COMPLETE',
      });
    });

    it('a second and a third update issued while the first runs: the stack ends exactly as the third template', async () => {
      const tpl = (a: string, wait: number, others: string) => `${HOT}
resources:
  a: {type: ${T}, properties: {value: ${a}, action_wait_secs: {update: ${wait}}}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
${others}outputs:
  b: {value: {get_attr: [b, output]}}
`;
      const v4 = tpl('v4', 0, `  e: {type: OS::Heat::Value, properties: {value: {get_attr: [b, output]}}}\n`);
      const w = new Workdir({
        'v1.yaml': tpl('v1', 0, `  c: {type: ${T}, properties: {value: c1}}\n`),
        'v2.yaml': tpl('v2', SLOW, `  c: {type: ${T}, properties: {value: c2}}\n`),
        'v3.yaml': tpl(
          'v3',
          0,
          `  c: {type: ${T}, properties: {value: c3}}\n  d: {type: ${T}, properties: {value: d3}}\n`,
        ),
        'v4.yaml': v4,
      });
      await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
      const before = await w.ids('s');

      const first = w.start(['stack', 'update', 's', '-t', 'v2.yaml', '--wait', '-f', 'json']);
      await untilStatus(w, 'a', 'UPDATE_IN_PROGRESS');
      const second = w.start(['stack', 'update', 's', '-t', 'v3.yaml', '--wait', '-f', 'json']);
      // The second update has begun once the row of the resource it adds exists.
      let rows = await w.resources('s');
      await w.until('the second update has begun', async () => {
        rows = await w.resources('s');
        return rows.some((r) => r.resource_name === 'd');
      });
      assert.equal(statuses(rows).a, 'UPDATE_IN_PROGRESS', "the first update's slow action is still running");

      const third = await w.json<{ stack_status: string }>([
        'stack',
        'update',
        's',
        '-t',
        'v4.yaml',
        '--wait',
      ]);
      assert.equal(third.stack_status, 'UPDATE_COMPLETE');
      for (const background of [await first.done, await second.done]) {
        assert.equal(background.code, 0, background.stderr);
        assert.equal(parseJson<{ stack_status: string }>(background.stdout).stack_status, 'UPDATE_COMPLETE');
      }

      const shown = await w.show('s');
      assert.equal(shown.stack_status, 'UPDATE_COMPLETE');
      assert.deepEqual(outputValues(shown), { b: 'v4' });
      assert.equal(await w.ok(['stack', 'template', 'show', 's']), v4);
      const after = await w.resources('s');
      assert.deepEqual(statuses(after), { a: 'UPDATE_COMPLETE', b: 'UPDATE_COMPLETE', e: 'CREATE_COMPLETE' });
      const ids = Object.fromEntries(after.map((r) => [r.resource_name, r.physical_resource_id]));
      assert.deepEqual([ids.a, ids.b], [before.a, before.b], 'a and b were updated in place');
      assert.equal(await w.attribute('s', 'a'), 'v4');
      assert.equal(await w.attribute('s', 'e', 'value'), 'v4');
      const events = await w.events('s');
      assert.deepEqual(history(events, 'c').slice(-2), ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
      assert.equal(
        history(events, 'd').at(-1),
        'DELETE_COMPLETE',
        'what only the second update added is gone',
      );
    });
  },
);
