import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { login, sandboxCloud } from '../sandbox/support.js';
import { addKeypair, KEY } from '../software/harness.js';
import { CORPUS } from '../support/shared.js';
import { jsonCall, type ServeProcess, startNoauthServe } from './serve-process.js';

// One `hearth serve` and the sandbox cloud: AWS::EC2::Instance servers whose UserData the sandbox's
// heat-cfntools emulation interprets: cfn-init (its metadata read through the CFN API with the
// stack's access key), files written under the server's scratch root, commands by the policy knob,
// then cfn-signal to a WaitConditionHandle the stack's WaitCondition waits on.

const PROJECT = 'cfntools';

const TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  Motd: {Type: String, Default: first}
Resources:
  Net: {Type: OS::Neutron::Net}
  Subnet:
    Type: OS::Neutron::Subnet
    Properties: {network: {Ref: Net}, cidr: 10.74.0.0/24}
  CfnUser: {Type: AWS::IAM::User}
  HostKeys:
    Type: AWS::IAM::AccessKey
    Properties: {UserName: {Ref: CfnUser}}
  WaitHandle: {Type: AWS::CloudFormation::WaitConditionHandle}
  WebServer:
    Type: AWS::EC2::Instance
    Metadata:
      AWS::CloudFormation::Init:
        config:
          packages: {yum: {httpd: []}}
          files:
            /etc/app/motd:
              content: {'Fn::Join': ['', ['stack ', {Ref: 'AWS::StackName'}, ' ', {Ref: Motd}, "\\n"]]}
              mode: '000644'
              owner: root
              group: root
            /etc/cfn/cfn-credentials:
              content: {'Fn::Join': ['', ['AWSAccessKeyId=', {Ref: HostKeys}, "\\nAWSSecretKey=", {'Fn::GetAtt': [HostKeys, SecretAccessKey]}, "\\n"]]}
              mode: '000400'
            /etc/cfn/cfn-hup.conf:
              content: {'Fn::Join': ['', ["[main]\\nstack=", {Ref: 'AWS::StackName'}, "\\ncredential-file=/etc/cfn/cfn-credentials\\ninterval=1\\n"]]}
            /etc/cfn/hooks.conf:
              content:
                Fn::Join:
                - ''
                - - "[cfn-auto-reloader]\\ntriggers=post.update\\npath=Resources.WebServer.Metadata\\n"
                  - "action=/opt/aws/bin/cfn-init -s "
                  - {Ref: 'AWS::StackName'}
                  - " -r WebServer --access-key "
                  - {Ref: HostKeys}
                  - " --secret-key "
                  - {'Fn::GetAtt': [HostKeys, SecretAccessKey]}
                  - "\\nrunas=root\\n"
          commands:
            01-ran: {command: 'echo ran > ran.txt'}
    Properties:
      ImageId: cirros-0.6.2-x86_64-disk
      InstanceType: m1.tiny
      SubnetId: {Ref: Subnet}
      UserData:
        Fn::Base64:
          Fn::Join:
          - ''
          - - "#!/bin/bash -v\\n"
            - "function error_exit\\n{\\n  /opt/aws/bin/cfn-signal -e 1 -r \\"$1\\" '"
            - {Ref: WaitHandle}
            - "'\\n  exit 1\\n}\\n"
            - "/opt/aws/bin/cfn-init -s "
            - {Ref: 'AWS::StackName'}
            - " -r WebServer \\\\\\n    --access-key "
            - {Ref: HostKeys}
            - " --secret-key "
            - {'Fn::GetAtt': [HostKeys, SecretAccessKey]}
            - " || error_exit 'Failed to run cfn-init'\\n"
            - "/opt/aws/bin/cfn-hup || error_exit 'Failed to start cfn-hup'\\n"
            - "yum -y install httpd || error_exit 'yum failed'\\n"
            - "/opt/aws/bin/cfn-signal -e 0 -r 'Setup complete' '"
            - {Ref: WaitHandle}
            - "'\\n"
  WaitCondition:
    Type: AWS::CloudFormation::WaitCondition
    DependsOn: WebServer
    Properties: {Handle: {Ref: WaitHandle}, Timeout: '120'}
Outputs:
  data: {Value: {'Fn::GetAtt': [WaitCondition, Data]}}
  secret: {Value: {'Fn::GetAtt': [HostKeys, SecretAccessKey]}}
`;

type Json = Record<string, unknown>;

interface GuestView {
  server_id: string;
  status: string;
  root: string;
  calls: { tool: string; args: string[]; status: number; message: string | null }[];
  files: { path: string; mode: string | null; bytes: number | null }[];
  commands: { name: string; policy: string; status: number | null }[];
  recorded: Json[];
  signals: { status: string; reason: string; unique_id: string; http_status: number | null }[];
  hup: { polls: number; hooks_run: { hook: string; status: number }[] } | null;
}

describe('API: AWS::EC2::Instance servers run cfn-init and cfn-signal in the sandbox', () => {
  const cloud = sandboxCloud({ noise: { bootDelayMs: 50, agentPollIntervalMs: 100, cfnHupIntervalMs: 100 } });
  let serve: ServeProcess;
  let api: string;

  /** Creates the stack and waits until it settles: the stack as shown. */
  const create = async (name: string, template = TEMPLATE, parameters: Json = {}): Promise<Json> => {
    const created = await jsonCall('POST', `${api}/stacks`, { stack_name: name, template, parameters });
    assert.equal(created.status, 201, created.text);
    for (let i = 0; i < 1200; i++) {
      const stack = (JSON.parse((await jsonCall('GET', `${api}/stacks/${name}`)).text) as { stack: Json })
        .stack;
      if (!String(stack.stack_status).endsWith('IN_PROGRESS')) return stack;
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail(`${name} never settled`);
  };

  const guestOf = async (stack: Json, resource = 'WebServer'): Promise<GuestView> => {
    const path = `${String(stack.stack_name)}/${String(stack.id)}`;
    const shown = await jsonCall('GET', `${api}/stacks/${path}/resources/${resource}`);
    const id = (JSON.parse(shown.text) as { resource: Json }).resource.physical_resource_id;
    const found = (await guests()).find((g) => g.server_id === id);
    return found ?? assert.fail(`no cfn-tools guest for ${String(id)}`);
  };

  const guests = async (): Promise<GuestView[]> => {
    const r = await cloud.app.inject({ method: 'GET', url: '/admin/cfntools' });
    return (r.json() as { guests: GuestView[] }).guests;
  };

  const setNoise = async (changes: Json) => {
    const r = await cloud.app.inject({ method: 'PUT', url: '/admin/noise', payload: changes });
    assert.ok(r.statusCode < 300, r.body);
  };

  before(async () => {
    serve = await startNoauthServe();
    api = `${serve.url}/v1/${PROJECT}`;
  });
  after(async () => serve?.stop());

  it('the corpus MySQL_Single_Instance template creates (cfn-init from cfn-init-data) and deletes', async () => {
    const { token } = await login(cloud.app, 'demo');
    const image = await cloud.app.inject({
      method: 'POST',
      url: '/image/v2/images',
      headers: { 'x-auth-token': token },
      payload: { name: 'F17-x86_64-cfntools' },
    });
    assert.equal(image.statusCode, 201, image.body);
    await addKeypair(cloud);
    // The instance names no network: Nova takes the project's only one. With a subnet: Nova
    // refuses a port with security groups on a network without one.
    const net = await cloud.app.inject({
      method: 'POST',
      url: '/network/v2.0/networks',
      headers: { 'x-auth-token': token },
      payload: { network: { name: 'corpus-net' } },
    });
    assert.equal(net.statusCode, 201, net.body);
    const subnet = await cloud.app.inject({
      method: 'POST',
      url: '/network/v2.0/subnets',
      headers: { 'x-auth-token': token },
      payload: {
        subnet: {
          network_id: (net.json() as { network: { id: string } }).network.id,
          cidr: '10.75.0.0/24',
          ip_version: 4,
        },
      },
    });
    assert.equal(subnet.statusCode, 201, subnet.body);
    const template = readFileSync(join(CORPUS, 'cfn/F17/MySQL_Single_Instance.template'), 'utf8');
    const stack = await create('mysql', template, {
      KeyName: KEY,
      InstanceType: 'm1.small',
      DBName: 'wordpress',
      DBUsername: 'admin',
      DBPassword: 'secret1',
      DBRootPassword: 'secret2',
    });
    assert.equal(stack.stack_status, 'CREATE_COMPLETE', String(stack.stack_status_reason));
    const guest = await guestOf(stack, 'MySqlDatabaseServer');
    assert.deepEqual(
      guest.calls.map((c) => [c.tool, c.status]),
      [
        ['cfn-init', 0],
        ['cfn-signal', 0],
      ],
    );
    assert.deepEqual(guest.recorded[0]?.services, {
      systemd: { mysqld: { enabled: 'true', ensureRunning: 'true' } },
    });
    assert.equal(guest.signals[0]?.reason, 'MySQL Database setup complete');
    assert.ok(!guest.calls[0]!.args.includes('--access-key'), 'no keys: cfn-init read cfn-init-data');
    const deleted = await jsonCall('DELETE', `${api}/stacks/mysql/${String(stack.id)}`);
    assert.equal(deleted.status, 204, deleted.text);
    for (let i = 0; i < 300; i++) {
      const r = await jsonCall('GET', `${api}/stacks/mysql/${String(stack.id)}`);
      const status = r.status === 404 ? 'gone' : (JSON.parse(r.text) as { stack: Json }).stack.stack_status;
      if (status === 'gone' || status === 'DELETE_COMPLETE') {
        const netId = (net.json() as { network: { id: string } }).network.id;
        await cloud.app.inject({
          method: 'DELETE',
          url: `/network/v2.0/networks/${netId}`,
          headers: { 'x-auth-token': token },
        });
        // The server's emulation and scratch root go with it.
        const present = async () =>
          existsSync(guest.root) || (await guests()).some((g) => g.server_id === guest.server_id);
        for (let j = 0; j < 100 && (await present()); j++) await new Promise((r) => setTimeout(r, 100));
        assert.ok(!(await guests()).some((g) => g.server_id === guest.server_id), 'the guest is forgotten');
        assert.ok(!existsSync(guest.root), 'its scratch root is removed');
        return;
      }
      assert.notEqual(status, 'DELETE_FAILED', r.text);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('mysql never deleted');
  });

  it('cfn-init applies the metadata it reads with the access key; cfn-signal completes the stack', async () => {
    await setNoise({ cfnCommands: 'run' });
    const stack = await create('web');
    assert.equal(stack.stack_status, 'CREATE_COMPLETE', String(stack.stack_status_reason));
    const guest = await guestOf(stack);
    assert.equal(readFileSync(join(guest.root, 'etc/app/motd'), 'utf8'), 'stack web first\n');
    assert.equal(readFileSync(join(guest.root, 'ran.txt'), 'utf8'), 'ran\n');
    assert.deepEqual(guest.files[0], {
      path: '/etc/app/motd',
      mode: '000644',
      owner: 'root',
      group: 'root',
      bytes: 16,
      source: null,
    });
    assert.deepEqual(
      guest.files.map((f) => f.path),
      ['/etc/app/motd', '/etc/cfn/cfn-credentials', '/etc/cfn/cfn-hup.conf', '/etc/cfn/hooks.conf'],
    );
    assert.deepEqual(
      guest.commands.map((c) => [c.name, c.policy, c.status]),
      [['01-ran', 'run', 0]],
    );
    assert.deepEqual(guest.recorded, [{ config: 'config', packages: { yum: { httpd: [] } } }]);
    assert.deepEqual(
      guest.calls.map((c) => [c.tool, c.status]),
      [
        ['cfn-init', 0],
        ['cfn-hup', 0],
        ['cfn-signal', 0],
      ],
    );
    assert.deepEqual(
      guest.signals.map((s) => [s.status, s.reason, s.unique_id, s.http_status]),
      [['SUCCESS', 'Setup complete', guest.server_id, 200]],
    );
    // heat-cfntools' default UniqueId is the server's id; the data reaches the WaitCondition.
    const data = (stack.outputs as { output_key: string; output_value: unknown }[]).find(
      (o) => o.output_key === 'data',
    )?.output_value;
    assert.deepEqual(JSON.parse(String(data)), {
      [guest.server_id]: 'Application has completed configuration.',
    });
    // The admin view shows no secret key (it was an argument of cfn-init).
    const secret = (stack.outputs as { output_key: string; output_value: unknown }[]).find(
      (o) => o.output_key === 'secret',
    )?.output_value;
    const admin = await cloud.app.inject({ method: 'GET', url: '/admin/cfntools' });
    assert.ok(typeof secret === 'string' && secret.length > 0 && !admin.body.includes(secret));
  });

  it('cfn-hup notices the metadata a stack update changed and runs its hook: cfn-init again', async () => {
    const shown = (JSON.parse((await jsonCall('GET', `${api}/stacks/web`)).text) as { stack: Json }).stack;
    const path = `web/${String(shown.id)}`;
    const updated = await jsonCall('PUT', `${api}/stacks/${path}`, {
      template: TEMPLATE,
      parameters: { Motd: 'second' },
    });
    assert.equal(updated.status, 202, updated.text);
    const guest = await guestOf(shown);
    let after = guest;
    for (let i = 0; i < 300 && !after.hup?.hooks_run.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await guestOf(shown);
    }
    assert.deepEqual(after.hup?.hooks_run, [{ hook: 'cfn-auto-reloader', status: 0 }]);
    assert.equal(readFileSync(join(guest.root, 'etc/app/motd'), 'utf8'), 'stack web second\n');
    assert.equal(after.signals.length, 1, 'the hook signals nothing');
  });

  it('a failing command fails cfn-init: error_exit signals FAILURE and the stack fails with the reason', async () => {
    await setNoise({ cfnCommands: 'fail' });
    const stack = await create('broken');
    assert.equal(stack.stack_status, 'CREATE_FAILED');
    assert.match(String(stack.stack_status_reason), /Failed to run cfn-init/);
    const guest = await guestOf(stack);
    assert.deepEqual(
      guest.calls.map((c) => [c.tool, c.status, c.message]),
      [
        ['cfn-init', 1, 'Error processing metadata: 01-ran has failed.'],
        ['cfn-signal', 0, null],
      ],
    );
    assert.deepEqual(
      guest.signals.map((s) => [s.status, s.reason]),
      [['FAILURE', 'Failed to run cfn-init']],
    );
    // The file section ran before the commands, as in cfn-init.
    assert.equal(readFileSync(join(guest.root, 'etc/app/motd'), 'utf8'), 'stack broken first\n');
  });
});
