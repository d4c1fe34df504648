import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signalCredentials, SignalSigner } from '../../src/auth/signal-tokens.js';
import { createStack } from '../../src/engine/operations/create.js';
import { deleteStack } from '../../src/engine/operations/lifecycle.js';
import { signalResource } from '../../src/engine/operations/signal.js';
import { updateStack } from '../../src/engine/operations/update.js';
import { DB_IMAGE } from '../../src/resources/aws/rds/db-instance.js';
import type { StackRecord } from '../../src/store/contract.js';
import type { JsonObject } from '../../src/util/json.js';
import { type DriftRig, driftRig } from './drift-support.js';

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// The AWS types Heat builds from nested stacks or other services (load balancer, database,
// alarm, bucket) through the engine, on the sandbox cloud. There is no API here for the sandbox's
// cfn-tools to reach, so the test signals each nested wait condition's handle itself, as cfn-signal would.

const signer = new SignalSigner(Buffer.from('k'.repeat(32)));
const credentials = { signalCredentials: signalCredentials.bind(null, signer, 'http://hearth.test:8004') };

const template = (members: string, tag: string, threshold: string) => `AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  LbImageId: {Type: String, Default: cirros-0.6.2-x86_64-disk}
  LbFlavor: {Type: String, Default: m1.tiny}
Resources:
  web1: {Type: 'AWS::EC2::Instance', Properties: {ImageId: cirros-0.6.2-x86_64-disk, InstanceType: m1.tiny}}
  web2: {Type: 'AWS::EC2::Instance', Properties: {ImageId: cirros-0.6.2-x86_64-disk, InstanceType: m1.tiny}}
  lb:
    Type: AWS::ElasticLoadBalancing::LoadBalancer
    Properties:
      AvailabilityZones: [nova]
      Listeners: [{LoadBalancerPort: '80', InstancePort: '8080', Protocol: HTTP}]
      HealthCheck: {Target: 'HTTP:8080/', HealthyThreshold: '3', UnhealthyThreshold: '5', Interval: '30', Timeout: '5'}
      Instances: ${members}
  db:
    Type: AWS::RDS::DBInstance
    Properties:
      DBName: shop
      Engine: MySQL
      MasterUsername: admin
      MasterUserPassword: s3cret-pw
      DBInstanceClass: db.m1.small
      AllocatedStorage: '5'
  site:
    Type: AWS::S3::Bucket
    Properties:
      AccessControl: PublicRead
      WebsiteConfiguration: {IndexDocument: index.html, ErrorDocument: error.html}
      Tags: [{Key: team, Value: ${tag}}]
  busy:
    Type: AWS::CloudWatch::Alarm
    Properties:
      MetricName: cpu_util
      Statistic: Average
      Period: '60'
      EvaluationPeriods: '2'
      Threshold: '${threshold}'
      ComparisonOperator: GreaterThanThreshold
      AlarmActions: ['http://example.test/scale-up']
      Dimensions: [{Name: AutoScalingGroupName, Value: web}]
Outputs:
  lb_dns: {Value: {'Fn::GetAtt': [lb, DNSName]}}
  lb_zone: {Value: {'Fn::GetAtt': [lb, CanonicalHostedZoneName]}}
  db_address: {Value: {'Fn::GetAtt': [db, Endpoint.Address]}}
  db_port: {Value: {'Fn::GetAtt': [db, Endpoint.Port]}}
  bucket: {Value: {Ref: site}}
  domain: {Value: {'Fn::GetAtt': [site, DomainName]}}
  website: {Value: {'Fn::GetAtt': [site, WebsiteURL]}}
`;

describe('the AWS load balancer, database, alarm and bucket on the sandbox cloud, through the engine', () => {
  let rig: DriftRig;
  let stack: StackRecord;
  const signalled = new Set<string>();
  const get = async (service: string, path: string) =>
    (await rig.demo.request<Answer>(service, 'GET', path)).body;

  const children = async () => rig.h.deps.store.tx((tx) => tx.stacks.list({ parentId: stack.id }));
  const childOf = async (resource: string) => {
    const row = (await rig.h.rows('aws')).find((r) => r.name === resource)!;
    const child = (await children()).find((c) => c.id === row.data.nested_stack);
    assert.ok(child, `the child stack of ${resource}`);
    return child;
  };
  const childTemplate = async (resource: string) => {
    const child = await childOf(resource);
    const record = await rig.h.deps.store.tx((tx) => tx.templates.get(child.templateId!));
    return JSON.parse(record!.template) as Answer;
  };
  const haproxyCfg = async () =>
    (await childTemplate('lb')).Resources.LB_instance.Metadata['AWS::CloudFormation::Init'].config.files[
      '/etc/haproxy/haproxy.cfg'
    ].content as string;

  /** Runs the engine until the stack is done, signalling each child's handle once it exists (cfn-signal's part). */
  async function converge(): Promise<string> {
    for (let i = 0; i < 2000; i++) {
      for (const child of await children()) {
        const rows = await rig.h.deps.store.tx((tx) => tx.resources.listActive(child.id));
        const handle = rows.find((r) => r.name === 'WaitHandle');
        const key = `${child.id}/${handle?.physicalId}`;
        if (handle?.status === 'COMPLETE' && !signalled.has(key)) {
          signalled.add(key);
          const data: JsonObject = { Status: 'SUCCESS', Reason: 'set up', UniqueId: 'vm', Data: 'ok' };
          await signalResource(rig.h.deps, child.id, 'WaitHandle', data);
        }
      }
      const now = (await rig.h.deps.store.tx((tx) => tx.stacks.get(stack.id)))!;
      if (now.status !== 'IN_PROGRESS') return `${now.action}_${now.status}: ${now.reason}`;
      await rig.h.round();
    }
    throw new Error('the stack did not converge');
  }

  before(async () => {
    rig = await driftRig(credentials);
    // The servers' network: the project's only one, which Nova picks for a server that names none.
    const net = await rig.demo.request<Answer>('network', 'POST', '/networks', { network: { name: 'lan' } });
    await rig.demo.request('network', 'POST', '/subnets', {
      subnet: { network_id: net.body.network.id, cidr: '10.5.0.0/24', ip_version: 4 },
    });
    // Heat's built-in database template boots this image: a cloud must offer it by that name.
    await rig.demo.request('image', 'POST', '/images', {
      name: DB_IMAGE,
      container_format: 'bare',
      disk_format: 'qcow2',
    });
    stack = await createStack(rig.h.deps, rig.h.engine.cache, {
      name: 'aws',
      projectId: 'p',
      template: rig.h.input(template('[{Ref: web1}]', 'blue', '80')),
      disableRollback: true,
    });
    assert.match(await converge(), /^CREATE_COMPLETE/);
  });
  after(() => rig?.close());

  it('makes the load balancer an haproxy server listing its instance, with the parent’s image and flavor', async () => {
    const ids = await rig.ids('aws');
    const web1 = (await get('compute', `/servers/${ids.get('web1')}`)).server;
    const ip = Object.values(web1.addresses as Record<string, Answer[]>)[0]![0]!.addr;
    const cfg = await haproxyCfg();
    assert.match(cfg, /bind \*:80\n/);
    assert.match(cfg, /timeout check 5s/);
    assert.match(
      cfg,
      new RegExp(`server server1 ${ip.replace(/\./g, '\\.')}:8080 check inter 30s fall 5 rise 3\\n$`),
    );
    const lb = await childOf('lb');
    const rows = await rig.h.deps.store.tx((tx) => tx.resources.listActive(lb.id));
    const server = (
      await get('compute', `/servers/${rows.find((r) => r.name === 'LB_instance')!.physicalId}`)
    ).server;
    assert.equal(
      server.flavor.original_name ?? server.flavor.id,
      server.flavor.original_name ? 'm1.tiny' : '1',
    );
    const image = await get('image', `/images/${server.image.id}`);
    assert.equal(image.name, 'cirros-0.6.2-x86_64-disk');
    const out = await rig.h.outputs('aws');
    assert.match(String(out.lb_dns), /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(out.lb_zone, '');
  });

  it('makes the database a server with its port open, its password hidden in the child', async () => {
    const out = await rig.h.outputs('aws');
    assert.match(String(out.db_address), /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(out.db_port, '3306');
    const db = await childOf('db');
    const rows = await rig.h.deps.store.tx((tx) => tx.resources.listActive(db.id));
    const group = (
      await get(
        'network',
        `/security-groups/${rows.find((r) => r.name === 'ServerSecurityGroup')!.physicalId}`,
      )
    ).security_group;
    assert.ok(
      group.security_group_rules.some((r: Answer) => r.direction === 'ingress' && r.port_range_min === 3306),
    );
    const server = (
      await get('compute', `/servers/${rows.find((r) => r.name === 'DatabaseInstance')!.physicalId}`)
    ).server;
    assert.equal(server.status, 'ACTIVE');
    const parameters = (await childTemplate('db')).Parameters;
    assert.equal(parameters.MasterUserPassword.NoEcho, 'true');
  });

  it('makes the bucket a Swift container with Heat’s ACLs and metadata, the alarm an Aodh threshold alarm', async () => {
    const out = await rig.h.outputs('aws');
    const name = String(out.bucket);
    assert.match(name, /^aws-site-/);
    const head = await rig.demo.request('object-store', 'HEAD', `/${name}`);
    assert.equal(head.headers.get('x-container-read'), '.r:*');
    assert.equal(head.headers.get('x-container-write'), 'demo:demo');
    assert.equal(head.headers.get('x-container-meta-web-index'), 'index.html');
    assert.equal(head.headers.get('x-container-meta-web-error'), 'error.html');
    assert.equal(head.headers.get('x-container-meta-s3-tag-team'), 'blue');
    assert.equal(out.domain, '127.0.0.1');
    assert.match(
      String(out.website),
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/object-store/v1/AUTH_[0-9a-f]+/${name}$`),
    );

    const alarm = await get('alarming', `/v2/alarms/${(await rig.ids('aws')).get('busy')}`);
    assert.equal(alarm.type, 'threshold');
    assert.deepEqual(alarm.alarm_actions, ['http://example.test/scale-up']);
    assert.deepEqual(alarm.threshold_rule, {
      meter_name: 'cpu_util',
      period: 60,
      evaluation_periods: 2,
      threshold: 80,
      statistic: 'avg',
      comparison_operator: 'gt',
      query: [{ field: 'metadata.user_metadata.AutoScalingGroupName', op: 'eq', value: 'web' }],
    });
  });

  it('updates: a new member rewrites the haproxy metadata only, the alarm in place, the bucket replaced', async () => {
    const before = await rig.ids('aws');
    const lbBefore = await childOf('lb');
    const lbRowsBefore = await rig.h.deps.store.tx((tx) => tx.resources.listActive(lbBefore.id));
    const oldBucket = String((await rig.h.outputs('aws')).bucket);
    await updateStack(rig.h.deps, rig.h.engine.cache, stack.id, {
      template: rig.h.input(template('[{Ref: web1}, {Ref: web2}]', 'green', '90')),
    });
    assert.match(await converge(), /^UPDATE_COMPLETE/);
    const after = await rig.ids('aws');
    assert.match(await haproxyCfg(), /server server2 [\d.]+:8080 check/);
    const lbRowsAfter = await rig.h.deps.store.tx((tx) => tx.resources.listActive(lbBefore.id));
    const serverOf = (rows: typeof lbRowsAfter) => rows.find((r) => r.name === 'LB_instance')!.physicalId;
    assert.equal(serverOf(lbRowsAfter), serverOf(lbRowsBefore), 'the haproxy server is not replaced');
    assert.equal(after.get('busy'), before.get('busy'));
    const alarm = await get('alarming', `/v2/alarms/${after.get('busy')}`);
    assert.equal(alarm.threshold_rule.threshold, 90);
    const newBucket = String((await rig.h.outputs('aws')).bucket);
    assert.notEqual(newBucket, oldBucket);
    await assert.rejects(rig.demo.request('object-store', 'HEAD', `/${oldBucket}`), /404|not found/i);
    const head = await rig.demo.request('object-store', 'HEAD', `/${newBucket}`);
    assert.equal(head.headers.get('x-container-meta-s3-tag-team'), 'green');
  });

  it('refuses to delete a bucket with objects in it, then deletes everything once it is empty', async () => {
    const ids = await rig.ids('aws');
    const bucket = ids.get('site')!;
    await rig.demo.request('object-store', 'PUT', `/${bucket}/index.html`, 'hello', {
      headers: { 'Content-Type': 'text/html' },
    });
    await deleteStack(rig.h.deps, stack.id);
    const failed = await converge();
    assert.match(failed, /^DELETE_FAILED/);
    assert.match(failed, /The bucket you tried to delete is not empty/);
    await rig.demo.request('object-store', 'DELETE', `/${bucket}/index.html`);
    await deleteStack(rig.h.deps, stack.id);
    assert.match(await converge(), /^DELETE_COMPLETE/);
    await assert.rejects(get('alarming', `/v2/alarms/${ids.get('busy')}`), /not found/i);
    const containers = (
      await rig.demo.request<Answer[]>('object-store', 'GET', '', undefined, { query: { format: 'json' } })
    ).body;
    assert.deepEqual(containers, []);
    const servers = (await get('compute', '/servers')).servers;
    assert.deepEqual(servers, []);
  });
});
