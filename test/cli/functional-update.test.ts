import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { history, outputValues, params, parseJson, statuses, T, Workdir } from './workdir.js';

// Heat's functional tests of stack updates (heat_integrationtests/functional/test_create_update.py),
// end to end through the `hearth` CLI: resources added, removed and changed; in-place updates
// against replacements and the dependents of a replaced resource; failed updates with and
// without rollback. Each test has its own database, so the tests run side by side.

const HOT = 'heat_template_version: 2018-08-31';

describe('stack update through the CLI (Heat functional test_create_update)', { concurrency: true }, () => {
  it('adds, removes and changes resources; the same template again changes nothing; delete removes all', async () => {
    const v1 = `${HOT}
resources:
  keep: {type: ${T}, properties: {value: kept}}
  change: {type: ${T}, properties: {value: before}}
  drop: {type: ${T}, properties: {value: dropped}}
outputs:
  change: {value: {get_attr: [change, output]}}
`;
    const v2 = `${HOT}
resources:
  keep: {type: ${T}, properties: {value: kept}}
  change: {type: ${T}, properties: {value: after}}
  add: {type: ${T}, properties: {value: {get_attr: [change, output]}}}
outputs:
  change: {value: {get_attr: [change, output]}}
  add: {value: {get_attr: [add, output]}}
`;
    const w = new Workdir({ 'v1.yaml': v1, 'v2.yaml': v2 });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    const before = await w.ids('s');
    assert.deepEqual(Object.keys(before).sort(), ['change', 'drop', 'keep']);

    const updated = await w.json<{ stack_status: string }>([
      'stack',
      'update',
      's',
      '-t',
      'v2.yaml',
      '--wait',
    ]);
    assert.equal(updated.stack_status, 'UPDATE_COMPLETE');
    const rows = await w.resources('s');
    const after = Object.fromEntries(rows.map((r) => [r.resource_name, r.physical_resource_id]));
    assert.deepEqual(Object.keys(after).sort(), ['add', 'change', 'keep'], 'drop is gone, add is there');
    assert.equal(after.keep, before.keep);
    assert.equal(after.change, before.change, 'value is update_allowed: changed in place');
    assert.deepEqual(statuses(rows), {
      keep: 'CREATE_COMPLETE',
      change: 'UPDATE_COMPLETE',
      add: 'CREATE_COMPLETE',
    });
    assert.deepEqual(await w.outputs('s'), { change: 'after', add: 'after' });

    const events = await w.events('s');
    const dropped = events.filter((e) => e.resource_name === 'drop');
    assert.deepEqual(
      dropped.map((e) => e.resource_status),
      ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE', 'DELETE_IN_PROGRESS', 'DELETE_COMPLETE'],
    );
    assert.equal(dropped.at(-1)!.physical_resource_id, before.drop);
    assert.deepEqual(history(events, 'add'), ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    assert.deepEqual(history(events, 'change').slice(2), ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE']);
    assert.deepEqual(
      history(events, 'keep'),
      ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
      'keep was left alone',
    );
    assert.deepEqual(history(events, 's'), [
      'CREATE_IN_PROGRESS',
      'CREATE_COMPLETE',
      'UPDATE_IN_PROGRESS',
      'UPDATE_COMPLETE',
    ]);

    // test_stack_update_nochange: the same template again keeps every resource as it is.
    await w.ok(['stack', 'update', 's', '-t', 'v2.yaml', '--wait']);
    assert.deepEqual(await w.resources('s'), rows);

    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    assert.equal(await w.ok(['stack', 'list', '-f', 'value']), '');
    assert.match((await w.run(['stack', 'resource', 'list', 's'])).stderr, /stack "s" not found/);
  });

  it('updates in place or replaces; dependents of a replaced resource are repointed before the old one goes', async () => {
    const w = new Workdir({
      't.yaml': `${HOT}
parameters:
  v: {type: string, default: one}
  fixed: {type: string, default: f1}
resources:
  inplace: {type: ${T}, properties: {value: {get_param: v}}}
  replaced: {type: ${T}, properties: {value: {get_param: v}, update_replace: true}}
  fixed: {type: ${T}, properties: {update_replace_value: {get_param: fixed}}}
  ref: {type: ${T}, properties: {value: {get_resource: replaced}}}
  att: {type: ${T}, properties: {value: {get_attr: [replaced, output]}}}
  untouched: {type: ${T}, properties: {value: same}}
outputs:
  replaced_id: {value: {get_resource: replaced}}
  ref: {value: {get_attr: [ref, output]}}
  att: {value: {get_attr: [att, output]}}
`,
    });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const before = await w.ids('s');
    assert.deepEqual(await w.outputs('s'), {
      replaced_id: before.replaced,
      ref: before.replaced,
      att: 'one',
    });

    // value is update_allowed, but TestResource replaces itself when update_replace is set;
    // update_replace_value cannot be updated at all.
    await w.ok(['stack', 'update', 's', '--existing', ...params({ v: 'two', fixed: 'f2' }), '--wait']);
    const rows = await w.resources('s');
    const after = Object.fromEntries(rows.map((r) => [r.resource_name, r.physical_resource_id]));
    assert.equal(rows.length, 6, 'the old rows of the replaced resources are gone');
    assert.equal(after.inplace, before.inplace, 'test_stack_in_place_update: the same physical id');
    assert.notEqual(after.replaced, before.replaced, 'test_stack_update_replace: a new physical id');
    assert.notEqual(after.fixed, before.fixed, 'a property that cannot be updated replaces');
    assert.equal(after.ref, before.ref, 'ref was updated in place to point at the new resource');
    assert.equal(after.att, before.att);
    assert.equal(after.untouched, before.untouched);
    assert.deepEqual(statuses(rows), {
      inplace: 'UPDATE_COMPLETE',
      replaced: 'CREATE_COMPLETE',
      fixed: 'CREATE_COMPLETE',
      ref: 'UPDATE_COMPLETE',
      att: 'UPDATE_COMPLETE',
      untouched: 'CREATE_COMPLETE',
    });
    assert.deepEqual(await w.outputs('s'), { replaced_id: after.replaced, ref: after.replaced, att: 'two' });
    assert.equal(await w.attribute('s', 'ref'), after.replaced);

    // The old physical resources were deleted, after the dependents moved to the new one.
    const events = await w.events('s');
    const at = (name: string, status: string, physical?: string) =>
      events.findIndex(
        (e) =>
          e.resource_name === name &&
          e.resource_status === status &&
          (physical === undefined || e.physical_resource_id === physical),
      );
    for (const name of ['replaced', 'fixed']) {
      const old = events.filter((e) => e.physical_resource_id === before[name]).map((e) => e.resource_status);
      assert.deepEqual(
        old.slice(-2),
        ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE'],
        `the old ${name} was deleted`,
      );
      const kept = events.filter((e) => e.physical_resource_id === after[name]).map((e) => e.resource_status);
      assert.deepEqual(kept, ['CREATE_COMPLETE'], `the new ${name} was not`);
    }
    const oldDeleted = at('replaced', 'DELETE_IN_PROGRESS', before.replaced);
    assert.ok(
      at('replaced', 'CREATE_COMPLETE', after.replaced) < oldDeleted,
      'created before the old one goes',
    );
    assert.ok(at('ref', 'UPDATE_COMPLETE') < oldDeleted, 'ref moved away before the old one was deleted');
    assert.ok(at('att', 'UPDATE_COMPLETE') < oldDeleted, 'att moved away before the old one was deleted');
  });

  it('a failed update without rollback: UPDATE_FAILED with the reason; a later good update recovers', async () => {
    const w = new Workdir({
      'v1.yaml': `${HOT}\nresources:\n  first: {type: ${T}, properties: {value: one}}\n`,
      'v2.yaml': `${HOT}
parameters:
  v: {type: string, default: one}
  fail: {type: boolean, default: false}
resources:
  first: {type: ${T}, properties: {value: {get_param: v}}}
  bad: {type: ${T}, depends_on: first, properties: {value: {get_param: v}, fail: {get_param: fail}}}
  after: {type: ${T}, properties: {value: {get_attr: [bad, output]}}}
outputs:
  after: {value: {get_attr: [after, output]}}
`,
    });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    const first = (await w.ids('s')).first;

    const failed = await w.run([
      'stack',
      'update',
      's',
      '-t',
      'v2.yaml',
      ...params({ v: 'two', fail: true }),
      '--wait',
    ]);
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /UPDATE_FAILED: Resource CREATE failed: ValueError: resources\.bad: Test Resource failed bad/,
    );
    const shown = await w.show('s');
    assert.equal(shown.stack_status, 'UPDATE_FAILED');
    assert.equal(
      shown.stack_status_reason,
      'Resource CREATE failed: ValueError: resources.bad: Test Resource failed bad',
    );
    assert.deepEqual(statuses(await w.resources('s')), {
      first: 'UPDATE_COMPLETE',
      bad: 'CREATE_FAILED',
      after: 'INIT_COMPLETE',
    });
    assert.equal(await w.attribute('s', 'first'), 'two', 'what ran before the failure stays done');

    // test_stack_update_from_failed(_patch): the failure fixed by a parameter, the rest reused.
    const fixed = await w.json<{ stack_status: string }>([
      'stack',
      'update',
      's',
      '--existing',
      ...params({ fail: false }),
      '--wait',
    ]);
    assert.equal(fixed.stack_status, 'UPDATE_COMPLETE');
    const rows = await w.resources('s');
    assert.deepEqual(statuses(rows), {
      first: 'UPDATE_COMPLETE',
      bad: 'CREATE_COMPLETE',
      after: 'CREATE_COMPLETE',
    });
    assert.equal(rows.find((r) => r.resource_name === 'first')!.physical_resource_id, first);
    assert.deepEqual(outputValues(await w.show('s')), { after: 'two' });
  });

  it('a failed update with rollback: ROLLBACK_COMPLETE, the previous values and resources are back', async () => {
    const tpl = (value: string, bad: string) => `${HOT}
resources:
  first: {type: ${T}, properties: {value: ${value}}}
  second: {type: ${T}, properties: {value: {get_attr: [first, output]}}}
${bad}outputs:
  second: {value: {get_attr: [second, output]}}
`;
    const w = new Workdir({
      'v1.yaml': tpl('one', ''),
      'v2.yaml': tpl('two', `  bad: {type: ${T}, depends_on: second, properties: {fail: true}}\n`),
    });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    const before = await w.ids('s');

    const r = await w.run([
      'stack',
      'update',
      's',
      '-t',
      'v2.yaml',
      '--rollback',
      'enabled',
      '--wait',
      '-f',
      'json',
    ]);
    // As with the openstack client, a rollback that completes is not a failure of the command.
    assert.equal(r.code, 0, r.stderr);
    const stack = parseJson<{ stack_status: string; disable_rollback: boolean }>(r.stdout);
    assert.equal(stack.stack_status, 'ROLLBACK_COMPLETE');
    assert.equal(stack.disable_rollback, false);
    assert.match(r.stderr, /\[bad\]: CREATE_FAILED/);

    assert.deepEqual(await w.ids('s'), before, 'test_stack_update_rollback: only the original resources');
    assert.deepEqual(await w.outputs('s'), { second: 'one' });
    assert.equal(await w.attribute('s', 'first'), 'one');
    const events = await w.events('s');
    assert.deepEqual(history(events, 's').slice(2), [
      'UPDATE_IN_PROGRESS',
      'UPDATE_FAILED',
      'ROLLBACK_IN_PROGRESS',
      'ROLLBACK_COMPLETE',
    ]);
    const bad = history(events, 'bad');
    assert.deepEqual(bad.slice(0, 2), ['CREATE_IN_PROGRESS', 'CREATE_FAILED']);
    assert.equal(bad.at(-1), 'DELETE_COMPLETE', 'the failed resource was removed by the rollback');
    assert.deepEqual(history(events, 'first').slice(2), [
      'UPDATE_IN_PROGRESS',
      'UPDATE_COMPLETE',
      'UPDATE_IN_PROGRESS',
      'UPDATE_COMPLETE',
    ]);
  });

  // Going back by hand (a new update, so a new template) to the definition of a resource whose
  // replacement failed keeps the original, as in Heat (plan.ts: a failed replacement does not
  // take the name from its original).
  it('test_stack_update_replace_manual_rollback: the old template again keeps the original', async () => {
    const w = new Workdir({
      't.yaml': `${HOT}
parameters:
  fixed: {type: string, default: '1'}
  fail: {type: boolean, default: false}
resources:
  test1: {type: ${T}, properties: {update_replace_value: {get_param: fixed}, fail: {get_param: fail}}}
`,
    });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const original = (await w.ids('s')).test1;
    const failed = await w.run([
      'stack',
      'update',
      's',
      '--existing',
      ...params({ fixed: 2, fail: true }),
      '--wait',
    ]);
    assert.equal(failed.code, 1);
    assert.equal(await w.status('s'), 'UPDATE_FAILED');
    await w.ok(['stack', 'update', 's', '--existing', ...params({ fixed: 1, fail: false }), '--wait']);
    assert.deepEqual(
      await w.ids('s'),
      { test1: original },
      'the replacement never existed: the original is kept',
    );
  });

  it('rolling back an update whose replacement completed keeps the original physical resource', async () => {
    const tpl = (value: string, bad: string) =>
      `${HOT}\nresources:\n  replaced: {type: ${T}, properties: {value: ${value}, update_replace: true}}\n${bad}`;
    const w = new Workdir({
      'v1.yaml': tpl('one', ''),
      'v2.yaml': tpl('two', `  bad: {type: ${T}, depends_on: replaced, properties: {fail: true}}\n`),
    });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    const original = (await w.ids('s')).replaced;
    assert.equal(
      await w.finished(['stack', 'update', 's', '-t', 'v2.yaml', '--rollback', 'enabled', '--wait']),
      'ROLLBACK_COMPLETE',
    );
    assert.deepEqual(await w.ids('s'), { replaced: original }, 'the original survives, its replacement goes');
    assert.equal(await w.attribute('s', 'replaced'), 'one');
  });
});
