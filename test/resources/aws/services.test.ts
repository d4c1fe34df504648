import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Cloud } from '../../../src/openstack/index.js';
import { cloudWatchAlarmPlugin } from '../../../src/resources/aws/cloudwatch/alarm.js';
import { s3BucketPlugin } from '../../../src/resources/aws/s3/bucket.js';
import { ResourceFailure } from '../../../src/resources/contract.js';
import { type TypeRig, typeRig } from '../openstack/sandbox-cloud.js';

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// AWS::S3::Bucket and AWS::CloudWatch::Alarm on the sandbox's Swift and Aodh: creates run again
// after a crash find what the first run made; a cloud without the service is a clear failure.
describe('AWS::S3::Bucket and AWS::CloudWatch::Alarm on the sandbox cloud', () => {
  let rig: TypeRig;
  const ALARM = {
    MetricName: 'Latency',
    Statistic: 'Maximum',
    Period: '300',
    EvaluationPeriods: '1',
    Threshold: '2.5',
    ComparisonOperator: 'LessThanOrEqualToThreshold',
  };

  before(async () => {
    rig = await typeRig({ bootDelayMs: 0 });
  });
  after(() => rig?.close());

  it('makes one container however often the create runs, with the ACLs its AccessControl names', async () => {
    const first = rig.resource(s3BucketPlugin, 'k-bucket');
    await first.create({ AccessControl: 'AuthenticatedRead' });
    const again = rig.resource(s3BucketPlugin, 'k-bucket');
    await again.create({ AccessControl: 'AuthenticatedRead' });
    assert.equal(again.physicalId, first.physicalId);
    const account = await rig.demo.request<Answer[]>('object-store', 'GET', '', undefined, {
      query: { format: 'json' },
    });
    assert.deepEqual(
      account.body.map((c) => c.name),
      [first.physicalId],
    );
    const head = await rig.demo.request('object-store', 'HEAD', `/${first.physicalId}`);
    assert.equal(head.headers.get('x-container-read'), 'demo');
    assert.equal(head.headers.get('x-container-write'), 'demo:demo');
    const open = rig.resource(s3BucketPlugin, 'k-open');
    await open.create({ AccessControl: 'PublicReadWrite' });
    const openHead = await rig.demo.request('object-store', 'HEAD', `/${open.physicalId}`);
    assert.equal(openHead.headers.get('x-container-write'), '.r:*');
    for (const r of [first, open]) {
      await r.delete();
      await r.delete();
    }
  });

  it('makes one alarm however often the create runs, and deletes it twice', async () => {
    const first = rig.resource(cloudWatchAlarmPlugin, 'k-alarm');
    await first.create(ALARM);
    const again = rig.resource(cloudWatchAlarmPlugin, 'k-alarm');
    await again.create(ALARM);
    assert.equal(again.physicalId, first.physicalId);
    const alarms = (await rig.demo.request<Answer[]>('alarming', 'GET', '/v2/alarms')).body;
    assert.equal(alarms.length, 1);
    assert.equal(alarms[0]!.threshold_rule.threshold, 2.5);
    assert.equal(alarms[0]!.threshold_rule.comparison_operator, 'le');
    assert.equal(alarms[0]!.threshold_rule.statistic, 'max');
    await first.delete();
    await first.delete();
    assert.deepEqual((await rig.demo.request('alarming', 'GET', '/v2/alarms')).body, []);
  });

  it('fails clearly on a cloud without the service, and on a period that is not a number', async () => {
    const missing = (type: string) =>
      Object.assign(Object.create(rig.demo) as Cloud, {
        request: async () => {
          throw new Error(`no ${type} endpoint for the public interface in the catalog (it lists compute)`);
        },
      });
    const alarm = rig.resource(cloudWatchAlarmPlugin, 'k-none', missing('alarming'));
    await assert.rejects(alarm.create(ALARM), (e: unknown) => {
      assert.ok(e instanceof ResourceFailure);
      assert.match(e.message, /The cloud offers no alarming service \(Aodh\): no alarming endpoint/);
      return true;
    });
    const bucket = rig.resource(s3BucketPlugin, 'k-none', missing('object-store'));
    await assert.rejects(bucket.create({}), /The cloud offers no object storage \(Swift\)/);
    const bad = rig.resource(cloudWatchAlarmPlugin, 'k-bad');
    await assert.rejects(bad.create({ ...ALARM, Period: 'soon' }), /Period: "soon" is not an integer/);
  });
});
