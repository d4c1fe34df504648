import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  agents,
  agentCloud,
  runs as agentRuns,
  SoftwareHearth,
  until,
  hearthOnBaseNetwork,
  serverGroup,
} from './harness.js';

// Issue 22's acceptance: kill -9 of the engine while 20 deployments wait is invisible. The API
// (`hearth serve --no-workers`) outlives the engine: the agents' signals arrive while no engine
// runs, and a new engine completes every deployment; each config ran once per action (the
// create, then an update that reruns every member, each killed while its deployments wait).

const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  gate: {type: string}
resources:
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: gate}]
      outputs: [{name: done}]
      config: |
        #!/bin/sh
        # Held until the test opens the gate (after the kill).
        while [ ! -e "$gate" ]; do sleep 0.1; done
        echo "$deploy_action done on $deploy_server_id" > "$heat_outputs_path.done"
${serverGroup(20, 'gate')}outputs:
  servers: {value: {get_attr: [servers, refs_map]}}
  done: {value: {get_attr: [deployments, done]}}
`;

describe('crash: the engine killed while 20 deployments wait', () => {
  const cloud = agentCloud();
  let h: SoftwareHearth;

  before(async () => {
    h = await hearthOnBaseNetwork(cloud, { 't.yaml': TEMPLATE });
  });
  after(() => h?.stop());

  /** How many of the group's deployments are `<action>_IN_PROGRESS`. */
  const waiting = async (action: string) =>
    (await h.resources('s', 2)).filter(
      (r) =>
        r.resource_type === 'OS::Heat::SoftwareDeployment' && r.resource_status === `${action}_IN_PROGRESS`,
    ).length;

  /**
   * With the stack's `action` under way and one engine running: once the 20 deployments wait, the
   * engine is killed; the gate opens and every agent signals the API while no engine runs; a new
   * engine then finishes the action. Returns the stack as it ended.
   */
  async function killWhileWaiting(action: string, gate: string) {
    const engine = h.engine();
    await until(`20 deployments wait (${action})`, async () =>
      (await waiting(action)) === 20 ? true : undefined,
    );
    // IN_PROGRESS comes before the deployment publishes its config: killed in between, an agent
    // would see nothing to run until a new engine resumed it. Killed once every agent runs it.
    await until(`every agent runs its ${action} config`, async () => {
      const list = await agents(cloud);
      return list.filter((a) => a.configs.some((c) => c.deploy_action === action)).length === 20
        ? true
        : undefined;
    });
    engine.kill();
    assert.equal((await engine.exited).signal, 'SIGKILL');

    writeFileSync(gate, '');
    await until(`every agent ran its ${action} config and the API took its signal`, async () => {
      const list = await agents(cloud);
      const ran = list.filter((a) =>
        a.configs.some((c) => c.deploy_action === action && c.status_code === 0 && c.signal === 'delivered'),
      );
      return ran.length === 20 ? true : undefined;
    });
    assert.equal(await waiting(action), 20, 'nothing completed while no engine ran');

    const next = h.engine();
    const shown = await until(`the stack's ${action} ends`, async () => {
      const view = await h.show('s');
      return view.status.endsWith('IN_PROGRESS') ? undefined : view;
    });
    next.kill();
    await next.exited;
    assert.equal(shown.status, `${action}_COMPLETE`, shown.reason);
    const servers = shown.outputs.servers as Record<string, string>;
    assert.deepEqual(
      shown.outputs.done,
      Object.fromEntries(Object.entries(servers).map(([k, id]) => [k, `${action} done on ${id}\n`])),
    );
    return servers;
  }

  it('every deployment completes after a new engine starts, each config run once per action', async () => {
    const gate = (action: string) => join(h.dir, `gate-${action}`);
    await h.cli(['stack', 'create', 's', '-t', 't.yaml', '--parameter', `gate=${gate('CREATE')}`]);
    const servers = await killWhileWaiting('CREATE', gate('CREATE'));
    // A changed input reruns every member: killed again while they wait.
    await h.cli(['stack', 'update', 's', '-t', 't.yaml', '--parameter', `gate=${gate('UPDATE')}`]);
    assert.deepEqual(await killWhileWaiting('UPDATE', gate('UPDATE')), servers, 'the same servers');

    const runs = await agentRuns(cloud);
    assert.deepEqual(
      Object.entries(servers).map(([k, id]) => runs.get(`${id}/${k}`)),
      Object.keys(servers).map(() => ['CREATE', 'UPDATE']),
      'each config ran once per action',
    );
  });
});
