import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentCredentials, agentRowOf, AgentSigner } from '../../src/auth/agent-credentials.js';
import { SignalSigner } from '../../src/auth/signal-tokens.js';
import { ec2SignatureMatches, ec2SignatureV2 } from '../../src/api/agent/cfn.js';
import { agentNonce } from '../../src/resources/server-agent/transport.js';

const KEY = Buffer.from('k'.repeat(32));
const target = { projectId: 'p1', stackId: 'stack-1', resourceName: 'server', nonce: 'n1' };

describe('agent credentials', () => {
  it('verify gives back the target, and nothing for a tampered, foreign or signal token', () => {
    const signer = new AgentSigner(KEY);
    const token = signer.token(target);
    assert.match(token, /^hagt_[\w-]+\.[\w-]+$/);
    assert.deepEqual(signer.verify(token), target);
    const [payload, signature] = token.slice(5).split('.');
    for (const [what, changed] of [
      ['another project', ['p2', 'stack-1', 'server', 'n1']],
      ['another server', ['p1', 'stack-1', 'other', 'n1']],
      ['another nonce', ['p1', 'stack-1', 'server', 'n2']],
    ] as const) {
      const forged = Buffer.from(JSON.stringify(changed)).toString('base64url');
      assert.equal(signer.verify(`hagt_${forged}.${signature}`), undefined, what);
    }
    assert.equal(signer.verify(`hagt_${payload}.${signature}x`), undefined);
    assert.equal(signer.verify(`hagt_${payload}`), undefined);
    assert.equal(new AgentSigner(Buffer.from('x'.repeat(32))).verify(token), undefined, 'another key');
    // Same key, other purpose: a signal token is no agent token and the reverse.
    const signal = new SignalSigner(KEY).token(target);
    assert.equal(signer.verify(signal.replace('hsig_', 'hagt_')), undefined);
    assert.equal(new SignalSigner(KEY).verify(token.replace('hagt_', 'hsig_')), undefined);
  });

  it('the CFN keypair is the token split: its secret is derived from the access key alone', () => {
    const signer = new AgentSigner(KEY);
    const made = agentCredentials(signer, 'http://api.example:8004/', target);
    assert.equal(made.publicUrl, 'http://api.example:8004');
    assert.equal(made.token, `${made.accessKey}.${made.secretKey}`);
    assert.equal(signer.secretFor(made.accessKey), made.secretKey);
    assert.deepEqual(signer.targetOf(made.accessKey), target);
    assert.equal(signer.secretFor('hsig_abc'), undefined);
  });

  it('is revoked once the row no longer holds its nonce (deleted, replaced, transport changed)', () => {
    const rows = [
      { physicalId: 'old', data: { agent_nonce: 'n0' } },
      { physicalId: 'new', data: { agent_nonce: 'n1' } },
    ];
    assert.equal(agentRowOf(target, rows)?.physicalId, 'new');
    assert.equal(agentRowOf({ ...target, nonce: 'n2' }, rows), undefined);
    assert.equal(agentRowOf(target, []), undefined, 'the row is gone');
  });

  it('nonces are stable for one key, transport and generation, and differ otherwise', () => {
    assert.equal(agentNonce('k', 'POLL_SERVER_CFN', 0), agentNonce('k', 'POLL_SERVER_CFN', 0));
    const all = new Set([
      agentNonce('k', 'POLL_SERVER_CFN', 0),
      agentNonce('k', 'POLL_SERVER_HEAT', 0),
      agentNonce('k', 'POLL_SERVER_CFN', 1),
      agentNonce('k2', 'POLL_SERVER_CFN', 0),
    ]);
    assert.equal(all.size, 4);
  });
});

describe('EC2 signature version 2', () => {
  const params = {
    Action: 'DescribeStackResource',
    StackName: 'my stack/x~y*z',
    LogicalResourceId: 'server',
    AWSAccessKeyId: 'hagt_abc',
    SignatureVersion: '2',
    SignatureMethod: 'HmacSHA256',
  };
  it("signs as keystoneclient's Ec2Signer does (os-collect-config's cfn collector)", () => {
    // Worked out in Python with Ec2Signer's steps: sorted keys, urllib.parse.quote(value, safe='-_~').
    const signature = ec2SignatureV2('secret', {
      verb: 'GET',
      host: '127.0.0.1:8004',
      path: '/cfn/v1/',
      params,
    });
    assert.equal(signature, 'lzcypbgXOtO5VoLf7xjhqR3mJLh0RtTwIF/IE5lsiOY=');
  });

  it('matches with or without the port, and not with another secret or a changed parameter', () => {
    const signature = ec2SignatureV2('secret', { verb: 'GET', host: 'api:8004', path: '/cfn/v1/', params });
    const request = {
      verb: 'GET',
      hosts: ['api:8004'],
      paths: ['/cfn/v1/'],
      params: { ...params, Signature: signature },
    };
    assert.equal(ec2SignatureMatches('secret', signature, request), true);
    const portless = ec2SignatureV2('secret', { verb: 'GET', host: 'api', path: '/cfn/v1/', params });
    assert.equal(ec2SignatureMatches('secret', portless, request), true);
    assert.equal(ec2SignatureMatches('other', signature, request), false);
    const changed = { ...request, params: { ...request.params, LogicalResourceId: 'other' } };
    assert.equal(ec2SignatureMatches('secret', signature, changed), false);
  });
});
