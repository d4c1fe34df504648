import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signalWaitKey } from '../../src/engine/context/peers.js';
import { suspendOrResume } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { signalResource } from '../../src/engine/operations/signal.js';
import { softwareService } from '../../src/software/service.js';
import type { ResourceRecord } from '../../src/store/contract.js';
import type { Json, JsonObject } from '../../src/util/json.js';
import { Harness } from './harness.js';

/** A script config with an input and an output, deployed to a stand-in server. */
const TEMPLATE = ({
  foo = 'one',
  actions = 'CREATE, UPDATE',
  transport = 'CFN_SIGNAL',
  timeout = '',
} = {}) => `heat_template_version: 2018-08-31
resources:
  server: {type: OS::Heat::None}
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      config: "#!/bin/sh\\necho $foo > $heat_outputs_path.result"
      inputs: [{name: foo}, {name: bar, default: dflt}]
      outputs: [{name: result}]
  deploy:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server}
      actions: [${actions}]
      signal_transport: ${transport}
      input_values: {foo: ${foo}}
outputs:
  stdout: {value: {get_attr: [deploy, deploy_stdout]}}
  code: {value: {get_attr: [deploy, deploy_status_code]}}
  result: {value: {get_attr: [deploy, result]}}
${timeout}`;

interface Setup {
  h: Harness;
  stackId: string;
  signal(details: JsonObject | null, name?: string, stackId?: string): Promise<void>;
}

/** Runs what is due without moving the clock: a wait is only ended by what wakes it. */
async function runDueNow(h: Harness): Promise<void> {
  while ((await h.engine.worker.runDue(10_000)) > 0);
}

async function setup(text: string): Promise<Setup> {
  const h = await Harness.create();
  await h.create('s', text);
  const stackId = (await findStack(h.deps, 'p', 's')).id;
  await runDueNow(h);
  const signal = async (details: JsonObject | null, name = 'deploy', where = stackId) => {
    await signalResource(h.deps, where, name, details);
    await runDueNow(h);
  };
  return { h, stackId, signal };
}

async function row(h: Harness, name: string): Promise<ResourceRecord> {
  return (await h.rows('s')).find((r) => r.name === name)!;
}

function software(h: Harness) {
  return softwareService(h.deps.store, { projectId: 'p' });
}

/** The deployment of the row `name` and the inputs of its derived config, by name. */
async function deployed(h: Harness, name = 'deploy') {
  const id = (await row(h, name)).physicalId!;
  const sd = (await software(h).getDeployment(id))!;
  const derived = (await software(h).getConfig(sd.configId))!;
  const inputs: Record<string, Json> = Object.fromEntries(
    derived.inputs.map((i) => [i.name, i.value ?? null]),
  );
  return { sd, derived, inputs };
}

const OK = { deploy_stdout: 'out', deploy_stderr: '', deploy_status_code: 0, result: 'R1' };

describe('OS::Heat::SoftwareDeployment in the engine', () => {
  it('waits parked on its own signals, completing with the outputs its agent signals', async () => {
    const { h, stackId, signal } = await setup(TEMPLATE());
    const start = h.clock.t;
    const { sd, derived, inputs } = await deployed(h);
    assert.deepEqual(
      [sd.status, sd.action, sd.statusReason],
      ['IN_PROGRESS', 'CREATE', 'Deploy data available'],
    );
    assert.equal(sd.serverId, (await row(h, 'server')).physicalId);
    assert.equal(derived.group, 'script');
    assert.deepEqual([inputs.foo, inputs.bar, inputs.deploy_action], ['one', 'dflt', 'CREATE']);
    assert.equal(inputs.deploy_stack_id, `s/${stackId}`);
    assert.equal(inputs.deploy_resource_name, 'deploy');
    const stack = await h.stack('s');
    const node = `u:${(await row(h, 'deploy')).id}`;
    const units = await h.deps.store.tx((tx) => tx.work.listForTraversal(stack.traversalId));
    const unit = units.find((i) => i.node === node);
    assert.equal(unit?.waitingFor, signalWaitKey(stackId, 'deploy'));

    await signal(OK);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal(h.clock.t, start, 'the signal woke it: no poll interval passed');
    assert.deepEqual(await h.outputs('s'), { stdout: 'out', code: 0, result: 'R1' });
    assert.equal((await deployed(h)).sd.status, 'COMPLETE');
  });

  it('a non-zero status code fails the deployment with the reason', async () => {
    const { h, signal } = await setup(TEMPLATE());
    await signal({ deploy_status_code: 2, deploy_stderr: 'no disk' });
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.equal(
      (await row(h, 'deploy')).reason,
      'Error: resources.deploy: Deployment to server failed: deploy_status_code : Deployment exited with non-zero status code: 2 (deploy_stderr: no disk)',
    );
    // The failed deployment's attributes show what the agent reported, as Heat's do.
    const { attributes } = await row(h, 'deploy');
    assert.deepEqual([attributes.deploy_status_code, attributes.deploy_stderr], [2, 'no disk']);
  });

  it('NO_SIGNAL completes at once', async () => {
    const { h } = await setup(TEMPLATE({ transport: 'NO_SIGNAL' }));
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.equal((await deployed(h)).sd.statusReason, 'Not waiting for outputs signal');
  });

  it('an update with another input reruns the config (new derived config, deploy_action UPDATE) and changes its outputs', async () => {
    const { h, signal } = await setup(TEMPLATE());
    await signal(OK);
    const before = await deployed(h);
    await h.update('s', TEMPLATE({ foo: 'two' }));
    await runDueNow(h);
    assert.equal(await h.status('s'), 'UPDATE_IN_PROGRESS');
    const after = await deployed(h);
    assert.notEqual(after.sd.configId, before.sd.configId);
    assert.deepEqual(
      [after.inputs.foo, after.inputs.deploy_action, after.sd.status],
      ['two', 'UPDATE', 'IN_PROGRESS'],
    );
    assert.equal(
      await software(h).getConfig(before.sd.configId),
      undefined,
      'the old derived config is gone',
    );
    await signal({ ...OK, result: 'R2' });
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await h.outputs('s')).result, 'R2');
  });

  it('SUSPEND, RESUME and DELETE run only when listed; a listed DELETE waits for the agent', async () => {
    const listed = await setup(TEMPLATE({ actions: 'CREATE, SUSPEND, RESUME, DELETE' }));
    const { h, stackId, signal } = listed;
    await signal(OK);
    await suspendOrResume(h.deps, stackId, 'SUSPEND');
    await runDueNow(h);
    assert.equal(await h.status('s'), 'SUSPEND_IN_PROGRESS');
    assert.equal((await deployed(h)).inputs.deploy_action, 'SUSPEND');
    await signal(OK);
    assert.equal(await h.status('s'), 'SUSPEND_COMPLETE');
    await suspendOrResume(h.deps, stackId, 'RESUME');
    await runDueNow(h);
    assert.equal((await deployed(h)).inputs.deploy_action, 'RESUME');
    await signal(OK);
    assert.equal(await h.status('s'), 'RESUME_COMPLETE');
    const id = (await row(h, 'deploy')).physicalId!;
    await h.delete('s');
    await runDueNow(h);
    assert.equal(await h.status('s'), 'DELETE_IN_PROGRESS');
    assert.equal((await software(h).getDeployment(id))?.action, 'DELETE');
    await signal(OK);
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.equal(await software(h).getDeployment(id), undefined, 'the deployment is removed');

    const plain = await setup(TEMPLATE({ actions: 'CREATE' }));
    await plain.signal(OK);
    await suspendOrResume(plain.h.deps, plain.stackId, 'SUSPEND');
    await runDueNow(plain.h);
    assert.equal(await plain.h.status('s'), 'SUSPEND_COMPLETE', 'SUSPEND not listed: nothing to wait for');
    const pid = (await row(plain.h, 'deploy')).physicalId!;
    await plain.h.delete('s');
    await runDueNow(plain.h);
    assert.equal(await plain.h.status('s'), 'DELETE_COMPLETE');
    assert.equal(await software(plain.h).getDeployment(pid), undefined);
  });

  it("a deployment whose agent never answers fails at the stack's timeout, saying so", async () => {
    const h = await Harness.create();
    await h.create('s', TEMPLATE());
    const stack = await h.stack('s');
    await h.deps.store.tx((tx) => tx.stacks.update(stack.id, stack.traversalId, { timeoutMins: 1 }));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.match(
      (await row(h, 'deploy')).reason!,
      /^CREATE aborted \(Timed out\): Deployment to server failed: the server's agent did not signal the outputs of CREATE within \d+ s/,
    );
  });

  it("refuses a server whose user_data_format is not SOFTWARE_CONFIG (Heat's validation)", async () => {
    const h = await Harness.create();
    const text = (format: string) => `heat_template_version: 2018-08-31
resources:
  server: {type: OS::Nova::Server, properties: {image: cirros, flavor: m1.tiny${format}}}
  deploy: {type: OS::Heat::SoftwareDeployment, properties: {server: {get_resource: server}}}
`;
    await assert.rejects(
      h.create('bad', text(', user_data_format: RAW')),
      /Resource server's property user_data_format should be set to SOFTWARE_CONFIG since there are software deployments on it/,
    );
    await assert.rejects(h.create('dflt', text('')), /user_data_format should be set to SOFTWARE_CONFIG/);
  });
});

describe('deployment groups, StructuredDeployment and SoftwareComponent in the engine', () => {
  it('a SoftwareDeploymentGroup over 20 servers completes when every member signalled', async () => {
    const servers = Array.from({ length: 20 }, (_, i) => `  s${i}: {type: OS::Heat::None}`).join('\n');
    const map = Array.from({ length: 20 }, (_, i) => `s${i}: {get_resource: s${i}}`).join(', ');
    const { h, signal } = await setup(`heat_template_version: 2018-08-31
resources:
${servers}
  config: {type: OS::Heat::SoftwareConfig, properties: {group: script, config: run, outputs: [{name: result}]}}
  group:
    type: OS::Heat::SoftwareDeploymentGroup
    properties: {config: {get_resource: config}, servers: {${map}}, input_values: {x: 1}}
outputs:
  stdouts: {value: {get_attr: [group, deploy_stdouts]}}
  results: {value: {get_attr: [group, result]}}
`);
    const child = (await row(h, 'group')).physicalId!;
    for (let i = 0; i < 20; i++) {
      assert.notEqual(await h.status('s'), 'CREATE_COMPLETE');
      await signal({ deploy_stdout: `o${i}`, deploy_status_code: 0, result: i }, `s${i}`, child);
    }
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const outputs = await h.outputs('s');
    const stdouts = outputs.stdouts as JsonObject;
    assert.equal(Object.keys(stdouts).length, 20);
    assert.equal(stdouts.s7, 'o7');
    assert.equal((outputs.results as JsonObject).s19, 19);
  });

  it("StructuredDeployment substitutes get_input; a SoftwareComponent runs its action's config", async () => {
    const { h } = await setup(`heat_template_version: 2018-08-31
resources:
  server: {type: OS::Heat::None}
  sconfig:
    type: OS::Heat::StructuredConfig
    properties: {config: {port: {get_input: port}, name: {get_input: deploy_resource_name}}}
  sdeploy:
    type: OS::Heat::StructuredDeployment
    properties: {config: {get_resource: sconfig}, server: {get_resource: server}, signal_transport: NO_SIGNAL, input_values: {port: 80}}
  component:
    type: OS::Heat::SoftwareComponent
    properties:
      configs:
        - {actions: [CREATE], tool: script, config: make}
        - {actions: [DELETE], tool: script, config: unmake}
  cdeploy:
    type: OS::Heat::SoftwareDeployment
    properties: {config: {get_resource: component}, server: {get_resource: server}, signal_transport: NO_SIGNAL}
`);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual((await deployed(h, 'sdeploy')).derived.config, { port: 80, name: 'sdeploy' });
    const c = await deployed(h, 'cdeploy');
    assert.equal(c.derived.group, 'component');
    assert.equal(c.sd.action, 'CREATE');
  });
});

describe('OS::Heat::SoftwareDeployment in legacy mode', () => {
  /** Until the deployment waits (the walk runs beside the worker, polling in memory). */
  async function untilWaiting(h: Harness): Promise<void> {
    for (let i = 0; i < 200; i++) {
      await h.engine.worker.runDue(10_000);
      const r = (await h.rows('s')).find((x) => x.name === 'deploy');
      if (r?.status === 'IN_PROGRESS' && r.physicalId) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.fail('the deployment never started waiting');
  }

  it(
    'completes on its signal (a create the walk runs again keeps its derived config)',
    { timeout: 60_000 },
    async () => {
      const h = await Harness.create({ legacy: true });
      await h.create('s', TEMPLATE());
      await untilWaiting(h);
      await signalResource(h.deps, (await h.stack('s')).id, 'deploy', OK);
      await h.settle();
      assert.equal(await h.status('s'), 'CREATE_COMPLETE');
      assert.equal((await h.outputs('s')).result, 'R1');
    },
  );
});
