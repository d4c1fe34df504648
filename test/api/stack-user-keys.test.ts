import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ec2SignatureV2 } from '../../src/api/agent/cfn.js';
import { cfnInitData } from '../../src/resources/server-agent/user-data.js';
import type { ServerRecord } from '../../src/sandbox/compute/server-state.js';
import { sandboxCloud } from '../sandbox/support.js';
import { jsonCall, type ServeProcess, startNoauthServe } from './serve-process.js';

// A real `hearth serve` and the sandbox cloud: an AWS::EC2::Instance carrying
// AWS::CloudFormation::Init metadata, and AWS::IAM access keys that read it as cfn-init and
// cfn-hup do (boto's CloudFormation client: an EC2 signature version 2 GET, ContentType=JSON).

const PROJECT = 'iam';

const STACK = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Net: {Type: OS::Neutron::Net}
  Subnet:
    Type: OS::Neutron::Subnet
    Properties: {network: {Ref: Net}, cidr: 10.73.0.0/24}
  CfnUser: {Type: AWS::IAM::User}
  HostKeys:
    Type: AWS::IAM::AccessKey
    Properties: {UserName: {Ref: CfnUser}}
  WebServer:
    Type: AWS::EC2::Instance
    Metadata:
      AWS::CloudFormation::Init:
        config:
          files:
            /etc/cfn/cfn-credentials:
              content:
                Fn::Join: ['', ['AWSAccessKeyId=', {Ref: HostKeys}, "\\n", 'AWSSecretKey=', {'Fn::GetAtt': [HostKeys, SecretAccessKey]}, "\\n"]]
              mode: '000400'
          commands: {hello: {command: echo hello}}
    Properties:
      ImageId: cirros-0.6.2-x86_64-disk
      InstanceType: m1.tiny
      SubnetId: {Ref: Subnet}
      UserData: '#!/bin/sh\\n/opt/aws/bin/cfn-init -s stack -r WebServer\\n'
  Database: {Type: OS::Heat::None, Metadata: {tier: db}}
  Policy:
    Type: OS::Heat::AccessPolicy
    Properties: {AllowedResources: [Database]}
  Limited:
    Type: AWS::IAM::User
    Properties: {Policies: [{Ref: Policy}]}
  LimitedKey:
    Type: AWS::IAM::AccessKey
    Properties: {UserName: {Ref: Limited}}
Outputs:
  key: {Value: {Ref: HostKeys}}
  secret: {Value: {'Fn::GetAtt': [HostKeys, SecretAccessKey]}}
  limited_key: {Value: {Ref: LimitedKey}}
  limited_secret: {Value: {'Fn::GetAtt': [LimitedKey, SecretAccessKey]}}
`;

type Json = Record<string, unknown>;

describe('API: AWS::IAM access keys read their stack’s metadata through the CFN API', () => {
  const cloud = sandboxCloud();
  let serve: ServeProcess;
  let api: string;
  let stackPath = '';
  const outputs: Record<string, string> = {};

  const waitFor = async (name: string): Promise<Json> => {
    for (let i = 0; i < 600; i++) {
      const stack = (JSON.parse((await jsonCall('GET', `${api}/stacks/${name}`)).text) as { stack: Json })
        .stack;
      const status = String(stack.stack_status);
      if (status === 'CREATE_COMPLETE') return stack;
      if (!status.endsWith('IN_PROGRESS'))
        assert.fail(`${name}: ${status} ${String(stack.stack_status_reason)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail(`${name} never completed`);
  };

  /** DescribeStackResource as boto signs it for heat-cfntools. */
  const describeResource = async (
    key: string,
    secret: string,
    stackName: string,
    resource: string,
    path = '/cfn/v1/',
  ) => {
    const url = new URL(`${serve.url}${path}`);
    const params: Record<string, string> = {
      Action: 'DescribeStackResource',
      ContentType: 'JSON',
      StackName: stackName,
      LogicalResourceId: resource,
      AWSAccessKeyId: key,
      SignatureVersion: '2',
      SignatureMethod: 'HmacSHA256',
      Timestamp: new Date().toISOString(),
      Version: '2010-05-15',
    };
    params.Signature = ec2SignatureV2(secret, { verb: 'GET', host: url.host, path: url.pathname, params });
    const r = await jsonCall('GET', `${url.href}?${new URLSearchParams(params).toString()}`);
    return { status: r.status, body: JSON.parse(r.text) as Json };
  };

  const detailOf = (body: Json) =>
    ((body.DescribeStackResourceResponse as Json).DescribeStackResourceResult as Json)
      .StackResourceDetail as Json;
  const codeOf = (body: Json) => ((body.ErrorResponse as Json).Error as Json).Code;

  before(async () => {
    serve = await startNoauthServe();
    api = `${serve.url}/v1/${PROJECT}`;
    for (const [name, template] of [
      ['stack', STACK],
      ['other', `HeatTemplateFormatVersion: '2012-12-12'\nResources: {Database: {Type: OS::Heat::None}}\n`],
    ]) {
      const created = await jsonCall('POST', `${api}/stacks`, { stack_name: name, template });
      assert.equal(created.status, 201, created.text);
    }
    const stack = await waitFor('stack');
    await waitFor('other');
    stackPath = `stack/${String(stack.id)}`;
    for (const o of stack.outputs as { output_key: string; output_value: string }[]) {
      outputs[o.output_key] = o.output_value;
    }
  });
  after(async () => serve?.stop());

  it('the instance boots with its AWS::CloudFormation::Init metadata in cfn-init-data', async () => {
    const shown = await jsonCall('GET', `${api}/stacks/${stackPath}/resources/WebServer`);
    const id = (JSON.parse(shown.text) as { resource: Json }).resource.physical_resource_id as string;
    const server = cloud.state.get<ServerRecord>('server', id);
    const mime = Buffer.from(server!.userData!, 'base64').toString('utf8');
    const init = cfnInitData(mime) as Json;
    const config = (init['AWS::CloudFormation::Init'] as Json).config as Json;
    assert.deepEqual(config.commands, { hello: { command: 'echo hello' } });
    const file = (config.files as Json)['/etc/cfn/cfn-credentials'] as Json;
    assert.equal(file.content, `AWSAccessKeyId=${outputs.key}\nAWSSecretKey=${outputs.secret}\n`);
    // Where heat-cfntools find the API: the port from cfn-metadata-server, the host from boto's.
    assert.match(mime, new RegExp(`filename="cfn-metadata-server"\\s+${serve.url}/v1/`));
    assert.match(mime, /filename="cfn-boto-cfg"[\s\S]*cfn_region_endpoint = 127\.0\.0\.1/);
  });

  it('answers at /v1/ too, where heat-cfntools ask', async () => {
    const r = await describeResource(outputs.key!, outputs.secret!, 'stack', 'WebServer', '/v1/');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(detailOf(r.body).LogicalResourceId, 'WebServer');
  });

  it('a key reads any resource of its stack; its secret is masked in resource show', async () => {
    assert.match(outputs.key!, /^hiak_/);
    const r = await describeResource(outputs.key!, outputs.secret!, 'stack', 'WebServer');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const detail = detailOf(r.body);
    assert.equal(detail.ResourceType, 'AWS::EC2::Instance');
    assert.equal(detail.ResourceStatus, 'CREATE_COMPLETE');
    const init = (detail.Metadata as Json)['AWS::CloudFormation::Init'] as Json;
    assert.deepEqual((init.config as Json).commands, { hello: { command: 'echo hello' } });
    const db = await describeResource(outputs.key!, outputs.secret!, 'stack', 'Database');
    assert.deepEqual(detailOf(db.body).Metadata, { tier: 'db' });

    const shown = await jsonCall('GET', `${api}/stacks/${stackPath}/resources/HostKeys`);
    assert.ok(!shown.text.includes(outputs.secret!), 'no secret in resource show');
    const attributes = (JSON.parse(shown.text) as { resource: { attributes: Json } }).resource.attributes;
    assert.equal(attributes.SecretAccessKey, '******');
    const events = await jsonCall('GET', `${api}/stacks/${stackPath}/events`);
    assert.ok(!events.text.includes(outputs.secret!), 'no secret in the events');
  });

  it('refuses another stack’s resources, a wrong secret, and what the user’s policy leaves out', async () => {
    const other = await describeResource(outputs.key!, outputs.secret!, 'other', 'Database');
    assert.equal(other.status, 403);
    assert.equal(codeOf(other.body), 'AccessDenied');
    const forged = await describeResource(outputs.key!, 'not-the-secret', 'stack', 'WebServer');
    assert.equal(codeOf(forged.body), 'SignatureDoesNotMatch');
    const missing = await describeResource(outputs.key!, outputs.secret!, 'stack', 'Nothing');
    assert.equal(missing.status, 400);
    assert.equal(codeOf(missing.body), 'InvalidParameterValue');

    const limited = (name: string) =>
      describeResource(outputs.limited_key!, outputs.limited_secret!, 'stack', name);
    assert.equal((await limited('Database')).status, 200, 'the resource the policy allows');
    const denied = await limited('WebServer');
    assert.equal(denied.status, 403);
    assert.equal(codeOf(denied.body), 'AccessDenied');
  });
});
