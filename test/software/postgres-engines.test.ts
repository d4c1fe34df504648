import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import {
  addKeypair,
  agentCloud,
  BASE_NETWORK,
  runs as agentRuns,
  SoftwareHearth,
  until,
  serverGroup,
} from './harness.js';

// Issue 22's acceptance on PostgreSQL: three `hearth engine` processes and an API process on one
// database; a group of deployments created and updated, whichever engine runs each unit and
// whichever receives each signal, every config once per action.

const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  word: {type: string}
resources:
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: word}]
      config: |
        #!/bin/sh
        echo "$word $deploy_action"
${serverGroup(6, 'word')}outputs:
  servers: {value: {get_attr: [servers, refs_map]}}
  stdouts: {value: {get_attr: [deployments, deploy_stdouts]}}
`;

describe('software deployments on PostgreSQL with several engines', await postgresSuiteOptions(), () => {
  const cloud = agentCloud();
  let h: SoftwareHearth;

  before(async () => {
    await addKeypair(cloud);
    h = await new SoftwareHearth(await freshSchemaUrl()).start();
    h.write('base.yaml', BASE_NETWORK);
    h.write('t.yaml', TEMPLATE);
    for (let i = 0; i < 3; i++) h.engine();
  });
  after(async () => {
    await h?.stop();
    await dropSchemas();
  });

  const settled = (name: string) =>
    until(`stack ${name} settles`, async () => {
      const shown = await h.show(name);
      return shown.status.endsWith('IN_PROGRESS') ? undefined : shown;
    });

  it('a deployment group is created and updated by the engines together', async () => {
    await h.cli(['stack', 'create', 'base', '-t', 'base.yaml']);
    assert.equal((await settled('base')).status, 'CREATE_COMPLETE');

    await h.cli(['stack', 'create', 's', '-t', 't.yaml', '--parameter', 'word=first']);
    const created = await settled('s');
    assert.equal(created.status, 'CREATE_COMPLETE', created.reason);
    const keys = ['0', '1', '2', '3', '4', '5'];
    assert.deepEqual(created.outputs.stdouts, Object.fromEntries(keys.map((k) => [k, 'first CREATE\n'])));

    await h.cli(['stack', 'update', 's', '-t', 't.yaml', '--parameter', 'word=second']);
    const updated = await settled('s');
    assert.equal(updated.status, 'UPDATE_COMPLETE', updated.reason);
    assert.deepEqual(updated.outputs.stdouts, Object.fromEntries(keys.map((k) => [k, 'second UPDATE\n'])));

    const servers = updated.outputs.servers as Record<string, string>;
    const runs = await agentRuns(cloud);
    assert.deepEqual(
      keys.map((k) => runs.get(`${servers[k]}/${k}`)),
      keys.map(() => ['CREATE', 'UPDATE']),
      'each config once per action',
    );
  });
});
