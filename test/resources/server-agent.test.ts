import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinPlugins } from '../../src/resources/catalog.js';
import { multipartMessage, parseMultipart } from '../../src/resources/heat/mime-message.js';
import { buildUserData, cfnInitData } from '../../src/resources/server-agent/user-data.js';
import type { PluginContext } from '../../src/resources/contract.js';
import { FakeResource } from './helpers.js';

describe('servers’ user data for their agent', () => {
  const metadata = { deployments: [], 'os-collect-config': { collectors: ['ec2', 'cfn', 'local'] } };

  it('SOFTWARE_CONFIG: Heat’s boot parts, the user’s data, and cfn-init-data with the metadata', () => {
    const text = buildUserData('SOFTWARE_CONFIG', '#!/bin/sh\necho hi\n', metadata, 'seed');
    const parts = parseMultipart(text)!;
    assert.deepEqual(
      parts.map((p) => [p.filename, p.subtype]),
      [
        ['cloud-config', 'cloud-config'],
        ['boothook.sh', 'cloud-boothook'],
        ['part-handler.py', 'part-handler'],
        ['', 'plain'],
        ['cfn-init-data', 'x-cfninitdata'],
      ],
    );
    assert.equal(parts[3]!.text, '#!/bin/sh\necho hi\n');
    assert.deepEqual(cfnInitData(text), metadata);
    assert.equal(
      buildUserData('SOFTWARE_CONFIG', 'x', metadata, 'seed'),
      buildUserData('SOFTWARE_CONFIG', 'x', metadata, 'seed'),
    );
  });

  it('SOFTWARE_CONFIG: a multipart message given as user data has its parts joined to Heat’s', () => {
    const given = multipartMessage(
      [
        { text: 'one', subtype: 'x-shellscript', filename: 'one.sh' },
        { text: 'two', subtype: 'cloud-config', filename: 'two' },
      ],
      'given',
    );
    const parts = parseMultipart(buildUserData('SOFTWARE_CONFIG', given, metadata, 'seed'))!;
    assert.deepEqual(
      parts.slice(3).map((p) => p.filename),
      ['one.sh', 'two', 'cfn-init-data'],
    );
  });

  it('RAW is sent as given; HEAT_CFNTOOLS carries it as cfn-userdata, without agent metadata', () => {
    assert.equal(buildUserData('RAW', 'as is', undefined, 'seed'), 'as is');
    const parts = parseMultipart(buildUserData('HEAT_CFNTOOLS', 'echo x', undefined, 'seed'))!;
    assert.deepEqual(
      parts.slice(3).map((p) => [p.filename, p.subtype, p.text]),
      [
        ['cfn-userdata', 'x-cfninitdata', 'echo x'],
        ['loguserdata.py', 'x-shellscript', parts[4]!.text],
      ],
    );
    assert.equal(cfnInitData(buildUserData('HEAT_CFNTOOLS', 'echo x', undefined, 'seed')), undefined);
  });

  it('default_software_config_transport is the servers’ schema default, as in Heat', () => {
    const transportDefault = (type: string, transport?: string) =>
      builtinPlugins(transport ? { softwareConfigTransport: transport } : {}).find((p) => p.type === type)!
        .properties.software_config_transport!.default;
    assert.equal(transportDefault('OS::Nova::Server'), 'POLL_SERVER_CFN');
    assert.equal(transportDefault('OS::Nova::Server', 'POLL_TEMP_URL'), 'POLL_TEMP_URL');
    assert.equal(transportDefault('OS::Heat::DeployedServer', 'POLL_SERVER_HEAT'), 'POLL_SERVER_HEAT');
  });

  it('default_software_config_transport ZAQAR_MESSAGE: a queue per server, kept across transport changes', async () => {
    const plugin = builtinPlugins({ softwareConfigTransport: 'ZAQAR_MESSAGE' }).find(
      (p) => p.type === 'OS::Heat::DeployedServer',
    )!;
    const server = new (class extends FakeResource {
      override ctx(): PluginContext {
        return Object.assign(super.ctx(), {
          agentCredentials: () => ({
            token: 'hagt_pay.mac',
            accessKey: 'hagt_pay',
            secretKey: 'mac',
            publicUrl: 'http://h:1',
            projectId: 'proj',
          }),
        });
      }
    })(plugin, { name: 'box', stackName: 'st' });
    await server.create({});
    const queue = server.data.agent_queue_id as string;
    assert.match(queue, /^st-box-[a-z2-7]{12}$/);
    assert.deepEqual(await server.attribute('os_collect_config'), {
      collectors: ['zaqar', 'local'],
      zaqar: {
        user_id: 'hagt_pay',
        password: 'hagt_pay.mac',
        auth_url: 'http://h:1/agent-identity/v3',
        project_id: 'proj',
        queue_id: queue,
        region_name: null,
      },
    });
    const nonce = server.data.agent_nonce;
    await server.update({ software_config_transport: 'POLL_SERVER_HEAT' });
    assert.deepEqual(
      [server.data.agent_transport, server.data.agent_nonce, server.data.agent_queue_id],
      ['POLL_SERVER_HEAT', nonce, queue],
      'the credential and the queue stay',
    );
    await server.update({ software_config_transport: 'ZAQAR_MESSAGE' });
    assert.equal(server.data.agent_queue_id, queue);
  });
});
