import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ResourceFailure } from '../../../src/resources/contract.js';
import { novaKeyPairPlugin } from '../../../src/resources/openstack/nova/keypair.js';
import { rejection } from '../helpers.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

/** An OpenSSH public key line, as `ssh-keygen` writes one. */
function sshPublicKey(comment: string): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

describe('OS::Nova::KeyPair on the sandbox cloud', () => {
  let rig: TypeRig;
  before(async () => {
    rig = await typeRig();
  });
  after(async () => rig?.close());

  const live = async (name: string) =>
    (await rig.demo.request<{ keypair: { public_key: string } }>('compute', 'GET', `/os-keypairs/${name}`))
      .body.keypair;

  it('imports a public key; a create run again adopts the same key; another key of that name is not ours', async () => {
    const key = sshPublicKey('me@host');
    const kp = rig.resource(novaKeyPairPlugin, 'kp-import');
    await kp.create({ name: 'imported', public_key: key });
    assert.equal(kp.physicalId, 'imported');
    assert.equal((await live('imported')).public_key, key);
    assert.equal(await kp.attribute('public_key'), key);
    assert.equal(await kp.attribute('private_key'), '');
    assert.equal(((await kp.attribute('show')) as { name: string }).name, 'imported');

    const again = rig.resource(novaKeyPairPlugin, 'kp-import');
    // The same key with another comment is still the same key.
    await again.create({ name: 'imported', public_key: key.replace('me@host', 'other') });
    assert.equal(again.physicalId, 'imported');

    const intruder = rig.resource(novaKeyPairPlugin, 'kp-other');
    const err = await rejection(() => intruder.create({ name: 'imported', public_key: sshPublicKey('x') }));
    assert.ok(err instanceof ResourceFailure && err.name === 'ResourceFailure', err.message);
    assert.match(err.message, /Key pair 'imported' already exists with another public key/);
    assert.equal(intruder.physicalId, null);
  });

  it('generates a key, keeps the private key only when asked, and refuses to adopt a generated one', async () => {
    const saved = rig.resource(novaKeyPairPlugin, 'kp-gen');
    await saved.create({ name: 'generated', save_private_key: true, type: 'ssh' });
    const privateKey = await saved.attribute('private_key');
    assert.match(String(privateKey), /BEGIN RSA PRIVATE KEY/);
    assert.equal(saved.data.private_key, privateKey);
    assert.equal(await saved.attribute('public_key'), (await live('generated')).public_key);

    const unsaved = rig.resource(novaKeyPairPlugin, 'kp-gen2');
    await unsaved.create({ name: 'generated-2' });
    assert.equal(unsaved.data.private_key, undefined);
    assert.equal(await unsaved.attribute('private_key'), '');

    const err = await rejection(() =>
      rig.resource(novaKeyPairPlugin, 'kp-gen').create({ name: 'generated' }),
    );
    assert.match(err.message, /a generated key cannot be adopted/);
  });

  it('observes the key pair, and deletes it (a second delete is done too)', async () => {
    const key = sshPublicKey('reality');
    const kp = rig.resource(novaKeyPairPlugin, 'kp-real');
    await kp.create({ name: 'observed', public_key: key, type: 'ssh' });
    assert.deepEqual(await novaKeyPairPlugin.getReality(kp.ctx()), {
      state: 'present',
      properties: { name: 'observed', public_key: key, type: 'ssh' },
    });
    await novaKeyPairPlugin.check!(kp.ctx());
    await kp.delete();
    assert.deepEqual(await novaKeyPairPlugin.getReality(kp.ctx()), { state: 'gone' });
    await kp.delete();
    await assert.rejects(novaKeyPairPlugin.check!(kp.ctx()), /not found/i);
  });

  it('changing any property replaces the key pair (none is updatable in place)', async () => {
    const kp = rig.resource(novaKeyPairPlugin, 'kp-replace');
    await kp.create({ name: 'first', public_key: sshPublicKey('a') });
    const outcome = await kp.update({ name: 'second', public_key: sshPublicKey('a') });
    assert.deepEqual(outcome, { replace: 'schema', properties: ['name', 'public_key'] });
  });
});
