import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import {
  agentOf,
  bootServer,
  deployment,
  type FakeHeat,
  fakeHeat,
  occ,
  signalInputs,
  until,
  userData,
} from './agent-helpers.js';

/**
 * The sandbox's guest agent against a fake Heat: it boots from the cfn-init-data of a server's
 * user_data, polls through each collector, runs script configs for real and signals their results
 * through each signal transport.
 */

const SCRIPT = [
  '#!/bin/sh',
  'echo "foo is $foo"',
  'echo "warning: $deploy_action" >&2',
  'printf "got %s" "$foo" > "$heat_outputs_path.result"',
  'echo "$structured" > "$heat_outputs_path.shape"',
].join('\n');

describe('sandbox guest agent: collectors and signal transports', () => {
  let heat: FakeHeat;
  let app: FastifyInstance;
  /** Every test's servers read the same fake: an earlier server's agent is stopped after its test. */
  const stopAgent = async (id: string) => {
    const r = await app.inject({ method: 'POST', url: `/admin/servers/${id}/stop-agent` });
    assert.equal(r.statusCode, 200, r.body);
  };
  let first = '';
  before(async () => {
    heat = await fakeHeat();
    ({ app } = createSandbox({ noise: { bootDelayMs: 0, agentPollIntervalMs: 20 } }));
  });
  after(async () => {
    await app.close();
    await heat.close();
  });

  it('cfn collector (EC2 v2 signed, XML answer) and CFN_SIGNAL: the script runs with its inputs, its outputs are signalled', async () => {
    heat.metadata = {
      'os-collect-config': occ(heat, 'cfn'),
      deployments: [
        deployment(
          'c1',
          SCRIPT,
          { foo: 'bar', structured: { a: [1, 2] }, ...signalInputs(heat, 'CFN_SIGNAL', 'deploy1') },
          { outputs: ['result', 'shape', 'never_written'] },
        ),
      ],
    };
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'cfn'), deployments: [] }));
    first = id;
    const signal = await until('the CFN signal', () =>
      heat.signals.find((s) => s.path === '/signal/deploy1'),
    );
    assert.equal(signal.method, 'POST');
    assert.deepEqual(signal.body, {
      result: 'got bar',
      shape: '{"a":[1,2]}\n',
      deploy_stdout: 'foo is bar\n',
      deploy_stderr: 'warning: CREATE\n',
      deploy_status_code: 0,
    });
    assert.ok(heat.reads.cfn >= 1);
    assert.equal(heat.reads.refused, 0, 'every signed request passed the signature check');

    // More polls never run it again.
    const polls = heat.reads.cfn;
    await until('more polls', () => heat.reads.cfn >= polls + 3);
    assert.equal(heat.signals.filter((s) => s.path === '/signal/deploy1').length, 1);
    const agent = (await agentOf(app, id))!;
    assert.equal(agent.transport, 'cfn');
    assert.equal(agent.status, 'running');
    assert.deepEqual(
      agent.configs.map((c) => [c.config_id, c.runs, c.status_code, c.signal, c.deploy_resource_name]),
      [['c1', 1, 0, 'delivered', 'deploy1']],
    );
    assert.ok(!JSON.stringify(agent).includes('the-secret-key'), 'the listing shows no credentials');
  });

  it('a script that exits non-zero reports its code and stderr; the JSON CFN answer is read too', async () => {
    heat.cfnJson = true;
    heat.metadata = {
      ...heat.metadata,
      deployments: [
        ...(heat.metadata.deployments as unknown[]),
        deployment(
          'c2',
          '#!/bin/sh\necho partial\necho "it broke" >&2\nexit 3\n',
          signalInputs(heat, 'CFN_SIGNAL', 'deploy2'),
        ),
      ],
    };
    const signal = await until('the failure signal', () =>
      heat.signals.find((s) => s.path === '/signal/deploy2'),
    );
    assert.deepEqual(signal.body, {
      deploy_stdout: 'partial\n',
      deploy_stderr: 'it broke\n',
      deploy_status_code: 3,
    });
    heat.cfnJson = false;
    await stopAgent(first);
  });

  it('heat collector (Keystone v3, orchestration endpoint) with HEAT_SIGNAL and TEMP_URL_SIGNAL', async () => {
    heat.metadata = {
      'os-collect-config': occ(heat, 'heat'),
      deployments: [
        deployment('h1', 'echo no shebang: $foo', {
          foo: 'x',
          ...signalInputs(heat, 'HEAT_SIGNAL', 'heatdep'),
        }),
        deployment('h2', '#!/bin/sh\necho put', signalInputs(heat, 'TEMP_URL_SIGNAL', 'tempdep')),
      ],
    };
    const reads = heat.reads.heat;
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'heat') }, true), 'heat-vm');
    const viaHeat = await until('the HEAT signal', () => heat.signals.find((s) => s.path === 'heatdep'));
    assert.equal(viaHeat.method, 'HEAT');
    assert.deepEqual(viaHeat.body, {
      deploy_stdout: 'no shebang: x\n',
      deploy_stderr: '',
      deploy_status_code: 0,
    });
    const put = await until('the PUT signal', () => heat.signals.find((s) => s.path === '/signal/tempdep'));
    assert.equal(put.method, 'PUT');
    assert.equal(put.body.deploy_stdout, 'put\n');
    assert.ok(heat.reads.heat > reads);
    assert.equal((await agentOf(app, id))!.transport, 'heat');
    // The collector keeps its Keystone session between polls, and logs in again once it is refused.
    const logins = heat.reads.logins;
    const polled = heat.reads.heat;
    await until('more polls', () => heat.reads.heat >= polled + 3);
    assert.equal(heat.reads.logins, logins, 'no login per poll');
    heat.token = 'tok-2';
    const rotated = heat.reads.heat;
    await until('polls with a new token', () => heat.reads.heat >= rotated + 2);
    assert.equal(heat.reads.logins, logins + 1);
    heat.token = 'tok-1';
    await stopAgent(id);
  });

  it('zaqar collector (Keystone v3, a pop from the messaging endpoint) with ZAQAR_SIGNAL', async () => {
    heat.metadata = {
      'os-collect-config': occ(heat, 'zaqar'),
      deployments: [
        deployment('z1', '#!/bin/sh\necho "queued $foo"', {
          foo: 'y',
          ...signalInputs(heat, 'ZAQAR_SIGNAL', 'zaqdep'),
        }),
      ],
    };
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'zaqar') }), 'zaqar-vm');
    const posted = await until('the message on the queue', () =>
      heat.signals.find((s) => s.path === 'queue-zaqdep'),
    );
    assert.equal(posted.method, 'ZAQAR');
    assert.deepEqual(posted.body, { deploy_stdout: 'queued y\n', deploy_stderr: '', deploy_status_code: 0 });
    assert.ok(heat.reads.zaqar >= 1);
    // The fake records the message before it answers: the agent marks it delivered after.
    const agent = await until('the signal marked delivered', async () => {
      const a = await agentOf(app, id);
      return a?.configs.some((c) => c.signal === 'delivered') ? a : undefined;
    });
    assert.equal(agent.transport, 'zaqar');
    assert.deepEqual(
      agent.configs.map((c) => [c.config_id, c.signal]),
      [['z1', 'delivered']],
    );
    await stopAgent(id);
  });

  it('request collector (a plain URL) and NO_SIGNAL: the config runs, nothing is signalled', async () => {
    heat.metadata = {
      'os-collect-config': occ(heat, 'request'),
      deployments: [deployment('r1', '#!/bin/sh\nexit 0', signalInputs(heat, 'NO_SIGNAL', 'quiet'))],
    };
    const before = heat.signals.length;
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }), 'request-vm');
    const agent = await until('the config applied', async () => {
      const a = await agentOf(app, id);
      return a?.configs.find((c) => c.config_id === 'r1' && c.signal !== 'pending') ? a : undefined;
    });
    assert.equal(agent.transport, 'request');
    assert.deepEqual(
      agent.configs.map((c) => [c.runs, c.status_code, c.signal]),
      [[1, 0, 'none']],
    );
    assert.ok(heat.reads.request >= 1);
    await sleep(100);
    assert.equal(heat.signals.length, before);
    await stopAgent(id);
  });

  it('a server with no cfn-init-data gets no agent; a deleted server loses its agent', async () => {
    const plain = await bootServer(app, undefined, 'plain');
    const raw = await bootServer(app, Buffer.from('#!/bin/sh\necho hi').toString('base64'), 'raw');
    heat.metadata = { 'os-collect-config': occ(heat, 'request'), deployments: [] };
    const configured = await bootServer(
      app,
      userData({ 'os-collect-config': occ(heat, 'request') }),
      'doomed',
    );
    await until('the agent polled', async () => (await agentOf(app, configured))?.last_poll_at);
    assert.equal(await agentOf(app, plain), undefined);
    assert.equal(await agentOf(app, raw), undefined);
    // A server of the other region has its agent too.
    const elsewhere = await bootServer(
      app,
      userData({ 'os-collect-config': occ(heat, 'request') }),
      'region-two',
      '/regions/RegionTwo',
    );
    const agent = await until('the other region’s agent polled', async () => {
      const a = await agentOf(app, elsewhere);
      return a?.last_poll_at ? a : undefined;
    });
    assert.equal(agent.region, 'RegionTwo');
    const r = await app.inject({ method: 'POST', url: `/admin/server/${configured}/delete` });
    assert.equal(r.statusCode, 200, r.body);
    await until('the agent gone', async () => ((await agentOf(app, configured)) ? undefined : true));
  });
});
