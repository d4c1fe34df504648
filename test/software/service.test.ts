import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SoftwareInputError } from '../../src/software/io.js';
import { MemorySoftwareStore } from '../support/software-memory.js';

// Heat's semantics of the software config service (service_software_config.py,
// software_config_io.py): IO schemas, signals, a server's deployments metadata.

async function deployed(outputs: { name: string; error_output?: boolean }[] = []) {
  const tables = new MemorySoftwareStore();
  const software = tables.service('p1', () => Date.parse('2026-03-01T00:00:00Z'));
  await software.createConfig({
    id: 'cfg',
    name: 'cfg',
    group: 'script',
    config: 'true',
    inputs: [],
    outputs: outputs.map((o) => ({ type: 'String', error_output: false, ...o })),
    options: null,
  });
  await software.createDeployment({
    id: 'dep',
    configId: 'cfg',
    serverId: 'srv',
    inputValues: {},
    action: 'CREATE',
    status: 'IN_PROGRESS',
    statusReason: 'Deploy data available',
  });
  return { tables, software };
}

describe('software config service', () => {
  it('gives inputs and outputs Heat’s defaults and converts defaults to their type', async () => {
    const software = new MemorySoftwareStore().service();
    const config = await software.createConfig({
      id: 'c',
      name: 'c',
      group: '',
      config: null,
      inputs: [
        { name: 'n', type: 'Number', default: '2.5' },
        { name: 'b', type: 'Boolean', default: 'true' },
        { name: 'l', type: 'CommaDelimitedList', default: 'a, b' },
        { name: 'j', type: 'Json', default: '{"k": 1}' },
        { name: 'e', type: 'Number', default: '' },
      ] as never,
      outputs: [{ name: 'o' }] as never,
      options: null,
    });
    assert.equal(config.group, 'Heat::Ungrouped');
    assert.deepEqual(
      config.inputs.map((i) => [i.name, i.type, i.default, i.replace_on_change]),
      [
        ['n', 'Number', 2.5, false],
        ['b', 'Boolean', true, false],
        ['l', 'CommaDelimitedList', ['a', 'b'], false],
        ['j', 'Json', { k: 1 }, false],
        ['e', 'Number', '', false],
      ],
    );
    assert.deepEqual(config.outputs, [{ name: 'o', type: 'String', error_output: false }]);
    await assert.rejects(
      software.createConfig({
        ...config,
        id: 'd',
        inputs: [{ name: 'x', type: 'Json', default: '{' }] as never,
      }),
      SoftwareInputError,
    );
  });

  it('a zero status code completes with the outputs; standard outputs absent are null', async () => {
    const { software } = await deployed([{ name: 'result' }]);
    const reason = await software.signalDeployment('dep', {
      result: 'r',
      deploy_status_code: '0',
      extra: 'x',
    });
    assert.equal(reason, 'deployment dep succeeded');
    const d = await software.getDeployment('dep');
    assert.equal(d?.status, 'COMPLETE');
    assert.equal(d?.statusReason, 'Outputs received');
    assert.deepEqual(d?.outputValues, {
      result: 'r',
      deploy_stdout: null,
      deploy_stderr: null,
      deploy_status_code: '0',
    });
  });

  it('a non-zero status code or an error output fails it, the reason naming each', async () => {
    const { software } = await deployed([{ name: 'oops', error_output: true }, { name: 'fine' }]);
    const reason = await software.signalDeployment('dep', {
      deploy_status_code: 2,
      deploy_stderr: 'boom',
      oops: 'disk full',
    });
    assert.equal(reason, 'deployment dep failed');
    const d = await software.getDeployment('dep');
    assert.equal(d?.status, 'FAILED');
    assert.equal(
      d?.statusReason,
      'deploy_status_code : Deployment exited with non-zero status code: 2, oops : disk full',
    );
    assert.equal(d?.outputValues.deploy_stderr, 'boom');

    const second = await deployed();
    assert.equal(
      await second.software.signalDeployment('dep', { deploy_status_code: 1 }),
      'deployment dep failed (1)',
    );
    assert.equal(
      (await second.software.getDeployment('dep'))?.statusReason,
      'deploy_status_code : Deployment exited with non-zero status code: 1',
    );
  });

  it('a signal to a settled or unknown deployment changes nothing; null details complete it', async () => {
    const { software } = await deployed();
    assert.equal(await software.signalDeployment('nothing', {}), undefined);
    assert.equal(await software.signalDeployment('dep', null), 'deployment dep succeeded');
    const settled = await software.getDeployment('dep');
    assert.equal(await software.signalDeployment('dep', { deploy_status_code: 1 }), undefined);
    assert.deepEqual(await software.getDeployment('dep'), settled);
  });

  it('an update keeps what is absent or empty (Heat’s update_software_deployment)', async () => {
    const { software } = await deployed();
    const updated = await software.updateDeployment('dep', {
      inputValues: {},
      action: 'UPDATE',
      statusReason: '',
    });
    assert.equal(updated?.action, 'UPDATE');
    assert.equal(updated?.statusReason, 'Deploy data available');
    assert.equal(updated?.updatedAt, '2026-03-01T00:00:00.000Z');
    assert.equal(await software.updateDeployment('nothing', { action: 'X' }), undefined);
    await assert.rejects(software.updateDeployment('dep', { status: 'DONE' as never }), SoftwareInputError);
  });

  it('a server’s deployments metadata: its deployments’ configs by name, in Heat’s API shape', async () => {
    const { tables, software } = await deployed();
    await software.createConfig({
      id: 'first',
      name: 'a-first',
      group: 'script',
      config: 'x',
      inputs: [],
      outputs: [],
      options: {},
    });
    await software.createDeployment({
      id: 'dep2',
      configId: 'first',
      serverId: 'srv',
      inputValues: {},
      action: 'CREATE',
      status: 'COMPLETE',
      statusReason: '',
    });
    await software.createDeployment({
      id: 'dep3',
      configId: 'first',
      serverId: 'other',
      inputValues: {},
      action: 'CREATE',
      status: 'COMPLETE',
      statusReason: '',
    });
    const metadata = await software.serverDeployments('srv');
    assert.deepEqual(
      metadata.map((c) => c.id),
      ['first', 'cfg'],
    );
    assert.deepEqual(Object.keys(metadata[0]!).sort(), [
      'config',
      'creation_time',
      'group',
      'id',
      'inputs',
      'name',
      'options',
      'outputs',
    ]);
    assert.deepEqual(await tables.service('p2').serverDeployments('srv'), [], 'another project sees none');
  });
});
