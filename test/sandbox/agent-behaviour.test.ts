import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { initData } from '../../src/sandbox/agent/bootstrap.js';
import { createSandbox } from '../../src/sandbox/index.js';
import {
  agentOf,
  agents,
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
 * What the guest agent does beyond moving data: one run per config id (a refused signal is sent
 * again, the script never rerun), stop-agent, a registered DeployedServer's agent, components,
 * the policy for groups it has no hook for, and the noise's failure rate.
 */

const COUNTING = '#!/bin/sh\necho run >> "$counter"\necho done';

describe('sandbox guest agent: runs, retries, policies', () => {
  let heat: FakeHeat;
  let app: FastifyInstance;
  let scratch: string;
  const runs = (name: string) => {
    const file = join(scratch, name);
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  };
  const noise = async (changes: Record<string, unknown>) => {
    const r = await app.inject({ method: 'PUT', url: '/admin/noise', payload: changes });
    assert.equal(r.statusCode, 200, r.body);
  };
  before(async () => {
    heat = await fakeHeat();
    scratch = mkdtempSync(join(tmpdir(), 'hearth-agent-test-'));
    ({ app } = createSandbox({ noise: { bootDelayMs: 0, agentPollIntervalMs: 15 } }));
  });
  after(async () => {
    await app.close();
    await heat.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a refused signal is retried with backoff; the config ran once', async () => {
    heat.refuseSignals = 2;
    heat.metadata = {
      'os-collect-config': occ(heat, 'request'),
      deployments: [
        deployment('once', COUNTING, {
          counter: join(scratch, 'once'),
          ...signalInputs(heat, 'CFN_SIGNAL', 'retried'),
        }),
      ],
    };
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }));
    const signal = await until('the signal after two refusals', () =>
      heat.signals.find((s) => s.path === '/signal/retried'),
    );
    assert.equal(signal.body.deploy_stdout, 'done\n');
    const config = await until('the delivery recorded', async () =>
      (await agentOf(app, id))?.configs.find((c) => c.signal === 'delivered'),
    );
    assert.equal(config.signal_attempts, 3);
    const reads = heat.reads.request;
    await until('more polls', () => heat.reads.request >= reads + 3);
    assert.equal(runs('once'), 1, 'the script ran once');
    assert.equal(heat.signals.filter((s) => s.path === '/signal/retried').length, 1);

    // stop-agent: the guest's agent is gone, a new deployment is never applied.
    const stopped = await app.inject({ method: 'POST', url: `/admin/servers/${id}/stop-agent` });
    assert.equal(stopped.statusCode, 200, stopped.body);
    const after = heat.reads.request;
    heat.metadata = {
      ...heat.metadata,
      deployments: [
        ...(heat.metadata.deployments as unknown[]),
        deployment('late', COUNTING, {
          counter: join(scratch, 'late'),
          ...signalInputs(heat, 'NO_SIGNAL', 'x'),
        }),
      ],
    };
    await sleep(150);
    assert.equal(heat.reads.request, after, 'no poll after stop-agent');
    assert.equal(runs('late'), 0);
    assert.equal((await agentOf(app, id))!.status, 'stopped');
    const missing = await app.inject({ method: 'POST', url: '/admin/servers/nope/stop-agent' });
    assert.equal(missing.statusCode, 404);
    // Its server deleted, the stopped agent is forgotten.
    await app.inject({ method: 'POST', url: `/admin/server/${id}/delete` });
    assert.equal(await agentOf(app, id), undefined);
  });

  it('POST /admin/agents registers a DeployedServer’s agent; bad bodies are 400', async () => {
    heat.metadata = {
      'os-collect-config': occ(heat, 'cfn'),
      deployments: [
        deployment(
          'ds1',
          '#!/bin/sh\necho "$deploy_server_id" > "$heat_outputs_path.who"',
          signalInputs(heat, 'CFN_SIGNAL', 'deployed-server'),
          { outputs: ['who'] },
        ),
      ],
    };
    const r = await app.inject({
      method: 'POST',
      url: '/admin/agents',
      payload: { server_id: 'ds-uuid-1', os_collect_config: occ(heat, 'cfn') },
    });
    assert.equal(r.statusCode, 201, r.body);
    assert.equal(r.json().agent.source, 'registered');
    const signal = await until('the deployed server’s signal', () =>
      heat.signals.find((s) => s.path === '/signal/deployed-server'),
    );
    assert.equal(signal.body.who, 'server-id\n');
    const listed = (await agents(app)).find((a) => a.server_id === 'ds-uuid-1')!;
    assert.equal(listed.transport, 'cfn');
    assert.equal(listed.configs[0]!.runs, 1);
    await app.inject({ method: 'POST', url: '/admin/servers/ds-uuid-1/stop-agent' });

    for (const [payload, message] of [
      [{}, /server_id/],
      [{ server_id: 'x' }, /os_collect_config/],
      [
        { server_id: 'x', os_collect_config: { collectors: ['cfn'], cfn: { metadata_url: null } } },
        /no usable collector/,
      ],
    ] as const) {
      const bad = await app.inject({ method: 'POST', url: '/admin/agents', payload });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, message);
    }
  });

  it('other groups follow the agentGroups policy (succeed by default, fail, command); components pick their action’s config', async () => {
    await noise({
      agentGroups: {
        puppet: { policy: 'fail', status_code: 6, message: 'puppet is broken here' },
        salt: {
          policy: 'command',
          command: 'cat > "$heat_outputs_path.seen"; echo "ran for $deploy_action"',
        },
      },
    });
    const component = {
      configs: [
        { actions: ['DELETE'], config: '#!/bin/sh\necho deleting', tool: 'script' },
        { actions: ['CREATE', 'UPDATE'], config: '#!/bin/sh\necho creating', tool: 'script' },
      ],
    };
    heat.metadata = {
      'os-collect-config': occ(heat, 'request'),
      deployments: [
        deployment('g1', { playbook: 'x' }, signalInputs(heat, 'CFN_SIGNAL', 'ansible'), {
          group: 'ansible',
        }),
        deployment('g2', 'class {}', signalInputs(heat, 'CFN_SIGNAL', 'puppet'), { group: 'puppet' }),
        deployment('g3', 'state', signalInputs(heat, 'CFN_SIGNAL', 'salt'), {
          group: 'salt',
          outputs: ['seen'],
        }),
        deployment('g4', component, signalInputs(heat, 'CFN_SIGNAL', 'component'), { group: 'component' }),
        deployment(
          'g5',
          component,
          { ...signalInputs(heat, 'CFN_SIGNAL', 'suspend'), deploy_action: 'SUSPEND' },
          {
            group: 'component',
          },
        ),
      ],
    };
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }), 'groups');
    const signalOf = (name: string) =>
      until(`the ${name} signal`, () => heat.signals.find((s) => s.path === `/signal/${name}`)?.body);
    assert.deepEqual(await signalOf('ansible'), {
      deploy_stdout: '',
      deploy_stderr: '',
      deploy_status_code: 0,
    });
    assert.deepEqual(await signalOf('puppet'), {
      deploy_stdout: '',
      deploy_stderr: 'puppet is broken here',
      deploy_status_code: 6,
    });
    const salt = await signalOf('salt');
    assert.equal(salt.deploy_stdout, 'ran for CREATE\n');
    assert.equal(JSON.parse(String(salt.seen)).id, 'g3', 'the command read the deployment on stdin');
    assert.equal((await signalOf('component')).deploy_stdout, 'creating\n');
    const agent = await until('the skipped component', async () => {
      const a = await agentOf(app, id);
      return a?.configs.find((c) => c.config_id === 'g5') ? a : undefined;
    });
    assert.equal(agent.configs.find((c) => c.config_id === 'g5')!.signal, 'skipped');
    assert.equal(
      heat.signals.find((s) => s.path === '/signal/suspend'),
      undefined,
      'no config for SUSPEND: nothing runs, nothing is signalled (as heat-config)',
    );
    await app.inject({ method: 'POST', url: `/admin/servers/${id}/stop-agent` });
  });

  it('agentFailureRate 1 fails every config without running it', async () => {
    await noise({ agentFailureRate: 1 });
    heat.metadata = {
      'os-collect-config': occ(heat, 'request'),
      deployments: [
        deployment('f1', COUNTING, {
          counter: join(scratch, 'f1'),
          ...signalInputs(heat, 'CFN_SIGNAL', 'doomed'),
        }),
      ],
    };
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }), 'failing');
    const signal = await until('the failure', () => heat.signals.find((s) => s.path === '/signal/doomed'));
    assert.equal(signal.body.deploy_status_code, 1);
    assert.match(String(signal.body.deploy_stderr), /agentFailureRate/);
    assert.equal(runs('f1'), 0);
    await noise({ agentFailureRate: 0 });
    await app.inject({ method: 'POST', url: `/admin/servers/${id}/stop-agent` });
  });

  it('stop-agent kills a running script and what it started', async () => {
    const pidFile = join(scratch, 'sleeper.pid');
    heat.metadata = {
      'os-collect-config': occ(heat, 'request'),
      deployments: [
        deployment(
          'slow',
          `#!/bin/sh\nsleep 60 &\necho $! > "${pidFile}"\nwait`,
          signalInputs(heat, 'CFN_SIGNAL', 'slow'),
        ),
      ],
    };
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }), 'slow');
    const pid = await until('the sleeper started', () =>
      existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) || undefined : undefined,
    );
    const alive = (p: number) => {
      try {
        process.kill(p, 0);
        return true;
      } catch {
        return false;
      }
    };
    assert.ok(alive(pid));
    const r = await app.inject({ method: 'POST', url: `/admin/servers/${id}/stop-agent` });
    assert.equal(r.statusCode, 200, r.body);
    await until('the sleeper killed', () => !alive(pid));
    assert.equal(
      heat.signals.find((s) => s.path === '/signal/slow'),
      undefined,
    );
  });

  it('noise knobs are checked', async () => {
    for (const bad of [
      { agentPollIntervalMs: 0 },
      { agentGroups: { x: { policy: 'maybe' } } },
      { agentGroups: [] },
    ]) {
      const r = await app.inject({ method: 'PUT', url: '/admin/noise', payload: bad });
      assert.equal(r.statusCode, 400, JSON.stringify(bad));
    }
  });
});

describe('sandbox guest agent: bootstrap from user_data', () => {
  it('finds cfn-init-data among the MIME parts (7bit, base64, nested), and nothing elsewhere', () => {
    const metadata = { 'os-collect-config': { collectors: ['request'] }, x: 'é' };
    assert.deepEqual(initData(userData(metadata)), metadata);
    assert.deepEqual(initData(userData(metadata, true)), metadata);
    const outer = Buffer.from(userData(metadata), 'base64').toString('utf8');
    const nested = [
      'Content-Type: multipart/mixed; boundary=OUTER',
      '',
      '--OUTER',
      'Content-Type: text/plain',
      '',
      'hello',
      '--OUTER',
      outer,
      '--OUTER--',
    ].join('\r\n');
    assert.deepEqual(initData(Buffer.from(nested).toString('base64')), metadata);
    assert.equal(initData(null), undefined);
    assert.equal(initData(Buffer.from('#!/bin/sh\necho').toString('base64')), undefined);
  });
});
