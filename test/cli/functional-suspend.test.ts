import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T, Workdir } from './workdir.js';

// Stack suspend / resume (Heat's stack_suspend / stack_resume, and its functional test of a
// template resource's suspend and resume): every resource, nested ones included, in order.

const HOT = 'heat_template_version: 2018-08-31';
const FILES = {
  't.yaml': `${HOT}
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, depends_on: a, properties: {value: b}}
  c: {type: ${T}, depends_on: b, properties: {value: c}}
  nested: {type: nested.yaml, depends_on: c}
`,
  'nested.yaml': `${HOT}
resources:
  inner: {type: ${T}, properties: {value: x}}
`,
};

/** Resource names in the order their events with this status came (the top stack's). */
async function order(w: Workdir, status: string): Promise<string[]> {
  return (await w.events('s')).filter((e) => e.resource_status === status).map((e) => e.resource_name);
}

describe('functional: suspend and resume', () => {
  it('suspends dependents first and resumes dependencies first, nested stacks included', async () => {
    const w = new Workdir(FILES);
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);

    assert.equal(await w.finished(['stack', 'suspend', 's', '--wait']), 'SUSPEND_COMPLETE');
    for (const row of await w.resources('s', 1))
      assert.equal(row.resource_status, 'SUSPEND_COMPLETE', `${row.resource_name} is suspended`);
    assert.deepEqual(await order(w, 'SUSPEND_COMPLETE'), ['nested', 'c', 'b', 'a', 's']);

    // Suspended already: nothing to do, as in Heat.
    await w.ok(['stack', 'suspend', 's', '--wait']);
    assert.deepEqual(await order(w, 'SUSPEND_COMPLETE'), ['nested', 'c', 'b', 'a', 's']);

    const refused = await w.run(['stack', 'resource', 'signal', 's', 'a']);
    assert.notEqual(refused.code, 0, 'a suspended resource takes no signal');

    assert.equal(await w.finished(['stack', 'resume', 's', '--wait']), 'RESUME_COMPLETE');
    for (const row of await w.resources('s', 1))
      assert.equal(row.resource_status, 'RESUME_COMPLETE', `${row.resource_name} is resumed`);
    assert.deepEqual(await order(w, 'RESUME_COMPLETE'), ['a', 'b', 'c', 'nested', 's']);

    // The stack updates as usual afterwards.
    assert.equal(await w.finished(['stack', 'update', 's', '-t', 't.yaml', '--wait']), 'UPDATE_COMPLETE');
  });

  it('fails a resume of a stack that was not suspended, naming the state (as Heat)', async () => {
    const w = new Workdir(FILES);
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const resumed = await w.run(['stack', 'resume', 's', '--wait']);
    assert.notEqual(resumed.code, 0);
    const shown = await w.show('s');
    assert.equal(shown.stack_status, 'RESUME_FAILED');
    assert.match(shown.stack_status_reason, /State CREATE_COMPLETE invalid for resume/);
  });
});
