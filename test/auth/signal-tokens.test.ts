import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { signalCredentials, SignalSigner } from '../../src/auth/signal-tokens.js';
import { openStore } from '../../src/store/index.js';

const target = { projectId: 'p1', stackId: 'stack-1', resourceName: 'handle' };

describe('signal tokens', () => {
  it('verify gives back the target a token was made for, and nothing for a tampered or foreign one', () => {
    const signer = new SignalSigner(Buffer.from('k'.repeat(32)));
    const token = signer.token(target);
    assert.match(token, /^hsig_[\w-]+\.[\w-]+$/);
    assert.deepEqual(signer.verify(token), target);
    const [payload, signature] = token.slice(5).split('.');
    const other = Buffer.from(JSON.stringify(['p1', 'stack-1', 'other'])).toString('base64url');
    assert.equal(signer.verify(`hsig_${other}.${signature}`), undefined, 'another resource, same signature');
    assert.equal(signer.verify(`hsig_${payload}.${signature}x`), undefined);
    assert.equal(signer.verify(`hsig_${payload}`), undefined);
    assert.equal(signer.verify('hth_something'), undefined);
    assert.equal(new SignalSigner(Buffer.from('x'.repeat(32))).verify(token), undefined, 'another key');
  });

  it('a store without a configured key makes one on first use and every process gets the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-sig-'));
    try {
      const first = await openStore(join(dir, 'db'));
      await first.migrate();
      const a = await SignalSigner.load(first, '');
      const second = await openStore(join(dir, 'db'));
      const b = await SignalSigner.load(second, '');
      assert.deepEqual(b.verify(a.token(target)), target);
      assert.equal((await SignalSigner.load(first, 'configured-key')).verify(a.token(target)), undefined);
      await first.close();
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('credentials name the resource’s signal route and a header-less URL', () => {
    const signer = new SignalSigner(Buffer.from('k'.repeat(32)));
    const made = signalCredentials(signer, 'http://api.example:8004/', { ...target, stackName: 'my stack' });
    assert.equal(
      made.endpoint,
      'http://api.example:8004/v1/p1/stacks/my%20stack/stack-1/resources/handle/signal',
    );
    assert.equal(made.alarmUrl, `http://api.example:8004/v1/signal/${made.token}`);
    assert.deepEqual(signer.verify(made.token), target);
  });

  it('a wait condition URL names the resource by its ARN and signs every part of it with the handle id', () => {
    const signer = new SignalSigner(Buffer.from('k'.repeat(32)));
    const named = { ...target, stackName: 'web' };
    const url = new URL(signalCredentials(signer, 'http://api.example:8000/', named).waitConditionUrl('h-1'));
    assert.equal(
      url.pathname,
      '/cfn/v1/waitcondition/arn%3Aopenstack%3Aheat%3A%3Ap1%3Astacks/web/stack-1/resources/handle',
    );
    assert.equal(url.searchParams.get('AWSAccessKeyId'), 'h-1');
    const signature = url.searchParams.get('Signature')!;
    assert.ok(signer.verifyUrlSignature(named, 'h-1', signature));
    for (const other of [
      { ...named, projectId: 'p2' },
      { ...named, stackName: 'db' },
      { ...named, stackId: 'stack-2' },
      { ...named, resourceName: 'other' },
    ]) {
      assert.ok(!signer.verifyUrlSignature(other, 'h-1', signature), JSON.stringify(other));
    }
    assert.ok(!signer.verifyUrlSignature(named, 'h-2', signature), 'another handle id');
  });

  it('an AWS scaling policy’s AlarmUrl is signed for the signal route only', () => {
    const signer = new SignalSigner(Buffer.from('k'.repeat(32)));
    const named = { ...target, stackName: 'web', resourceName: 'up' };
    const url = new URL(signalCredentials(signer, 'http://api.example:8000', named).cfnSignalUrl('p-1'));
    assert.equal(
      url.pathname,
      '/cfn/v1/signal/arn%3Aopenstack%3Aheat%3A%3Ap1%3Astacks/web/stack-1/resources/up',
    );
    const signature = url.searchParams.get('Signature')!;
    assert.ok(signer.verifyUrlSignature(named, 'p-1', signature, 'signal'));
    assert.ok(!signer.verifyUrlSignature(named, 'p-1', signature, 'waitcondition'));
    assert.ok(!signer.verifyUrlSignature(named, 'p-2', signature, 'signal'));
  });
});
