/**
 * Heat's functional test test_os_wait_condition through the real CLI: a stack with a wait
 * condition handle and a wait condition, created with `--wait` in one process while the handle is
 * signalled from others (`stack resource signal`), as the server's user data does with curl in
 * Heat's test: signals with and without reason and data, one id sent twice, a burst in parallel.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ResourceRow, Workdir } from './workdir.js';

const TEMPLATE = (count: number) => `heat_template_version: 2013-05-23
parameters:
  timeout: {type: number, default: 120}
resources:
  wait_condition:
    type: OS::Heat::WaitCondition
    properties:
      count: ${count}
      handle: {get_resource: wait_handle}
      timeout: {get_param: timeout}
  wait_handle:
    type: OS::Heat::WaitConditionHandle
outputs:
  curl_cli:
    value: {get_attr: [wait_handle, curl_cli]}
  wc_data:
    value: {get_attr: [wait_condition, data]}
`;

/** Waits until the condition is waiting (the create process is parked on the handle's signals). */
async function untilWaiting(w: Workdir): Promise<void> {
  await w.until('the wait condition is waiting', async () => {
    const r = await w.run(['stack', 'resource', 'list', 's', '-f', 'json']);
    if (r.code !== 0) return false;
    const rows = JSON.parse(r.stdout) as ResourceRow[];
    return rows.some(
      (x) => x.resource_name === 'wait_condition' && x.resource_status === 'CREATE_IN_PROGRESS',
    );
  });
}

function signal(w: Workdir, data: object) {
  return w.ok(['stack', 'resource', 'signal', 's', 'wait_handle', '--data', JSON.stringify(data)]);
}

describe('functional: OS::Heat::WaitCondition (test_os_wait_condition)', () => {
  it('a create waits for the signals sent from other processes, then shows their data', async () => {
    // 4 signals, one id twice, 5 in parallel: 10 distinct ids.
    const w = new Workdir({ 't.yaml': TEMPLATE(10) });
    const create = w.start(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    await untilWaiting(w);

    await signal(w, { status: 'SUCCESS' });
    await signal(w, { status: 'SUCCESS', reason: 'signal2' });
    await signal(w, { status: 'SUCCESS', reason: 'signal3', data: 'data3' });
    await signal(w, { status: 'SUCCESS', reason: 'signal4', data: 'data4' });
    await signal(w, { status: 'SUCCESS', id: 'test5' });
    await signal(w, { status: 'SUCCESS', id: 'test5' });
    assert.equal(await w.status('s'), 'CREATE_IN_PROGRESS', '5 distinct ids of 10');
    await Promise.all([1, 2, 3, 4, 5].map(() => signal(w, { status: 'SUCCESS' })));

    const done = await create.done;
    assert.equal(done.code, 0, done.stderr + done.stdout);
    const view = await w.show('s');
    assert.equal(view.stack_status, 'CREATE_COMPLETE');
    const outputs = await w.outputs('s');
    // Heat's curl command prefix, pointing at the API's signal route of this handle, with a signal token.
    assert.match(
      outputs.curl_cli as string,
      new RegExp(
        "^curl -i -X POST -H 'X-Auth-Token: hsig_[\\w-]+\\.[\\w-]+' -H 'Content-Type: application/json' " +
          "-H 'Accept: application/json' http://127\\.0\\.0\\.1:8004/v1/local/stacks/s/" +
          `${view.id}/resources/wait_handle/signal$`,
      ),
    );
    assert.equal(
      outputs.wc_data,
      '{"1": null, "2": null, "3": "data3", "4": "data4", "test5": null, ' +
        '"6": null, "7": null, "8": null, "9": null, "10": null}',
    );
    const handleEvents = (await w.events('s')).filter((e) => e.resource_name === 'wait_handle');
    assert.ok(
      handleEvents.some((e) => e.resource_status_reason === 'Signal: status:SUCCESS reason:signal3'),
      JSON.stringify(handleEvents),
    );
  });

  it("a bad status is refused with Heat's message; a FAILURE signal fails the create with its reason", async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE(2) });
    const create = w.start(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    await untilWaiting(w);

    const bad = await w.run([
      'stack',
      'resource',
      'signal',
      's',
      'wait_handle',
      '--data',
      '{"status": "OK"}',
    ]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, 'Error: Signal failed: Metadata format invalid\n');

    await signal(w, { status: 'FAILURE', reason: 'install failed' });
    const done = await create.done;
    assert.notEqual(done.code, 0);
    assert.match(
      done.stderr,
      /CREATE_FAILED: Resource CREATE failed: WaitConditionFailure: resources\.wait_condition: install failed/,
    );
    const rows = await w.resources('s');
    const wc = rows.find((r) => r.resource_name === 'wait_condition')!;
    assert.equal(wc.resource_status, 'CREATE_FAILED');
    assert.equal(wc.resource_status_reason, 'WaitConditionFailure: resources.wait_condition: install failed');
  });
});
