import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stackUserAccessOf } from '../../src/api/agent/stack-user-access.js';
import { StackUserKeys } from '../../src/auth/stack-user-keys.js';
import { resourceDetail } from '../../src/cli/backends/embedded-resources.js';
import { suspendOrResume } from '../../src/engine/operations/lifecycle.js';
import { Harness } from './harness.js';

// AWS::IAM::User, AWS::IAM::AccessKey and OS::Heat::AccessPolicy through the in-process engine:
// the keypair a key resource hands out, what it may read, and when it stops being valid.

const keys = new StackUserKeys(Buffer.from('k'.repeat(32)));

const TEMPLATE = (status = 'Active') => `HeatTemplateFormatVersion: '2012-12-12'
Resources:
  web: {Type: OS::Heat::None}
  db: {Type: OS::Heat::None}
  policy:
    Type: OS::Heat::AccessPolicy
    Properties: {AllowedResources: [web]}
  user:
    Type: AWS::IAM::User
    Properties:
      LoginProfile: {Password: not-kept}
      Policies: [{Ref: policy}, {Statement: [{Effect: Allow}]}]
  key:
    Type: AWS::IAM::AccessKey
    Properties: {UserName: {Ref: user}, Status: ${status}}
  free_user: {Type: AWS::IAM::User}
  free_key:
    Type: AWS::IAM::AccessKey
    Properties: {UserName: {Ref: free_user}}
Outputs:
  access: {Value: {Ref: key}}
  secret: {Value: {'Fn::GetAtt': [key, SecretAccessKey]}}
  user_name: {Value: {'Fn::GetAtt': [key, UserName]}}
  user: {Value: {Ref: user}}
  policy: {Value: {Ref: policy}}
  free_access: {Value: {Ref: free_key}}
`;

async function started(logged: string[] = []) {
  const h = await Harness.create({
    stackUserKeypair: (target) => keys.keypair(target),
    log: (m) => logged.push(m),
  });
  return h;
}

/** What the access key id still reads (undefined: refused), for the names given. */
async function reads(h: Harness, accessKey: string, names: readonly string[]) {
  const opened = keys.open(accessKey);
  assert.ok(opened, `${accessKey} is a stack user key`);
  const access = await stackUserAccessOf(h.engine, opened.target);
  return access && names.filter((n) => access.allows(n));
}

describe('AWS::IAM::User, AccessKey and OS::Heat::AccessPolicy', () => {
  it('hand out a keypair the deployment key signs, limited by the user’s policies', async () => {
    const logged: string[] = [];
    const h = await started(logged);
    await h.create('s', TEMPLATE());
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const out = await h.outputs('s');
    assert.match(String(out.user), /^s-user-[a-z2-7]{12}$/, 'a user’s reference is its physical name');
    assert.equal(out.user_name, out.user);
    assert.equal(out.policy, 'policy', 'a policy’s reference is its name, as in Heat');
    const access = String(out.access);
    assert.match(access, /^hiak_/);
    assert.equal(out.secret, keys.open(access)!.secret, 'SecretAccessKey is the key’s secret');

    const names = ['web', 'db', 'policy', 'nothere'];
    assert.deepEqual(await reads(h, access, names), ['web'], 'the AccessPolicy (the inline one ignored)');
    assert.deepEqual(
      await reads(h, String(out.free_access), names),
      names,
      'a user without policies reads every resource of its stack',
    );

    // The secret never shows but where the template asks for it (the output).
    const stack = await h.stack('s');
    const shown = await resourceDetail(h.engine, stack, 'key');
    const attributes = shown.attributes as Record<string, unknown>;
    assert.equal(attributes.SecretAccessKey, '******');
    assert.equal(attributes.UserName, out.user);
    const events = await h.deps.store.tx((tx) => tx.events.list(stack.id));
    const rows = await h.rows('s');
    for (const [what, text] of [
      ['events', JSON.stringify(events)],
      ['logs', logged.join('\n')],
      ['resource show', JSON.stringify(shown)],
      ['rows’ data', JSON.stringify(rows.map((r) => r.data))],
    ] as const) {
      assert.ok(!text.includes(String(out.secret)), `no secret in the ${what}`);
      assert.ok(!text.includes('not-kept'), `no LoginProfile password in the ${what}`);
    }
  });

  it('an Inactive key is refused; replacing a key or deleting the stack revokes the old one', async () => {
    const h = await started();
    await h.create('s', TEMPLATE());
    await h.settle();
    const before = await h.outputs('s');
    await h.update('s', TEMPLATE('Inactive'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const after = await h.outputs('s');
    assert.notEqual(after.access, before.access, 'a change of Status replaces the key');
    assert.equal(await reads(h, String(before.access), ['web']), undefined, 'the replaced key is revoked');
    assert.equal(await reads(h, String(after.access), ['web']), undefined, 'an Inactive key is refused');
    assert.deepEqual(await reads(h, String(after.free_access), ['web']), ['web'], 'the other key holds');

    await h.delete('s');
    await h.settle();
    assert.equal(await reads(h, String(after.free_access), ['web']), undefined, 'deleted with its stack');
  });

  it('a user replaced (its nonce gone) takes its keys’ access with it', async () => {
    const h = await started();
    await h.create('s', TEMPLATE());
    await h.settle();
    const before = await h.outputs('s');
    // A new Path replaces the user (no property updates in place); its key follows (new UserName).
    await h.update('s', TEMPLATE().replace('LoginProfile:', 'Path: /x/\n      LoginProfile:'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const after = await h.outputs('s');
    assert.notEqual(after.user, before.user);
    assert.equal(await reads(h, String(before.access), ['web']), undefined);
    assert.deepEqual(await reads(h, String(after.access), ['web']), ['web']);
  });

  it('a suspended stack’s users hold no access until resumed (Heat disables the user)', async () => {
    const h = await started();
    await h.create('s', TEMPLATE());
    await h.settle();
    const access = String((await h.outputs('s')).free_access);
    const stack = await h.stack('s');
    await suspendOrResume(h.deps, stack.id, 'SUSPEND');
    await h.settle();
    assert.equal(await h.status('s'), 'SUSPEND_COMPLETE');
    assert.equal(await reads(h, access, ['web']), undefined);
    await suspendOrResume(h.deps, stack.id, 'RESUME');
    await h.settle();
    assert.deepEqual(await reads(h, access, ['web']), ['web']);
  });

  it('refuses a policy naming a resource the stack lacks, and a user naming what is no policy', async () => {
    const h = await started();
    await assert.rejects(
      h.create(
        'bad_policy',
        TEMPLATE().replace('AllowedResources: [web]', 'AllowedResources: [web, nothere]'),
      ),
      /AccessPolicy resource nothere not in stack/,
    );
    await assert.rejects(
      h.create('bad_user', TEMPLATE().replace('Policies: [{Ref: policy}', 'Policies: [web')),
      /The Referenced Attribute \(user Policies\) is incorrect\./,
    );
    await assert.rejects(
      h.create('serial', TEMPLATE().replace('Status: Active', 'Serial: 1')),
      /Property Serial not implemented yet/,
    );
  });
});
