import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  addKeypair,
  agents,
  agentCloud,
  BASE_NETWORK,
  IMAGE,
  runs as agentRuns,
  SoftwareHearth,
  until,
} from './harness.js';

// Issue 22's acceptance: kill -9 of the engine while 20 deployments wait is invisible. The API
// (`hearth serve --no-workers`) outlives the engine: the agents' signals arrive while no engine
// runs, and a new engine completes every deployment; each config ran once.

const TEMPLATE = (gate: string) => `heat_template_version: 2018-08-31
resources:
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      outputs: [{name: done}]
      config: |
        #!/bin/sh
        # Held until the test opens the gate (after the kill).
        while [ ! -e ${gate} ]; do sleep 0.1; done
        echo "done on $deploy_server_id" > "$heat_outputs_path.done"
  servers:
    type: OS::Heat::ResourceGroup
    properties:
      count: 20
      resource_def:
        type: OS::Nova::Server
        properties:
          image: ${IMAGE}
          flavor: m1.tiny
          networks: [{network: private}]
          user_data_format: SOFTWARE_CONFIG
  deployments:
    type: OS::Heat::SoftwareDeploymentGroup
    properties:
      config: {get_resource: config}
      servers: {get_attr: [servers, refs_map]}
outputs:
  servers: {value: {get_attr: [servers, refs_map]}}
  done: {value: {get_attr: [deployments, done]}}
`;

describe('crash: the engine killed while 20 deployments wait', () => {
  const cloud = agentCloud();
  let h: SoftwareHearth;
  let gate: string;

  before(async () => {
    await addKeypair(cloud);
    h = await new SoftwareHearth().start();
    gate = join(h.dir, 'gate');
    h.write('base.yaml', BASE_NETWORK);
    h.write('t.yaml', TEMPLATE(gate));
    await h.cli(['stack', 'create', 'base', '-t', 'base.yaml', '--wait']);
  });
  after(() => h?.stop());

  it('every deployment completes after a new engine starts, each config run once', async () => {
    await h.cli(['stack', 'create', 's', '-t', 't.yaml']);
    const first = h.engine();
    const waiting = () =>
      h
        .resources('s', 2)
        .then(
          (rows) =>
            rows.filter(
              (r) =>
                r.resource_type === 'OS::Heat::SoftwareDeployment' &&
                r.resource_status === 'CREATE_IN_PROGRESS',
            ).length,
        );
    await until('20 deployments wait', async () => ((await waiting()) === 20 ? true : undefined));
    first.kill();
    assert.equal((await first.exited).signal, 'SIGKILL');

    // No engine runs: the agents finish and signal the API.
    writeFileSync(gate, '');
    await until('every agent ran its deployment and the API took its signal', async () => {
      const list = await agents(cloud);
      const ran = list.filter((a) => a.configs.some((c) => c.status_code === 0 && c.signal === 'delivered'));
      return ran.length === 20 ? true : undefined;
    });
    assert.equal(await waiting(), 20, 'nothing completed while no engine ran');

    const second = h.engine();
    await until('the stack completes', async () => {
      const shown = await h.show('s');
      return shown.status.endsWith('IN_PROGRESS') ? undefined : shown;
    });
    assert.ok(second.running, second.output);
    const shown = await h.show('s');
    assert.equal(shown.status, 'CREATE_COMPLETE', shown.reason);
    const servers = shown.outputs.servers as Record<string, string>;
    assert.deepEqual(
      shown.outputs.done,
      Object.fromEntries(Object.entries(servers).map(([k, id]) => [k, `done on ${id}\n`])),
    );
    const runs = await agentRuns(cloud);
    assert.deepEqual(
      Object.entries(servers).map(([k, id]) => runs.get(`${id}/${k}`)),
      Object.keys(servers).map(() => ['CREATE']),
      'each config ran once',
    );
    assert.ok(existsSync(gate));
  });
});
