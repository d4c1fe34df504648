import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T, Workdir } from './workdir.js';

// Autoscaling through the CLI (Heat's functional tests test_autoscaling / test_heat_autoscaling:
// signals scale the group within its limits), and the concurrency story: scaling signals
// arriving while a large update runs are all applied, and the update still completes.

const HOT = 'heat_template_version: 2018-08-31';

/** `gated`: the update also adds a wait condition, so it stays in progress until the test signals it. */
function template(value: string, count: number, waitSecs = 0, gated = false): string {
  const lines = [
    HOT,
    'resources:',
    '  asg:',
    '    type: OS::Heat::AutoScalingGroup',
    '    properties:',
    '      min_size: 1',
    '      max_size: 25',
    `      resource: {type: ${T}, properties: {value: member}}`,
    '  up:',
    '    type: OS::Heat::ScalingPolicy',
    '    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: change_in_capacity, scaling_adjustment: 1}',
    '  down:',
    '    type: OS::Heat::ScalingPolicy',
    '    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: change_in_capacity, scaling_adjustment: -2}',
  ];
  const wait = waitSecs > 0 ? `, action_wait_secs: {update: ${waitSecs}}` : '';
  for (let i = 0; i < count; i++) lines.push(`  r${i}: {type: ${T}, properties: {value: ${value}${wait}}}`);
  if (gated)
    lines.push(
      '  gate_handle: {type: OS::Heat::WaitConditionHandle}',
      '  gate: {type: OS::Heat::WaitCondition, properties: {handle: {get_resource: gate_handle}, timeout: 600}}',
    );
  lines.push('outputs:', '  size: {value: {get_attr: [asg, current_size]}}');
  return `${lines.join('\n')}\n`;
}

async function size(w: Workdir): Promise<unknown> {
  return (await w.outputs('s')).size;
}

describe('functional: autoscaling', () => {
  it('test_autoscaling: signals scale the group up and down, never below min_size or above max_size', async () => {
    const w = new Workdir({ 't.yaml': template('a', 1) });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    assert.equal(await size(w), 1);
    for (let i = 0; i < 3; i++) await w.ok(['stack', 'resource', 'signal', 's', 'up']);
    await w.ok(['stack', 'run', 's']);
    assert.equal(await size(w), 4);
    await w.ok(['stack', 'resource', 'signal', 's', 'down']);
    await w.ok(['stack', 'resource', 'signal', 's', 'down']);
    await w.ok(['stack', 'run', 's']);
    assert.equal(await size(w), 1, '4 - 2 - 2 stops at min_size');
    const members = await w.resources('s', 1);
    assert.equal(members.filter((r) => r.stack_name !== 's').length, 1);
  });

  it('test_heat_autoscaling cooldown: a second signal within the cooldown does nothing', async () => {
    const w = new Workdir({
      't.yaml': template('a', 1).replace('scaling_adjustment: 1}', 'scaling_adjustment: 1, cooldown: 600}'),
    });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    await w.ok(['stack', 'resource', 'signal', 's', 'up']);
    await w.ok(['stack', 'run', 's']);
    assert.equal(await size(w), 2);
    await w.ok(['stack', 'resource', 'signal', 's', 'up']);
    await w.ok(['stack', 'run', 's']);
    assert.equal(await size(w), 2, 'within the cooldown: no change');
    await w.ok(['stack', 'resource', 'signal', 's', 'down']);
    await w.ok(['stack', 'run', 's']);
    assert.equal(await size(w), 1, 'another policy has its own cooldown');
  });

  it('20 scaling signals during an update of a 200-resource stack: all applied, and the update completes', async () => {
    // The gate holds the update open, however fast or slow this machine, until the signals are in.
    const w = new Workdir({ 't.yaml': template('a', 200), 't2.yaml': template('b', 200, 1, true) });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const update = w.start(['stack', 'update', 's', '-t', 't2.yaml', '--wait'], 300_000);
    let seen = '';
    await w
      .until('the update runs', async () => (seen = await w.status('s')) === 'UPDATE_IN_PROGRESS', 120_000)
      .catch((e: Error) => assert.fail(`${e.message} (last status ${seen})`));
    for (let i = 0; i < 20; i++) await w.ok(['stack', 'resource', 'signal', 's', i === 19 ? 'down' : 'up']);
    assert.equal(await w.status('s'), 'UPDATE_IN_PROGRESS', 'the gate still holds the update');
    await w.ok(['stack', 'resource', 'signal', 's', 'gate_handle', '--data', '{"status": "SUCCESS"}']);
    const done = await update.done;
    assert.equal(done.code, 0, done.stderr);
    await w.ok(['stack', 'run', 's']);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
    // 1 + 19 up, then 2 down, in the order sent.
    assert.equal(await size(w), 18);
    const rows = await w.resources('s');
    const updated = rows.filter((r) => /^r\d+$/.test(r.resource_name));
    assert.equal(updated.length, 200);
    for (const r of updated)
      assert.equal(r.resource_status, 'UPDATE_COMPLETE', `${r.resource_name} was updated`);
  });
});
