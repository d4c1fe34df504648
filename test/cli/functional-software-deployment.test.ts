/**
 * OS::Heat::SoftwareDeployment through the real CLI: a create waits (`--wait` in one process) while
 * the deployment's outputs are signalled from another (`stack resource signal`), as an agent's
 * CFN_SIGNAL does; an update with another input waits again and changes the outputs; a non-zero
 * status code fails the deployment with the reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ResourceRow, Workdir } from './workdir.js';

const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  foo: {type: string, default: one}
resources:
  server: {type: OS::Heat::None}
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      config: "#!/bin/sh\\necho $foo"
      inputs: [{name: foo}]
      outputs: [{name: result}]
  deploy:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server}
      input_values: {foo: {get_param: foo}}
outputs:
  stdout: {value: {get_attr: [deploy, deploy_stdout]}}
  result: {value: {get_attr: [deploy, result]}}
`;

async function untilWaiting(w: Workdir, status: string): Promise<void> {
  await w.until(`the deployment is ${status}`, async () => {
    const r = await w.run(['stack', 'resource', 'list', 's', '-f', 'json']);
    if (r.code !== 0) return false;
    const rows = JSON.parse(r.stdout) as ResourceRow[];
    return rows.some((x) => x.resource_name === 'deploy' && x.resource_status === status);
  });
}

function signal(w: Workdir, data: object) {
  return w.ok(['stack', 'resource', 'signal', 's', 'deploy', '--data', JSON.stringify(data)]);
}

describe('functional: OS::Heat::SoftwareDeployment signalled through the CLI', () => {
  it('create and update wait for the outputs signalled from another process', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    const create = w.start(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    await untilWaiting(w, 'CREATE_IN_PROGRESS');
    await signal(w, { deploy_stdout: 'hello', deploy_stderr: '', deploy_status_code: 0, result: 'R1' });
    const done = await create.done;
    assert.equal(done.code, 0, done.stderr + done.stdout);
    assert.deepEqual(await w.outputs('s'), { stdout: 'hello', result: 'R1' });

    const update = w.start(['stack', 'update', 's', '-t', 't.yaml', '--parameter', 'foo=two', '--wait']);
    await untilWaiting(w, 'UPDATE_IN_PROGRESS');
    await signal(w, { deploy_stdout: 'again', deploy_status_code: 0, result: 'R2' });
    const updated = await update.done;
    assert.equal(updated.code, 0, updated.stderr + updated.stdout);
    assert.deepEqual(await w.outputs('s'), { stdout: 'again', result: 'R2' });
  });

  it('a non-zero status code fails the deployment, the reason in the stack', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    const create = w.start(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    await untilWaiting(w, 'CREATE_IN_PROGRESS');
    await signal(w, { deploy_stdout: '', deploy_stderr: 'disk full', deploy_status_code: 1 });
    const done = await create.done;
    assert.notEqual(done.code, 0);
    const view = await w.show('s');
    assert.equal(view.stack_status, 'CREATE_FAILED');
    assert.equal(
      view.stack_status_reason,
      'Resource CREATE failed: Error: resources.deploy: Deployment to server failed: ' +
        'deploy_status_code : Deployment exited with non-zero status code: 1 (deploy_stderr: disk full)',
    );
  });
});
