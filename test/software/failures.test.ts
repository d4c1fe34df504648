import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentCloud, IMAGE, SoftwareHearth, stopAgent, hearthOnBaseNetwork } from './harness.js';

// Issue 22's acceptance: a script that exits non-zero fails its deployment (its status code and
// stderr in the reason); a deployment whose agent never answers fails when the stack's time is up,
// with a reason that says so, both for a server with no agent (a DeployedServer nobody started)
// and for one whose agent was stopped out of band.

const stack = (userDataFormat: string, script: string) => `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: one}
resources:
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: word}]
      config: |
${script
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
  server:
    type: OS::Nova::Server
    properties:
      image: ${IMAGE}
      flavor: m1.tiny
      networks: [{network: private}]
      user_data_format: ${userDataFormat}
  deployment:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server}
      input_values: {word: {get_param: word}}
`;

const FAILING = stack(
  'SOFTWARE_CONFIG',
  '#!/bin/sh\necho "about to fail"\necho "disk full: $word" >&2\nexit 3\n',
);
// A server nothing runs an agent on (Heat refuses a deployment to a server whose user data is not
// SOFTWARE_CONFIG): a DeployedServer whose agent the test never starts.
const QUIET = `heat_template_version: 2018-08-31
resources:
  config:
    type: OS::Heat::SoftwareConfig
    properties: {group: script, config: "#!/bin/sh\\necho never runs\\n"}
  server: {type: OS::Heat::DeployedServer}
  deployment:
    type: OS::Heat::SoftwareDeployment
    properties: {config: {get_resource: config}, server: {get_resource: server}}
`;
const FINE = stack('SOFTWARE_CONFIG', '#!/bin/sh\necho "ran $word"\n');

/** A short stack timeout (seconds) for the commands that wait on a silent agent. */
const SHORT = { HEARTH_STACK_ACTION_TIMEOUT: '5' };

describe('failed and silent deployments', () => {
  const cloud = agentCloud();
  let h: SoftwareHearth;

  before(async () => {
    h = await hearthOnBaseNetwork(cloud, { 'failing.yaml': FAILING, 'quiet.yaml': QUIET, 'fine.yaml': FINE });
  });
  after(() => h?.stop());

  const deployment = async (name: string) =>
    (await h.resources(name)).find((r) => r.resource_name === 'deployment')!;

  it('a script exiting 3 fails the deployment: the status code and stderr in the reason', async () => {
    const r = await h.run(['stack', 'create', 'failing', '-t', 'failing.yaml', '--wait']);
    assert.notEqual(r.code, 0, 'the create failed');
    const shown = await h.show('failing');
    assert.equal(shown.status, 'CREATE_FAILED');
    const row = await deployment('failing');
    assert.equal(row.resource_status, 'CREATE_FAILED');
    assert.match(row.resource_status_reason, /Deployment to server failed: /);
    assert.match(
      row.resource_status_reason,
      /deploy_status_code : Deployment exited with non-zero status code: 3/,
    );
    assert.match(row.resource_status_reason, /disk full: one/, 'stderr in the reason');
    assert.match(shown.reason, /Deployment exited with non-zero status code: 3/);
  });

  it('a server whose agent never runs: the deployment times out, and its reason says so', async () => {
    const r = await h.run(['stack', 'create', 'quiet', '-t', 'quiet.yaml', '--wait'], { env: SHORT });
    assert.notEqual(r.code, 0);
    const shown = await h.show('quiet');
    assert.equal(shown.status, 'CREATE_FAILED');
    assert.match(shown.reason, /timed out/i);
    const row = await deployment('quiet');
    assert.equal(row.resource_status, 'CREATE_FAILED');
    assert.match(
      row.resource_status_reason,
      /Timed out.*the server's agent did not signal the outputs of (CREATE|UPDATE) within \d+ s/,
    );
  });

  it('an agent stopped out of band: the next update of its deployment times out', async () => {
    await h.cli(['stack', 'create', 'stopped', '-t', 'fine.yaml', '--wait']);
    const server = (await h.resources('stopped')).find((x) => x.resource_name === 'server')!;
    await stopAgent(cloud, server.physical_resource_id);
    const r = await h.run(
      ['stack', 'update', 'stopped', '-t', 'fine.yaml', '--parameter', 'word=two', '--wait'],
      {
        env: SHORT,
      },
    );
    assert.notEqual(r.code, 0);
    const shown = await h.show('stopped');
    assert.equal(shown.status, 'UPDATE_FAILED');
    assert.match(shown.reason, /timed out/i);
    const row = await deployment('stopped');
    assert.equal(row.resource_status, 'UPDATE_FAILED');
    assert.match(
      row.resource_status_reason,
      /Timed out.*the server's agent did not signal the outputs of (CREATE|UPDATE) within \d+ s/,
    );
  });
});
