import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PluginContext, ResourcePlugin } from '../../src/resources/contract.js';
import {
  actionRuns,
  derivedInputs,
  EMPTY_SOURCE,
  substituteInputs,
  type SourceConfig,
} from '../../src/resources/heat/deployment-config.js';
import {
  readDeploymentAttribute,
  softwareDeploymentPlugin,
} from '../../src/resources/heat/software-deployment.js';
import { softwareComponentPlugin } from '../../src/resources/heat/software-component.js';
import {
  readDeploymentGroupAttribute,
  softwareDeploymentGroupPlugin,
  softwareDeploymentsPlugin,
  structuredDeploymentGroupPlugin,
  structuredDeploymentsPlugin,
} from '../../src/resources/heat/software-deployment-group.js';
import { structuredDeploymentPlugin } from '../../src/resources/heat/structured-deployment.js';
import type { Value } from '../../src/template/functions/types.js';
import type { Json, JsonObject } from '../../src/util/json.js';
import { FakeSoftware } from './fake-software.js';
import { FakeResource, type FakeOptions, rejection } from './helpers.js';

/** A FakeResource whose context has a software config service. */
/** A deployment's signal credentials: its signal route on `base` for project `project`, with `token`. */
function signalCredentials(base: string, project: string, token: string): Deployment['signal'] {
  return {
    endpoint: `${base}/v1/${project}/stacks/s/sid/resources/deploy/signal`,
    token,
    alarmUrl: `${base}/v1/signal/${token}`,
    waitConditionUrl: () => 'unused',
    cfnSignalUrl: () => 'unused',
  };
}

class Deployment extends FakeResource {
  constructor(
    plugin: ResourcePlugin,
    readonly software = new FakeSoftware(),
    options: FakeOptions = {},
  ) {
    super(plugin, { name: 'deploy', ...options });
  }

  override ctx(): PluginContext {
    return Object.assign(super.ctx(), { software: this.software });
  }

  deployment() {
    return this.software.deployments.get(this.physicalId!)!;
  }

  derived() {
    return this.software.configs.get(this.deployment().configId)!;
  }

  inputs(): Record<string, Json> {
    return Object.fromEntries(this.derived().inputs.map((i) => [i.name, i.value ?? null]));
  }

  async send(details: JsonObject | null): Promise<string | void> {
    return this.plugin.handleSignal!(
      { ...this.ctx(), signalId: '1', setData: () => {}, adjustResource: () => {} },
      details,
    );
  }
}

const SCRIPT: Omit<SourceConfig, 'name'> & { id: string; name: string } = {
  id: 'cfg',
  name: 'script-config',
  group: 'script',
  config: '#!/bin/sh\necho $foo',
  inputs: [
    { name: 'foo', type: 'String', default: 'dflt', replace_on_change: false },
    { name: 'bar', type: 'String', replace_on_change: true },
  ],
  outputs: [{ name: 'result', type: 'String', error_output: false }],
  options: null,
};

async function withConfig(d: Deployment, config: Partial<typeof SCRIPT> = {}): Promise<void> {
  await d.software.createConfig({ ...SCRIPT, ...config });
}

describe('derived configs (Heat _build_derived_inputs, StructuredDeployment.parse)', () => {
  const spec = {
    action: 'CREATE',
    serverId: 'srv',
    inputValues: { foo: 'given', extra: 3 },
    stackPath: 's/sid',
    resourceName: 'deploy',
    signal: { transport: 'CFN_SIGNAL', signalUrl: 'http://h/v1/signal/hsig_x.y' },
  };

  it('declared inputs take their values or defaults, others are added, then the deploy_ inputs', () => {
    const inputs = derivedInputs(SCRIPT, spec);
    assert.deepEqual(
      inputs.map((i) => [i.name, i.value]),
      [
        ['foo', 'given'],
        ['bar', null],
        ['extra', 3],
        ['deploy_server_id', 'srv'],
        ['deploy_action', 'CREATE'],
        ['deploy_stack_id', 's/sid'],
        ['deploy_resource_name', 'deploy'],
        ['deploy_signal_transport', 'CFN_SIGNAL'],
        ['deploy_signal_id', 'http://h/v1/signal/hsig_x.y'],
        ['deploy_signal_verb', 'POST'],
      ],
    );
    assert.equal(inputs[1]!.replace_on_change, true, 'the declaration is kept');
    const defaulted = derivedInputs(SCRIPT, { ...spec, inputValues: {} });
    assert.equal(defaulted[0]!.value, 'dflt');
  });

  it('TEMP_URL_SIGNAL PUTs, HEAT_SIGNAL gives credentials, NO_SIGNAL nothing', () => {
    const names = (signal: Parameters<typeof derivedInputs>[1]['signal']) =>
      derivedInputs(EMPTY_SOURCE, { ...spec, inputValues: {}, signal })
        .slice(5)
        .map((i) => `${i.name}=${String(i.value)}`);
    assert.deepEqual(names({ transport: 'TEMP_URL_SIGNAL', signalUrl: 'u' }), [
      'deploy_signal_id=u',
      'deploy_signal_verb=PUT',
    ]);
    assert.deepEqual(
      names({
        transport: 'HEAT_SIGNAL',
        auth: { authUrl: 'a', userId: 'u', password: 'pw', projectId: 'p' },
      }),
      [
        'deploy_auth_url=a',
        'deploy_username=u',
        'deploy_user_id=u',
        'deploy_password=pw',
        'deploy_project_id=p',
      ],
    );
    assert.deepEqual(names({ transport: 'NO_SIGNAL' }), []);
  });

  it('substitutes get_input (or another key) deep in maps and lists; STRICT refuses a missing input', () => {
    const inputs = new Map<string, Json>([
      ['a', 1],
      ['b', { x: 'y' }],
    ]);
    const config = {
      k: { get_input: 'a' },
      l: [{ get_input: 'b' }, 'plain', { get_input: 'zzz' }],
      two: { get_input: 'a', x: 1 },
    };
    assert.deepEqual(substituteInputs(config, inputs, 'get_input'), {
      k: 1,
      l: [{ x: 'y' }, 'plain', null],
      two: { get_input: 'a', x: 1 },
    });
    assert.deepEqual(substituteInputs({ k: { get_input: 'a' }, m: { my_in: 'a' } }, inputs, 'my_in'), {
      k: { get_input: 'a' },
      m: 1,
    });
    assert.throws(
      () => substituteInputs(config, inputs, 'get_input', 'STRICT'),
      /The Parameter \(zzz\) was not provided/,
    );
  });

  it("a component's configs choose the actions; otherwise the deployment's actions", () => {
    const component: SourceConfig = {
      ...EMPTY_SOURCE,
      group: 'component',
      config: {
        configs: [
          { actions: ['CREATE'], tool: 'script' },
          { actions: ['DELETE', 'SUSPEND'], tool: 'script' },
        ],
      },
    };
    assert.deepEqual(
      ['CREATE', 'UPDATE', 'DELETE', 'SUSPEND', 'RESUME'].map((a) => actionRuns(component, a, ['UPDATE'])),
      [true, false, true, true, false],
    );
    assert.equal(actionRuns(SCRIPT, 'UPDATE', ['CREATE']), false);
    assert.equal(actionRuns(SCRIPT, 'CREATE', ['CREATE']), true);
  });
});

describe('OS::Heat::SoftwareDeployment', () => {
  it('creates an IN_PROGRESS deployment of a derived config, completes on its signal with the outputs', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    d.signal = signalCredentials('http://h', 'p', 'hsig_a.b');
    await withConfig(d);
    const started = await d.startCreate({ config: 'cfg', server: 'srv', input_values: { foo: 'F' } });
    assert.equal(started.wakeOnSignalTo, 'deploy', 'parked on its own signals');
    const sd = d.deployment();
    assert.equal(sd.id, d.physicalId);
    assert.deepEqual(
      [sd.status, sd.statusReason, sd.action, sd.serverId],
      ['IN_PROGRESS', 'Deploy data available', 'CREATE', 'srv'],
    );
    assert.deepEqual(sd.inputValues, { foo: 'F' });
    const derived = d.derived();
    assert.deepEqual(
      [derived.group, derived.config, derived.name],
      ['script', SCRIPT.config, 'script-config'],
    );
    assert.equal(d.inputs().foo, 'F');
    assert.equal(d.inputs().deploy_signal_id, 'http://h/v1/signal/hsig_a.b');
    assert.equal(d.inputs().deploy_stack_id, 'stack/stack-id');
    assert.deepEqual(derived.outputs, SCRIPT.outputs);

    const waiting = await d.poll('create');
    assert.equal(waiting.done, false);
    assert.ok(waiting.pollAfterMs! <= 5000 && waiting.wakeOnSignalTo === 'deploy');

    assert.equal(
      await d.send({ deploy_stdout: 'out', deploy_status_code: 0, result: 'R' }),
      'Outputs received',
    );
    assert.equal((await d.poll('create')).done, true);
    assert.equal(await d.attribute('deploy_stdout'), 'out');
    assert.equal(await d.attribute('result'), 'R');
    await assert.rejects(
      d.send({ deploy_status_code: 0 }),
      { name: 'NoActionRequired' },
      'a second signal changes nothing',
    );
  });

  it('a non-zero status code fails it with the reason; NO_SIGNAL completes at once', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    await withConfig(d);
    await d.startCreate({ config: 'cfg', server: 'srv' });
    await d.send({ deploy_status_code: 3, deploy_stderr: 'boom' });
    const failed = await rejection(() => d.poll('create'));
    assert.equal(
      failed.message,
      'Deployment to server failed: deploy_status_code : Deployment exited with non-zero status code: 3 (deploy_stderr: boom)',
    );

    const quiet = new Deployment(softwareDeploymentPlugin);
    await withConfig(quiet);
    const run = await quiet.create({ config: 'cfg', server: 'srv', signal_transport: 'NO_SIGNAL' });
    assert.equal(run.polls, 0);
    assert.deepEqual(
      [quiet.deployment().status, quiet.deployment().statusReason],
      ['COMPLETE', 'Not waiting for outputs signal'],
    );

    const missing = await rejection(() =>
      new Deployment(softwareDeploymentPlugin).startCreate({ config: 'nope', server: 'srv' }),
    );
    assert.equal(missing.message, 'Software config (nope) could not be found.');
  });

  it('an update reruns with a new derived config (deploy_action UPDATE), deleting the old; replace_on_change replaces', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    await withConfig(d);
    await d.create({
      config: 'cfg',
      server: 'srv',
      signal_transport: 'NO_SIGNAL',
      input_values: { foo: 1, bar: 'b' },
    });
    const first = d.deployment().configId;
    const outcome = await d.update({
      config: 'cfg',
      server: 'srv',
      signal_transport: 'NO_SIGNAL',
      input_values: { foo: 2, bar: 'b' },
    });
    assert.ok(!('replace' in outcome));
    const second = d.deployment().configId;
    assert.notEqual(second, first);
    assert.equal(d.software.configs.has(first), false, 'the previous derived config is deleted');
    assert.deepEqual(
      [d.inputs().foo, d.inputs().deploy_action, d.deployment().action],
      [2, 'UPDATE', 'UPDATE'],
    );
    const again = await d.update({
      config: 'cfg',
      server: 'srv',
      signal_transport: 'NO_SIGNAL',
      input_values: { foo: 2, bar: 'b' },
      name: 'z',
    });
    assert.ok(!('replace' in again));
    assert.notEqual(d.deployment().configId, second, 'every run has its own derived config');
    assert.equal(d.derived().name, 'z');
    const replaced = await d.update({
      config: 'cfg',
      server: 'srv',
      signal_transport: 'NO_SIGNAL',
      input_values: { foo: 2, bar: 'B' },
    });
    assert.deepEqual(replaced, { replace: 'plugin' });
    assert.deepEqual(await d.update({ config: 'cfg', server: 'other', signal_transport: 'NO_SIGNAL' }), {
      replace: 'schema',
      properties: ['server'],
    });
  });

  it('runs the actions listed only: DELETE waits for the agent, else the delete removes at once', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    await withConfig(d);
    await d.create({ config: 'cfg', server: 'srv', actions: ['CREATE'], signal_transport: 'NO_SIGNAL' });
    const created = d.deployment().configId;
    await d.update({
      config: 'cfg',
      server: 'srv',
      actions: ['CREATE'],
      signal_transport: 'NO_SIGNAL',
      input_values: { foo: 'x' },
    });
    assert.equal(d.deployment().configId, created, 'UPDATE not listed: nothing ran');
    assert.equal(d.deployment().action, 'CREATE');
    const suspend = await d.plugin.suspend!(d.ctx());
    assert.equal(suspend.progress, undefined, 'SUSPEND not listed');
    assert.equal(d.deployment().action, 'CREATE');
    await d.delete();
    assert.equal(d.software.deployments.size, 0);
    assert.equal(d.software.configs.has(created), false, 'the derived config goes with it');

    const w = new Deployment(softwareDeploymentPlugin);
    await withConfig(w);
    await w.startCreate({ config: 'cfg', server: 'srv', actions: ['CREATE', 'DELETE', 'SUSPEND'] });
    await w.send({ deploy_status_code: 0 });
    await w.poll('create');
    const suspended = await w.plugin.suspend!(w.ctx());
    assert.ok(suspended.progress);
    assert.equal(w.inputs().deploy_action, 'SUSPEND');
    await w.send({ deploy_status_code: 0 });
    assert.equal((await w.plugin.checkSuspendComplete!(w.ctx(), suspended.progress!)).done, true);
    const deleting = await w.plugin.delete(w.ctx());
    assert.equal(w.inputs().deploy_action, 'DELETE');
    assert.equal(
      (await w.plugin.checkDeleteComplete!(w.ctx(), deleting.progress!)).done,
      false,
      'waits for the agent',
    );
    await w.send({ deploy_status_code: 0 });
    assert.equal((await w.plugin.checkDeleteComplete!(w.ctx(), deleting.progress!)).done, true);
    assert.equal(w.software.deployments.size, 0);
  });

  it("a DELETE whose server is gone does not wait; the timeout's reason says the agent did not answer", async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    await withConfig(d);
    d.peers.set('srv', {
      name: 'server',
      type: 'OS::Heat::None',
      physicalId: 'srv',
      action: 'CREATE',
      status: 'COMPLETE',
      data: {},
    });
    await d.startCreate({ config: 'cfg', server: 'srv', actions: ['CREATE', 'DELETE'] });
    const progress = d.progress!;
    d.clock.advance(90_000);
    await d.send({ deploy_status_code: 0 });
    await d.poll('create');
    assert.match(
      d.plugin.timeoutReason!('CREATE', progress, d.clock.now())!,
      /^Deployment to server failed: the server's agent did not signal the outputs of CREATE within 90 s/,
    );
    const deleting = await d.plugin.delete(d.ctx());
    assert.equal((await d.plugin.checkDeleteComplete!(d.ctx(), deleting.progress!)).done, false);
    d.peers.set('srv', {
      name: 'server',
      type: 'OS::Heat::None',
      physicalId: null,
      action: 'DELETE',
      status: 'COMPLETE',
      data: {},
    });
    assert.equal((await d.plugin.checkDeleteComplete!(d.ctx(), deleting.progress!)).done, true);
    assert.equal(d.software.deployments.size, 0);
  });

  it('a create run again after a crash makes the same derived config and keeps outputs already signalled', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    await withConfig(d);
    const props = d.props({ config: 'cfg', server: 'srv' });
    await d.plugin.create(d.ctx(), props);
    const first = [...d.software.deployments.values()][0]!;
    await d.software.signalDeployment(first.id, { deploy_status_code: 0, result: 'R' });
    // The unit died before recording the action's result: the row's data is as before.
    const again = await d.plugin.create(d.ctx(), props);
    d.apply(again);
    assert.equal(d.deployment().configId, first.configId, 'the same derived config');
    assert.equal(d.software.configs.size, 2, 'the source and one derived config');
    assert.equal(d.deployment().status, 'COMPLETE', 'not waiting again for a signal already received');
    assert.equal((await d.plugin.checkCreateComplete!(d.ctx(), again.progress!)).done, true);
  });

  it('HEAT_SIGNAL gives the agent-identity URL, the project and the signal token as password', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    d.signal = signalCredentials('http://h:1', 'proj', 'hsig_pay.mac');
    await withConfig(d);
    await d.startCreate({ config: 'cfg', server: 'srv', signal_transport: 'HEAT_SIGNAL' });
    const i = d.inputs();
    assert.deepEqual(
      [i.deploy_auth_url, i.deploy_user_id, i.deploy_username, i.deploy_password, i.deploy_project_id],
      ['http://h:1/agent-identity/v3', 'hsig_pay', 'hsig_pay', 'hsig_pay.mac', 'proj'],
    );
  });

  it('ZAQAR_SIGNAL gives HEAT_SIGNAL’s credentials and a queue that stays the same across actions', async () => {
    const d = new Deployment(softwareDeploymentPlugin);
    d.signal = signalCredentials('http://h:1', 'proj', 'hsig_pay.mac');
    await withConfig(d);
    const props = { config: 'cfg', server: 'srv', signal_transport: 'ZAQAR_SIGNAL' };
    await d.startCreate(props);
    const i = d.inputs();
    assert.deepEqual(
      [i.deploy_auth_url, i.deploy_user_id, i.deploy_password, i.deploy_project_id],
      ['http://h:1/agent-identity/v3', 'hsig_pay', 'hsig_pay.mac', 'proj'],
    );
    const queue = i.deploy_queue_id as string;
    assert.match(queue, /^[A-Za-z0-9_.-]{1,64}$/, 'a name Zaqar accepts');
    assert.equal(d.data.signal_queue_id, queue, 'recorded in the row for the API to check');
    assert.equal(i.deploy_signal_id, undefined);
    await d.send({ deploy_status_code: 0 });
    await d.poll('create');
    // The update's run (its wait is not followed here: no agent answers it).
    const next = { ...props, input_values: { foo: 'again' } };
    d.apply(await d.plugin.update!(d.ctx(), next, props, ['input_values']));
    assert.equal(d.inputs().deploy_action, 'UPDATE');
    assert.equal(d.inputs().deploy_queue_id, queue, 'the same queue for the update');
  });

  it('reads any output as an attribute from what it cached', () => {
    const cached = { deploy_stdout: 'o', deploy_output_values: { deploy_stdout: 'o', result: 'R' } };
    assert.equal(readDeploymentAttribute(cached, 'result'), 'R');
    assert.equal(readDeploymentAttribute(cached, 'nothing'), null);
    assert.deepEqual(readDeploymentAttribute(cached, undefined), { deploy_stdout: 'o', result: 'R' });
  });
});

describe('OS::Heat::StructuredDeployment', () => {
  it('derives the config with get_input replaced by the inputs, deploy_ inputs included', async () => {
    const d = new Deployment(structuredDeploymentPlugin);
    await d.software.createConfig({
      ...SCRIPT,
      group: 'Heat::Ungrouped',
      config: {
        port: { get_input: 'foo' },
        who: { get_input: 'deploy_server_id' },
        none: { get_input: 'missing' },
      },
    });
    await d.create({
      config: 'cfg',
      server: 'srv',
      signal_transport: 'NO_SIGNAL',
      input_values: { foo: 8080 },
    });
    assert.deepEqual(d.derived().config, { port: 8080, who: 'srv', none: null });

    const strict = new Deployment(structuredDeploymentPlugin, d.software, { key: 'other' });
    const err = await rejection(() =>
      strict.startCreate({
        config: 'cfg',
        server: 'srv',
        signal_transport: 'NO_SIGNAL',
        input_values_validate: 'STRICT',
      }),
    );
    assert.equal(err.message, 'The Parameter (missing) was not provided.');
    const props: Record<string, Value> = strict.props({ server: 's' });
    assert.deepEqual([props.input_key, props.input_values_validate], ['get_input', 'LAX']);
  });
});

describe('deployment groups and OS::Heat::SoftwareComponent', () => {
  it('a group makes one member deployment per server, named by its key, in batches by update_policy', () => {
    const group = softwareDeploymentGroupPlugin;
    const props = new FakeResource(group).props({
      config: 'cfg',
      servers: { web: 'id-w', db: 'id-d', cache: 'id-c' },
      input_values: { a: 1 },
    });
    const child = group.nested.child(
      props,
      {},
      { creating: true, updatePolicy: { batch_create: { max_batch_size: 2 } } },
    );
    const template = JSON.parse(child.template) as { resources: Record<string, JsonObject> };
    assert.deepEqual(Object.keys(template.resources), ['web', 'db', 'cache']);
    assert.deepEqual(template.resources.db, {
      type: 'OS::Heat::SoftwareDeployment',
      properties: {
        server: 'id-d',
        config: 'cfg',
        input_values: { a: 1 },
        actions: ['CREATE', 'UPDATE'],
        signal_transport: 'CFN_SIGNAL',
      },
    });
    assert.deepEqual(template.resources.cache!.depends_on, ['web', 'db'], 'second batch after the first');
    const rolling = group.nested.child(
      props,
      {},
      { updatePolicy: { rolling_update: { max_batch_size: 1, pause_time: 5 } } },
    );
    const updated = (JSON.parse(rolling.template) as { resources: Record<string, JsonObject> }).resources;
    const pauses = Object.keys(updated).filter((n) => n.startsWith('batch-pause-'));
    assert.equal(pauses.length, 2, 'a pause between each of three batches of one');
    assert.deepEqual(updated.db!.depends_on, [pauses.find((p) => p.startsWith('batch-pause-1-'))]);
    const structured = structuredDeploymentGroupPlugin.nested.child(
      new FakeResource(structuredDeploymentGroupPlugin).props({ servers: { a: 'x' }, input_key: 'in' }),
      {},
    );
    const member = (JSON.parse(structured.template) as { resources: Record<string, JsonObject> }).resources
      .a!;
    assert.equal(member.type, 'OS::Heat::StructuredDeployment');
    assert.equal((member.properties as JsonObject).input_key, 'in');
  });

  it("a group's attributes are maps by member name, any member attribute or output too", () => {
    const cached = softwareDeploymentGroupPlugin.nested.attributes({
      childId: 'c',
      childName: 'n',
      properties: { servers: { web: 'w', db: 'd' } },
      data: {},
      outputs: {},
      members: [
        {
          name: 'web',
          refId: 'r1',
          attributes: { deploy_stdout: 'W', deploy_status_code: 0, deploy_output_values: { result: 'rw' } },
        },
        {
          name: 'db',
          refId: 'r2',
          attributes: { deploy_stdout: 'D', deploy_status_code: 1, deploy_output_values: {} },
        },
      ],
    });
    const read = (name: string) => readDeploymentGroupAttribute(cached, name);
    assert.deepEqual(read('deploy_stdouts'), { db: 'D', web: 'W' });
    assert.deepEqual(read('deploy_status_codes'), { db: 1, web: 0 });
    assert.deepEqual(read('result'), { db: null, web: 'rw' });
    assert.deepEqual(read('deploy_stdout'), { db: 'D', web: 'W' });
  });

  it('OS::Heat::SoftwareDeployments and StructuredDeployments are hidden old names of the groups', () => {
    assert.equal(softwareDeploymentsPlugin.supportStatus?.status, 'HIDDEN');
    assert.equal(structuredDeploymentsPlugin.supportStatus?.status, 'HIDDEN');
  });

  it('a component stores its configs under group `component`, refusing two configs for one action', async () => {
    const c = new Deployment(softwareComponentPlugin);
    const configs = [
      { actions: ['CREATE'], tool: 'script', config: 'make' },
      { actions: ['DELETE'], tool: 'script', config: 'unmake' },
    ];
    await c.create({ configs, inputs: [{ name: 'x' }] });
    const stored = c.software.configs.get(c.physicalId!)!;
    assert.deepEqual([stored.group, stored.config], ['component', { configs }]);
    assert.deepEqual(stored.inputs, [{ name: 'x', type: 'String', replace_on_change: false }]);
    assert.deepEqual(await c.attribute('config'), { configs });
    assert.throws(
      () =>
        softwareComponentPlugin.validate!(
          c.props({ configs: [...configs, { actions: ['UPDATE', 'CREATE'], tool: 'x' }] }),
          ['resources', 'comp', 'properties'],
        ),
      /Defining more than one configuration for the same action in SoftwareComponent "comp" is not allowed/,
    );
    await c.delete();
    assert.equal(c.software.configs.size, 0);

    const d = new Deployment(softwareDeploymentPlugin, c.software);
    await c.software.createConfig({
      id: 'comp',
      name: 'n',
      group: 'component',
      config: { configs },
      inputs: [],
      outputs: [],
      options: null,
    });
    await d.create({ config: 'comp', server: 's', actions: ['UPDATE'], signal_transport: 'NO_SIGNAL' });
    assert.equal(d.deployment().action, 'CREATE', "the component's actions, not the deployment's");
    const first = d.deployment().configId;
    await d.update({
      config: 'comp',
      server: 's',
      actions: ['UPDATE'],
      signal_transport: 'NO_SIGNAL',
      input_values: { y: 1 },
    });
    assert.equal(d.deployment().configId, first, 'the component has no UPDATE config');
  });
});
