/**
 * AWS::CloudFormation::WaitConditionHandle's pre-signed URL through a real `hearth serve` (one
 * process for the file, its own workers): signalled by curl as cfn-signal runs it (PUT, no
 * content type) and by a plain curl POST, with nothing but the URL; Count, Data, FAILURE, the
 * timeout, and altered URLs refused. And an AWS::AutoScaling::ScalingPolicy's AlarmUrl: a plain
 * POST scales its group, an altered one is refused.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type ServeProcess, startNoauthServe } from './serve-process.js';

const TEMPLATE = (count: number, timeout: number) => ({
  heat_template_version: '2013-05-23',
  resources: {
    handle: { type: 'AWS::CloudFormation::WaitConditionHandle' },
    wc: {
      type: 'AWS::CloudFormation::WaitCondition',
      properties: { Handle: { get_resource: 'handle' }, Count: count, Timeout: timeout },
    },
  },
  outputs: {
    url: { value: { get_resource: 'handle' } },
    data: { value: { get_attr: ['wc', 'Data'] } },
  },
});

interface StackView {
  id: string;
  stack_status: string;
  stack_status_reason: string;
  outputs?: { output_key: string; output_value: unknown }[];
}

const curl = (args: string[]) =>
  promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args]).then((r) =>
    Number(r.stdout),
  );

/** cfn-signal's own command (heat-cfntools): a PUT whose Content-Type header is removed. */
const cfnSignal = (url: string, body: object) =>
  curl(['-X', 'PUT', '-H', 'Content-Type:', '--data-binary', JSON.stringify(body), url]);

describe('API: pre-signed CFN URLs (wait condition handles, scaling policies) through hearth serve', () => {
  let server: ServeProcess;
  const api = (path: string, init?: RequestInit) => fetch(`${server.url}/v1/admin${path}`, init);

  const show = async (name: string): Promise<StackView> =>
    ((await (await api(`/stacks/${name}`, { redirect: 'follow' })).json()) as { stack: StackView }).stack;

  const output = (view: StackView, key: string) =>
    view.outputs?.find((o) => o.output_key === key)?.output_value;

  async function create(name: string, count: number, timeout = 600): Promise<StackView> {
    const res = await api('/stacks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stack_name: name, template: TEMPLATE(count, timeout) }),
    });
    assert.equal(res.status, 201, await res.text());
    return show(name);
  }

  /** Waits (without a deadline of its own: the test runner's bounds it) until `done` holds. */
  async function until<T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    for (;;) {
      const value = await what();
      if (done(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The handle's URL, once the condition waits on it. */
  async function waitingUrl(name: string): Promise<string> {
    const view = await until(
      () => show(name),
      (v) => typeof output(v, 'url') === 'string' && String(output(v, 'url')).startsWith('http'),
    );
    return String(output(view, 'url'));
  }

  const settled = (name: string) =>
    until(
      () => show(name),
      (v) => !v.stack_status.endsWith('IN_PROGRESS'),
    );

  before(async () => {
    server = await startNoauthServe();
  });
  after(() => server.stop());

  it('cfn-signal’s PUT and a plain POST complete a Count 2 wait; Data holds each UniqueId’s data', async () => {
    await create('two', 2);
    const url = await waitingUrl('two');
    assert.match(
      url,
      /\/cfn\/v1\/waitcondition\/arn%3Aopenstack%3Aheat%3A%3Aadmin%3Astacks\/two\/[\w-]+\/resources\/handle\?AWSAccessKeyId=[\w-]+&Signature=/,
    );
    const first = { Status: 'SUCCESS', Reason: 'first up', UniqueId: 'i-1', Data: 'one' };
    assert.equal(await cfnSignal(url, first), 200);
    // The same id again replaces its entry: still one of two.
    assert.equal(await cfnSignal(url, { ...first, Data: 'uno' }), 200);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await show('two')).stack_status, 'CREATE_IN_PROGRESS');
    const second = JSON.stringify({ Status: 'SUCCESS', Reason: 'second', UniqueId: 'i-2', Data: { k: 2 } });
    assert.equal(await curl(['-X', 'POST', '-H', 'Content-Type: application/json', '-d', second, url]), 200);
    const done = await settled('two');
    assert.equal(done.stack_status, 'CREATE_COMPLETE', done.stack_status_reason);
    assert.equal(output(done, 'data'), '{"i-1": "uno", "i-2": {"k": 2}}');
  });

  it('a FAILURE signal fails the wait with its reason; a body without the four keys is refused', async () => {
    await create('fails', 1);
    const url = await waitingUrl('fails');
    assert.equal(await cfnSignal(url, { Status: 'SUCCESS', Reason: 'r' }), 200, 'accepted, then refused');
    assert.equal(
      await cfnSignal(url, { Status: 'FAILURE', Reason: 'disk full', UniqueId: 'a', Data: '' }),
      200,
    );
    const done = await settled('fails');
    assert.equal(done.stack_status, 'CREATE_FAILED');
    assert.equal(
      done.stack_status_reason,
      'Resource CREATE failed: WaitConditionFailure: resources.wc: disk full',
    );
    const events = (await (await api(`/stacks/fails/${done.id}/resources/handle/events`)).json()) as {
      events: { resource_status_reason: string }[];
    };
    assert.ok(
      events.events.some((e) => e.resource_status_reason === 'Signal failed: Metadata format invalid'),
      JSON.stringify(events),
    );
  });

  it('a wait whose time is up fails with Heat’s message', async () => {
    await create('late', 1, 1);
    const done = await settled('late');
    assert.equal(done.stack_status, 'CREATE_FAILED');
    assert.equal(
      done.stack_status_reason,
      'Resource CREATE failed: WaitConditionTimeout: resources.wc: 0 of 1 received',
    );
  });

  it('an AWS scaling policy’s AlarmUrl: a bare POST scales the group; an altered URL is 403', async () => {
    const template = {
      AWSTemplateFormatVersion: '2010-09-09',
      Resources: {
        Config: {
          Type: 'AWS::AutoScaling::LaunchConfiguration',
          Properties: { ImageId: 'an-image', InstanceType: 'a-flavor' },
        },
        Group: {
          Type: 'AWS::AutoScaling::AutoScalingGroup',
          Properties: {
            AvailabilityZones: [],
            LaunchConfigurationName: { Ref: 'Config' },
            MinSize: 1,
            MaxSize: 3,
          },
        },
        Up: {
          Type: 'AWS::AutoScaling::ScalingPolicy',
          Properties: {
            AutoScalingGroupName: { Ref: 'Group' },
            AdjustmentType: 'ChangeInCapacity',
            ScalingAdjustment: 1,
          },
        },
      },
      Outputs: {
        Url: { Value: { 'Fn::GetAtt': ['Up', 'AlarmUrl'] } },
        Ips: { Value: { 'Fn::GetAtt': ['Group', 'InstanceList'] } },
      },
    };
    // No cloud here: the members are OS::Heat::None, through the registry the child inherits.
    const environment = { resource_registry: { 'AWS::EC2::Instance': 'OS::Heat::None' } };
    const res = await api('/stacks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stack_name: 'scaled', template, environment }),
    });
    assert.equal(res.status, 201, await res.text());
    const created = await settled('scaled');
    assert.equal(created.stack_status, 'CREATE_COMPLETE', created.stack_status_reason);
    const url = new URL(String(output(created, 'Url')));
    assert.match(url.pathname, /^\/cfn\/v1\/signal\/arn%3Aopenstack%3Aheat%3A%3Aadmin%3Astacks\/scaled\//);
    const size = async () => String(output(await show('scaled'), 'Ips')).split(',').length;
    assert.equal(await size(), 1);

    const signature = url.searchParams.get('Signature')!;
    const altered = new URL(url);
    altered.searchParams.set('Signature', `${signature.slice(0, -2)}xx`);
    // A wait condition URL's signature does not pass for an alarm URL of the same resource.
    const asWaitCondition = new URL(url);
    asWaitCondition.pathname = url.pathname.replace('/cfn/v1/signal/', '/cfn/v1/waitcondition/');
    assert.equal(await curl(['-X', 'POST', altered.href]), 403);
    assert.equal(await curl(['-X', 'POST', asWaitCondition.href]), 403);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await size(), 1, 'nothing signalled');

    assert.equal(await curl(['-X', 'POST', url.href]), 200);
    await until(size, (n) => n === 2);
    assert.equal((await settled('scaled')).stack_status, 'UPDATE_COMPLETE');
  });

  it('an altered URL is refused with 403 and signals nothing', async () => {
    await create('forged', 1);
    const url = new URL(await waitingUrl('forged'));
    const altered = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return copy.href;
    };
    const body = { Status: 'SUCCESS', Reason: 'r', UniqueId: '1', Data: 'd' };
    const signature = url.searchParams.get('Signature')!;
    for (const bad of [
      altered((u) => u.searchParams.set('Signature', `${signature.slice(0, -2)}xx`)),
      altered((u) => u.searchParams.delete('Signature')),
      altered((u) => u.searchParams.set('AWSAccessKeyId', 'another-handle')),
      altered((u) => (u.pathname = u.pathname.replace('/resources/handle', '/resources/wc'))),
      altered((u) => (u.pathname = u.pathname.replace('%3Aadmin%3A', '%3Aother%3A'))),
    ]) {
      assert.equal(await cfnSignal(bad, body), 403, bad);
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await show('forged')).stack_status, 'CREATE_IN_PROGRESS');
    assert.equal(await cfnSignal(url.href, body), 200);
    assert.equal((await settled('forged')).stack_status, 'CREATE_COMPLETE');
  });
});
