import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findStack } from '../../src/engine/operations/queries.js';
import { signalResource } from '../../src/engine/operations/signal.js';
import type { ResourceRecord } from '../../src/store/contract.js';
import { type DriftRig, driftRig } from './drift-support.js';

// Issue 23's acceptance: an AWS AutoScalingGroup (AWS::EC2::Instance members on the sandbox cloud,
// made from a LaunchConfiguration) scaled by its policies' signals, a signal arriving while a
// rolling update (with PauseTime) runs, cooldown, and a delete that leaves no server behind.

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const template = (userData: string) =>
  JSON.stringify({
    AWSTemplateFormatVersion: '2010-09-09',
    Resources: {
      Vpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.7.0.0/16' } },
      Subnet: {
        Type: 'AWS::EC2::Subnet',
        Properties: { VpcId: { Ref: 'Vpc' }, CidrBlock: '10.7.1.0/24' },
      },
      Config: {
        Type: 'AWS::AutoScaling::LaunchConfiguration',
        Properties: { ImageId: 'cirros-0.6.2-x86_64-disk', InstanceType: 'm1.tiny', UserData: userData },
      },
      Group: {
        Type: 'AWS::AutoScaling::AutoScalingGroup',
        Properties: {
          AvailabilityZones: { 'Fn::GetAZs': '' },
          LaunchConfigurationName: { Ref: 'Config' },
          MinSize: '1',
          MaxSize: '4',
          VPCZoneIdentifier: [{ Ref: 'Subnet' }],
          Tags: [{ Key: 'role', Value: 'web' }],
        },
        UpdatePolicy: {
          AutoScalingRollingUpdate: { MinInstancesInService: '1', MaxBatchSize: '1', PauseTime: 'PT30S' },
        },
      },
      ScaleUp: {
        Type: 'AWS::AutoScaling::ScalingPolicy',
        Properties: {
          AutoScalingGroupName: { Ref: 'Group' },
          AdjustmentType: 'ChangeInCapacity',
          ScalingAdjustment: '1',
          Cooldown: '60',
        },
      },
      ScaleDown: {
        Type: 'AWS::AutoScaling::ScalingPolicy',
        Properties: {
          AutoScalingGroupName: { Ref: 'Group' },
          AdjustmentType: 'PercentChangeInCapacity',
          ScalingAdjustment: '-50',
        },
      },
    },
    Outputs: { Ips: { Value: { 'Fn::GetAtt': ['Group', 'InstanceList'] } } },
  });

describe('AWS::AutoScaling on the sandbox cloud, through the engine', () => {
  let rig: DriftRig;
  const servers = async (): Promise<Answer[]> =>
    (await rig.demo.request<Answer>('compute', 'GET', '/servers/detail')).body.servers;

  async function members(): Promise<ResourceRecord[]> {
    const top = await rig.h.stack('asg');
    const [child] = await rig.h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
    const rows = await rig.h.deps.store.tx((tx) => tx.resources.listActive(child!.id));
    return rows.filter((r) => r.type === 'AWS::EC2::Instance');
  }

  async function signal(policy: string): Promise<void> {
    const stack = await findStack(rig.h.deps, 'p', 'asg');
    await signalResource(rig.h.deps, stack.id, policy, null);
    await rig.h.settle();
  }

  before(async () => {
    rig = await driftRig();
    await rig.create('asg', template('v1'));
  });
  after(() => rig?.close());

  it('creates MinSize instances from the launch configuration; InstanceList has their IPs', async () => {
    const made = await servers();
    assert.equal(made.length, 1);
    assert.equal(made[0]!.metadata.role, 'web', "the group's tags reach the instances");
    const ips = String((await rig.h.outputs('asg')).Ips);
    assert.match(ips, /^\d+\.\d+\.\d+\.\d+$/);
  });

  it('scales up by signal, honours the cooldown, scales down by a percentage', async () => {
    await signal('ScaleUp');
    assert.equal((await servers()).length, 2);
    await signal('ScaleUp');
    assert.equal((await servers()).length, 2, 'the second signal came within the cooldown');
    assert.equal(String((await rig.h.outputs('asg')).Ips).split(',').length, 2);
    rig.h.clock.t += 61_000;
    await signal('ScaleUp');
    assert.equal((await servers()).length, 3);
    await signal('ScaleDown');
    assert.equal((await servers()).length, 2, '-50% of 3 rounds towards zero: 2');
    assert.equal(await rig.h.status('asg'), 'UPDATE_COMPLETE');
  });

  it('a signal during a rolling update (PauseTime between batches) lands with the update', async () => {
    const before = new Set((await servers()).map((s) => s.id as string));
    rig.h.clock.t += 61_000;
    await rig.h.update('asg', template('v2'));
    // Run until the first batch is replaced and the pause between batches waits.
    for (let i = 0; i < 50; i++) {
      await rig.h.round();
      const now = (await servers()).map((s) => s.id as string);
      if (now.some((id) => !before.has(id)) && now.some((id) => before.has(id))) break;
    }
    assert.equal(await rig.h.status('asg'), 'UPDATE_IN_PROGRESS');
    const stack = await findStack(rig.h.deps, 'p', 'asg');
    await signalResource(rig.h.deps, stack.id, 'ScaleUp', null);
    await rig.h.settle();
    assert.equal(await rig.h.status('asg'), 'UPDATE_COMPLETE');
    const after = await servers();
    assert.equal(after.length, 3, 'the scaling signal applied');
    assert.ok(
      after.every((s) => !before.has(s.id as string)),
      'every instance is of the new launch configuration',
    );
    assert.equal((await members()).length, 3);
  });

  it('a delete leaves nothing in the sandbox', async () => {
    await rig.h.delete('asg');
    await rig.h.settle();
    assert.equal(await rig.h.status('asg'), 'DELETE_COMPLETE');
    assert.deepEqual(await servers(), []);
  });

  it('OS::Heat::InstanceGroup: Size members, resized by an update, a new configuration rolled', async () => {
    const group = (size: number, userData: string) =>
      template(userData)
        .replace(
          /"Group":\{.*?"UpdatePolicy"/,
          `"Group":{"Type":"OS::Heat::InstanceGroup","Properties":{"AvailabilityZones":[],` +
            `"LaunchConfigurationName":{"Ref":"Config"},"Size":${size}},"UpdatePolicy"`,
        )
        .replace('"AutoScalingRollingUpdate"', '"RollingUpdate"')
        .replace(/,"ScaleUp":.*?"Outputs"/, '},"Outputs"');
    await rig.create('ig', group(2, 'v1'));
    assert.equal((await servers()).length, 2);
    assert.equal(String((await rig.h.outputs('ig')).Ips).split(',').length, 2);
    const first = new Set((await servers()).map((s) => s.id as string));
    await rig.h.update('ig', group(3, 'v1'));
    await rig.h.settle();
    assert.equal(await rig.h.status('ig'), 'UPDATE_COMPLETE');
    const grown = await servers();
    assert.equal(grown.length, 3);
    assert.equal(grown.filter((s) => first.has(s.id as string)).length, 2, 'the members stay');
    await rig.h.update('ig', group(1, 'v2'));
    await rig.h.settle();
    assert.equal(await rig.h.status('ig'), 'UPDATE_COMPLETE');
    const rolled = await servers();
    assert.equal(rolled.length, 1);
    assert.ok(!first.has(rolled[0]!.id as string), 'the instance is of the new configuration');
    await rig.h.delete('ig');
    await rig.h.settle();
    assert.deepEqual(await servers(), []);
  });

  it('a LaunchConfiguration with InstanceId makes members of that server’s image and flavor', async () => {
    const text = JSON.stringify({
      AWSTemplateFormatVersion: '2010-09-09',
      Resources: {
        Vpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.8.0.0/16' } },
        Subnet: {
          Type: 'AWS::EC2::Subnet',
          Properties: { VpcId: { Ref: 'Vpc' }, CidrBlock: '10.8.1.0/24' },
        },
        Source: {
          Type: 'AWS::EC2::Instance',
          Properties: {
            ImageId: 'cirros-0.6.2-x86_64-disk',
            InstanceType: 'm1.small',
            SubnetId: { Ref: 'Subnet' },
          },
        },
        Config: {
          Type: 'AWS::AutoScaling::LaunchConfiguration',
          Properties: { InstanceId: { Ref: 'Source' } },
        },
        Group: {
          Type: 'OS::Heat::InstanceGroup',
          Properties: { AvailabilityZones: [], LaunchConfigurationName: { Ref: 'Config' }, Size: 1 },
        },
      },
    });
    await rig.create('copy', text);
    assert.equal((await servers()).length, 2);
    const ids = await rig.ids('copy');
    const original = (await servers()).find((s) => s.id === ids.get('Source'))!;
    const copy = (await servers()).find((s) => s.id !== ids.get('Source'))!;
    assert.equal(copy.image.id, original.image.id);
    assert.deepEqual(copy.flavor, original.flavor);
    await rig.h.delete('copy');
    await rig.h.settle();
    assert.deepEqual(await servers(), []);
  });
});
