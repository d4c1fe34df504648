import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openstack, openstackSkip, type ServeProcess, startNoauthServe } from './serve-process.js';

// `openstack software config ...` and `openstack software deployment ...` (python-heatclient's
// commands) against `hearth serve`: what they send and parse, end to end.
describe('openstack client: software configs and deployments', { skip: await openstackSkip() }, () => {
  let server: ServeProcess;
  let dir: string;
  before(async () => {
    server = await startNoauthServe();
    dir = mkdtempSync(join(tmpdir(), 'hearth-sw-cli-'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) => openstack(server, args);
  const json = async (...args: string[]) =>
    JSON.parse(await run(...args, '-f', 'json')) as Record<string, unknown>;
  const api = (path: string, init?: RequestInit) => fetch(`${server.url}/v1/admin${path}`, init);

  it('config create/list/show/delete; deployment create/show/list/metadata/output/delete', async () => {
    const script = join(dir, 'hello.sh');
    const definition = join(dir, 'definition.yaml');
    writeFileSync(script, '#!/bin/sh\necho "hello $foo" > $heat_outputs_path.result\n');
    writeFileSync(definition, 'inputs:\n- name: foo\n  default: bar\noutputs:\n- name: result\n');
    const made = await json(
      'software',
      'config',
      'create',
      'hello',
      '--config-file',
      script,
      '--definition-file',
      definition,
      '--group',
      'script',
    );
    assert.equal(made.name, 'hello');
    assert.equal(made.group, 'script');
    assert.equal(made.config, '#!/bin/sh\necho "hello $foo" > $heat_outputs_path.result\n');
    assert.deepEqual(made.inputs, [{ name: 'foo', type: 'String', default: 'bar' }]);
    const configId = String(made.id);

    // The client's default transport makes a Swift TempURL itself, before it asks Hearth to
    // store anything (as against a Heat without Swift, it fails there): nothing is made. Each
    // client run takes seconds to start: independent ones run at once.
    const [list, shown, tempUrl, deployment] = await Promise.all([
      run('software', 'config', 'list', '-f', 'json').then(
        (out) => JSON.parse(out) as Record<string, unknown>[],
      ),
      json('software', 'config', 'show', configId),
      run('software', 'deployment', 'create', '--config', configId, '--server', 'srv-1', 'd0').then(
        () => 'made',
        () => 'refused',
      ),
      json(
        'software',
        'deployment',
        'create',
        'd1',
        '--config',
        configId,
        '--server',
        'srv-1',
        '--signal-transport',
        'NO_SIGNAL',
        '--input-value',
        'foo=world',
        '--action',
        'CREATE',
      ),
    ]);
    assert.deepEqual(
      list.filter((c) => c.id === configId).map((c) => [c.name, c.group]),
      [['hello', 'script']],
    );
    assert.equal(shown.config, made.config);
    assert.deepEqual(shown.outputs, [{ name: 'result', type: 'String', error_output: false }]);
    assert.equal(tempUrl, 'refused');
    assert.equal(deployment.status, 'IN_PROGRESS');
    assert.equal(deployment.action, 'CREATE');
    assert.equal(deployment.server_id, 'srv-1');
    const deploymentId = String(deployment.id);
    const derivedId = String(deployment.config_id);
    assert.notEqual(derivedId, configId, 'the deployment has its derived config');
    const configs = (await (await api('/software_configs')).json()) as {
      software_configs: { name: string }[];
    };
    assert.deepEqual(configs.software_configs.map((c) => c.name).sort(), ['d1', 'hello'], 'nothing of d0');

    // What an agent's signal leaves (the service's signal; here by the update route).
    const put = await api(`/software_deployments/${deploymentId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        status: 'COMPLETE',
        status_reason: 'Outputs received',
        output_values: { result: 'hello world' },
      }),
    });
    assert.equal(put.status, 200, await put.text());
    const [deployments, metadata, long, output] = await Promise.all([
      run('software', 'deployment', 'list', '--server', 'srv-1', '-f', 'json').then(
        (out) => JSON.parse(out) as Record<string, unknown>[],
      ),
      run('software', 'deployment', 'metadata', 'show', 'srv-1').then(
        (out) => JSON.parse(out) as Record<string, unknown>[],
      ),
      json('software', 'deployment', 'show', deploymentId, '--long'),
      run('software', 'deployment', 'output', 'show', deploymentId, 'result'),
    ]);
    assert.deepEqual(
      deployments.map((d) => [d.id, d.config_id, d.status]),
      [[deploymentId, derivedId, 'COMPLETE']],
    );
    assert.equal(metadata.length, 1);
    assert.equal(metadata[0]!.name, 'd1');
    const inputs = Object.fromEntries(
      (metadata[0]!.inputs as { name: string; value: unknown }[]).map((i) => [i.name, i.value]),
    );
    assert.deepEqual(inputs, {
      foo: 'world',
      deploy_server_id: 'srv-1',
      deploy_action: 'CREATE',
      deploy_signal_transport: 'NO_SIGNAL',
    });

    assert.equal(long.status, 'COMPLETE');
    assert.deepEqual(long.output_values, { result: 'hello world' });
    assert.match(String(long.updated_time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(output, /hello world/);

    // Its delete deletes the derived config too (the client's second call).
    await Promise.all([
      run('software', 'deployment', 'delete', deploymentId),
      run('software', 'config', 'delete', configId),
    ]);
    assert.equal((await api(`/software_deployments/${deploymentId}`)).status, 404);
    const left = (await (await api('/software_configs')).json()) as { software_configs: unknown[] };
    assert.deepEqual(left.software_configs, [], 'the derived config went with its deployment');
  });
});
