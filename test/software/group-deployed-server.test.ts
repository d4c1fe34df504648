import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  agentCloud,
  agents,
  registerAgent,
  runs as agentRuns,
  SoftwareHearth,
  until,
  hearthOnBaseNetwork,
  serverGroup,
} from './harness.js';

// Issue 22's acceptance: a SoftwareDeploymentGroup over 20 sandbox servers, created, updated (a
// changed input reruns every member) and deleted through the Hearth CLI; and DeployedServers, which
// Hearth never boots, configured through each transport once the test starts their agents.

const CONFIG = `  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: message}]
      outputs: [{name: greeting}]
      config: |
        #!/bin/sh
        echo "$message from $deploy_server_id ($deploy_action)" | tee "$heat_outputs_path.greeting"
`;

const GROUP = `heat_template_version: 2018-08-31
parameters:
  message: {type: string}
resources:
${CONFIG}${serverGroup(20, 'message')}outputs:
  servers: {value: {get_attr: [servers, refs_map]}}
  stdouts: {value: {get_attr: [deployments, deploy_stdouts]}}
  codes: {value: {get_attr: [deployments, deploy_status_codes]}}
`;

const DEPLOYED = `heat_template_version: 2018-08-31
parameters:
  message: {type: string}
resources:
${CONFIG}  ds_cfn: {type: OS::Heat::DeployedServer}
  ds_heat:
    type: OS::Heat::DeployedServer
    properties: {software_config_transport: POLL_SERVER_HEAT}
  ds_url:
    type: OS::Heat::DeployedServer
    properties: {software_config_transport: POLL_TEMP_URL}
  ds_zaqar:
    type: OS::Heat::DeployedServer
    properties: {software_config_transport: ZAQAR_MESSAGE}
  d_cfn:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: ds_cfn}
      input_values: {message: {get_param: message}}
  d_heat:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: ds_heat}
      signal_transport: HEAT_SIGNAL
      input_values: {message: {get_param: message}}
  d_url:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: ds_url}
      signal_transport: TEMP_URL_SIGNAL
      input_values: {message: {get_param: message}}
  d_zaqar:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: ds_zaqar}
      signal_transport: ZAQAR_SIGNAL
      input_values: {message: {get_param: message}}
  # Mixed: a queue-fed server signalling by CFN, a polling server signalling by queue.
  d_zaqar_cfn:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: ds_zaqar}
      input_values: {message: {get_param: message}}
  d_heat_zaqar:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: ds_heat}
      signal_transport: ZAQAR_SIGNAL
      input_values: {message: {get_param: message}}
outputs:
  cfn: {value: {get_attr: [d_cfn, greeting]}}
  heat: {value: {get_attr: [d_heat, greeting]}}
  url: {value: {get_attr: [d_url, greeting]}}
  zaqar: {value: {get_attr: [d_zaqar, greeting]}}
  zaqar_cfn: {value: {get_attr: [d_zaqar_cfn, greeting]}}
  heat_zaqar: {value: {get_attr: [d_heat_zaqar, greeting]}}
`;

describe('a deployment group over 20 servers, and servers Hearth did not boot', () => {
  const cloud = agentCloud();
  let h: SoftwareHearth;

  before(async () => {
    h = await hearthOnBaseNetwork(cloud, { 'group.yaml': GROUP, 'deployed.yaml': DEPLOYED });
  });
  after(() => h?.stop());

  it('OS::Heat::SoftwareDeploymentGroup: 20 servers configured, reconfigured on update, deleted', async () => {
    await h.cli(['stack', 'create', 'g', '-t', 'group.yaml', '--parameter', 'message=hello', '--wait']);
    const created = await h.show('g');
    assert.equal(created.status, 'CREATE_COMPLETE', created.reason);
    const servers = created.outputs.servers as Record<string, string>;
    const keys = Array.from({ length: 20 }, (_, i) => String(i));
    assert.deepEqual(Object.keys(servers).sort(), [...keys].sort());
    const expect = (word: string, action: string) =>
      Object.fromEntries(keys.map((k) => [k, `${word} from ${servers[k]} (${action})\n`]));
    assert.deepEqual(created.outputs.stdouts, expect('hello', 'CREATE'));
    assert.deepEqual(created.outputs.codes, Object.fromEntries(keys.map((k) => [k, 0])));

    await h.cli(['stack', 'update', 'g', '-t', 'group.yaml', '--parameter', 'message=bye', '--wait']);
    const updated = await h.show('g');
    assert.equal(updated.status, 'UPDATE_COMPLETE', updated.reason);
    assert.deepEqual(updated.outputs.servers, servers, 'the same servers');
    assert.deepEqual(updated.outputs.stdouts, expect('bye', 'UPDATE'));

    const runs = await agentRuns(cloud);
    assert.deepEqual(
      keys.map((k) => runs.get(`${servers[k]}/${k}`)),
      keys.map(() => ['CREATE', 'UPDATE']),
      'each member ran once for CREATE and once for UPDATE',
    );

    await h.cli(['stack', 'delete', 'g', '--yes', '--wait']);
    const live = cloud.state
      .list<{ id: string; deletedAt: number | null }>('server')
      .filter((s) => s.deletedAt === null && Object.values(servers).includes(s.id));
    assert.deepEqual(live, [], 'the servers are gone');
  });

  it('OS::Heat::DeployedServer: configured through POLL_SERVER_CFN, POLL_SERVER_HEAT, POLL_TEMP_URL and ZAQAR_MESSAGE (ZAQAR_SIGNAL too)', async () => {
    const serversBefore = cloud.state.list('server').length;
    const create = h.run([
      'stack',
      'create',
      'd',
      '-t',
      'deployed.yaml',
      '--parameter',
      'message=hi',
      '--wait',
    ]);
    // The servers exist only as records: each deployment waits for an agent the test starts.
    const rows = await until('the deployed servers are made', async () => {
      const r = await h.run(['stack', 'resource', 'list', 'd', '-f', 'json']);
      if (r.code !== 0) return undefined;
      const list = JSON.parse(r.stdout) as {
        resource_name: string;
        resource_status: string;
        physical_resource_id: string;
      }[];
      const made = list.filter(
        (x) => x.resource_name.startsWith('ds_') && x.resource_status === 'CREATE_COMPLETE',
      );
      return made.length === 4 ? made : undefined;
    });
    const ids: Record<string, string> = {};
    for (const row of rows) {
      const shown = await h.json<{ attributes: Record<string, unknown> }>([
        'stack',
        'resource',
        'show',
        'd',
        row.resource_name,
      ]);
      const occ = shown.attributes.os_collect_config as Record<string, unknown>;
      assert.ok(occ && typeof occ === 'object', `${row.resource_name} has os_collect_config`);
      ids[row.resource_name] = row.physical_resource_id;
      await registerAgent(cloud, row.physical_resource_id, occ);
    }
    const done = await create;
    assert.equal(done.code, 0, done.stderr);
    const shown = await h.show('d');
    assert.equal(shown.status, 'CREATE_COMPLETE', shown.reason);
    assert.deepEqual(shown.outputs, {
      cfn: `hi from ${ids.ds_cfn} (CREATE)\n`,
      heat: `hi from ${ids.ds_heat} (CREATE)\n`,
      url: `hi from ${ids.ds_url} (CREATE)\n`,
      zaqar: `hi from ${ids.ds_zaqar} (CREATE)\n`,
      zaqar_cfn: `hi from ${ids.ds_zaqar} (CREATE)\n`,
      heat_zaqar: `hi from ${ids.ds_heat} (CREATE)\n`,
    });
    assert.equal(cloud.state.list('server').length, serversBefore, 'no server booted');

    await h.cli(['stack', 'update', 'd', '-t', 'deployed.yaml', '--parameter', 'message=again', '--wait']);
    const updated = await h.show('d');
    assert.equal(updated.status, 'UPDATE_COMPLETE', updated.reason);
    assert.equal(updated.outputs.heat, `again from ${ids.ds_heat} (UPDATE)\n`);
    assert.equal(updated.outputs.zaqar, `again from ${ids.ds_zaqar} (UPDATE)\n`, 'rerun through the queues');
    assert.equal(updated.outputs.heat_zaqar, `again from ${ids.ds_heat} (UPDATE)\n`);
    const runs = await agentRuns(cloud);
    assert.deepEqual(runs.get(`${ids.ds_zaqar}/d_zaqar`), ['CREATE', 'UPDATE'], 'each run applied once');
    const polled = (await agents(cloud)).find((a) => a.server_id === ids.ds_zaqar);
    assert.equal(polled?.transport, 'zaqar', 'its agent pops its queue');
    await h.cli(['stack', 'delete', 'd', '--yes', '--wait']);
  });
});
