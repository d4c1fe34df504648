import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { awsAutoScalingGroupPlugin } from '../../../src/resources/aws/autoscaling/autoscaling-group.js';
import { launchConfigurationPlugin } from '../../../src/resources/aws/autoscaling/launch-configuration.js';
import { awsScalingPolicyPlugin } from '../../../src/resources/aws/autoscaling/scaling-policy.js';
import type { PeerResource } from '../../../src/resources/contract.js';
import { isoDurationSecs, rollingUpdateOf } from '../../../src/resources/heat/instance-members.js';
import type { Value } from '../../../src/template/functions/types.js';

// The AWS autoscaling types' own rules (Heat's validate) and the child an AWS group generates.

const refusal = (plugin: { validate?: unknown }, properties: Record<string, Value>) => {
  try {
    (plugin.validate as (p: Record<string, Value>, path: string[]) => void)(properties, ['Resources', 'r']);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

const config: PeerResource = {
  name: 'Config',
  type: 'AWS::AutoScaling::LaunchConfiguration',
  physicalId: 's-Config-abc',
  action: 'CREATE',
  status: 'COMPLETE',
  properties: { ImageId: 'img', InstanceType: 'm1.tiny', KeyName: null, UserData: 'echo hi' },
  data: {},
};

describe('AWS::AutoScaling types', () => {
  it('refuse what Heat’s validate refuses', () => {
    const group = { AvailabilityZones: [], LaunchConfigurationName: 'c', MinSize: 1, MaxSize: 3 };
    assert.equal(refusal(awsAutoScalingGroupPlugin, group), undefined);
    assert.match(
      refusal(awsAutoScalingGroupPlugin, { ...group, MinSize: 4 })!,
      /MinSize can not be greater than MaxSize/,
    );
    assert.match(
      refusal(awsAutoScalingGroupPlugin, { ...group, DesiredCapacity: 5 })!,
      /DesiredCapacity must be between MinSize and MaxSize/,
    );
    assert.match(
      refusal(awsAutoScalingGroupPlugin, { ...group, VPCZoneIdentifier: ['a', 'b'] })!,
      /Anything other than one VPCZoneIdentifier/,
    );
    assert.match(
      refusal(awsAutoScalingGroupPlugin, { ...group, InstanceId: 'i-1' })!,
      /Either 'InstanceId' or 'LaunchConfigurationName' must be provided/,
    );
    assert.match(
      refusal(launchConfigurationPlugin, { ImageId: 'img' })!,
      /If without InstanceId, ImageId and InstanceType are required/,
    );
    assert.match(
      refusal(launchConfigurationPlugin, {
        ImageId: 'i',
        InstanceType: 't',
        BlockDeviceMappings: [{ DeviceName: 'vdb', Ebs: {} }],
      })!,
      /SnapshotId is missing/,
    );
    const policy = { AutoScalingGroupName: 'g', AdjustmentType: 'ChangeInCapacity', ScalingAdjustment: 1 };
    assert.equal(refusal(awsScalingPolicyPlugin, policy), undefined);
    assert.match(
      refusal(awsScalingPolicyPlugin, { ...policy, MinAdjustmentStep: 1 })!,
      /MinAdjustmentStep property should only be specified for AdjustmentType with value PercentChangeInCapacity/,
    );
  });

  it('read PauseTime as Heat does: PT#H#M#S only, at most an hour', () => {
    assert.equal(isoDurationSecs('PT1H2M3S', []), 3723);
    assert.equal(isoDurationSecs('PT0S', []), 0);
    assert.throws(() => isoDurationSecs('P1D', []), /Only ISO 8601 duration format of the form PT#H#M#S/);
    assert.deepEqual(
      rollingUpdateOf({ RollingUpdate: { MaxBatchSize: 2, PauseTime: 'PT5M' } }, 'RollingUpdate'),
      {
        min_in_service: 0,
        max_batch_size: 2,
        pause_time: 300,
      },
    );
    assert.throws(
      () => rollingUpdateOf({ RollingUpdate: { PauseTime: 'PT2H' } }, 'RollingUpdate'),
      /Maximum PauseTime is 1 hour/,
    );
    assert.equal(rollingUpdateOf({}, 'RollingUpdate'), undefined);
  });

  it('a group’s members are AWS::EC2::Instance of the launch configuration, its tags and subnet', () => {
    const properties = {
      AvailabilityZones: [],
      LaunchConfigurationName: 's-Config-abc',
      MinSize: 2,
      MaxSize: 3,
      VPCZoneIdentifier: ['subnet-1'],
      Tags: [{ Key: 'role', Value: 'web' }],
    };
    const child = awsAutoScalingGroupPlugin.nested.child(properties, {}, { creating: true, peer: config });
    const resources = Object.values(JSON.parse(child.template).resources as Record<string, unknown>);
    assert.equal(resources.length, 2);
    assert.deepEqual(resources[0], {
      type: 'AWS::EC2::Instance',
      properties: {
        ImageId: 'img',
        InstanceType: 'm1.tiny',
        UserData: 'echo hi',
        Tags: [{ Key: 'role', Value: 'web' }],
        SubnetId: 'subnet-1',
      },
    });
    assert.throws(
      () => awsAutoScalingGroupPlugin.nested.child(properties, {}, { creating: true }),
      /LaunchConfigurationName \(s-Config-abc\) reference can not be found/,
    );
  });
});
