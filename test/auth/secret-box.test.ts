import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialBox, SealError, SecretBox } from '../../src/auth/deployment-key.js';

describe('SecretBox: stacks’ credentials sealed with the deployment key', () => {
  const key = Buffer.from('a deployment key of this test');
  const box = credentialBox(key);

  it('opens what it sealed, for the same context; the sealed text shows nothing of the value', () => {
    const sealed = box.seal('trust-0123456789abcdef', 'project-a');
    assert.ok(!sealed.includes('0123456789abcdef'));
    assert.notEqual(box.seal('trust-0123456789abcdef', 'project-a'), sealed, 'a fresh nonce each time');
    assert.equal(box.open(sealed, 'project-a'), 'trust-0123456789abcdef');
    assert.equal(credentialBox(Buffer.from(key)).open(sealed, 'project-a'), 'trust-0123456789abcdef');
  });

  it('refuses another project’s context, another key, another purpose, an altered or malformed value', () => {
    const sealed = box.seal('trust-x', 'project-a');
    assert.throws(() => box.open(sealed, 'project-b'), SealError);
    assert.throws(() => credentialBox(Buffer.from('another key')).open(sealed, 'project-a'), SealError);
    assert.throws(() => new SecretBox(key, 'something else').open(sealed, 'project-a'), SealError);
    const [version, iv, body] = sealed.split('.');
    // One bit of the ciphertext flipped (editing base64 text may only touch unused padding bits).
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    const flipped = bytes.toString('base64url');
    assert.throws(() => box.open(`${version}.${iv}.${flipped}`, 'project-a'), SealError);
    for (const bad of ['', 'trust-x', 'v2.a.b', 'v1.a', 'v1.a.b.c', 'v1.AAAA.AA'])
      assert.throws(() => box.open(bad, 'project-a'), SealError, bad);
  });
});
