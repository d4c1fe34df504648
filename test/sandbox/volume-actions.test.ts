import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type VolumeCloud, volumeCloud } from './volume-helpers.js';

describe('sandbox Cinder: volume actions and metadata', () => {
  let cloud: VolumeCloud;
  before(async () => {
    cloud = await volumeCloud();
  });
  after(() => cloud.close());

  async function available(size = 1): Promise<string> {
    const r = await cloud.cinder('POST', '/volumes', { volume: { size } });
    assert.equal(r.statusCode, 202, r.body);
    cloud.advance(1000);
    return r.json().volume.id as string;
  }
  const show = async (id: string) => (await cloud.cinder('GET', `/volumes/${id}`)).json().volume;
  const act = (id: string, body: unknown, as = cloud.demo) =>
    cloud.cinder('POST', `/volumes/${id}/action`, body, { as });

  it('extends an available volume through extending, and refuses a smaller size or a busy volume', async () => {
    const id = await available(1);
    const r = await act(id, { 'os-extend': { new_size: 3 } });
    assert.equal(r.statusCode, 202, r.body);
    assert.equal(r.body, '');
    let volume = await show(id);
    assert.equal(volume.status, 'extending');
    assert.equal(volume.size, 3);
    const busy = await act(id, { 'os-extend': { new_size: 4 } });
    assert.equal(busy.statusCode, 400);
    assert.match(busy.json().badRequest.message, /status must be 'available'/);
    cloud.advance(1000);
    volume = await show(id);
    assert.equal(volume.status, 'available');
    const smaller = await act(id, { 'os-extend': { new_size: 3 } });
    assert.equal(smaller.statusCode, 400);
    assert.match(smaller.json().badRequest.message, /New size for extend must be greater than current size/);
    const missing = await act(id, { 'os-extend': {} });
    assert.equal(missing.statusCode, 400);
  });

  it('resets the status for an admin only, ending any transition', async () => {
    const id = (await cloud.cinder('POST', '/volumes', { volume: { size: 1 } })).json().volume.id;
    const denied = await act(id, { 'os-reset_status': { status: 'error' } });
    assert.equal(denied.statusCode, 403);
    assert.match(denied.json().forbidden.message, /reset_status/);
    const byAdmin = await cloud.cinder(
      'POST',
      `/volumes/${id}/action`,
      { 'os-reset_status': { status: 'error' } },
      { as: cloud.admin, project: cloud.demo.projectId },
    );
    assert.equal(byAdmin.statusCode, 202, byAdmin.body);
    cloud.advance(5000);
    assert.equal((await show(id)).status, 'error', 'the creating transition no longer applies');
    const invalid = await cloud.cinder(
      'POST',
      `/volumes/${id}/action`,
      { 'os-reset_status': { status: 'sleeping' } },
      { as: cloud.admin, project: cloud.demo.projectId },
    );
    assert.equal(invalid.statusCode, 400);
    assert.equal(
      (await cloud.cinder('DELETE', `/volumes/${id}`)).statusCode,
      202,
      'an error volume can be deleted',
    );
  });

  it('sets the bootable and read-only flags', async () => {
    const id = await available();
    const boot = await act(id, { 'os-set_bootable': { bootable: true } });
    assert.equal(boot.statusCode, 200, boot.body);
    assert.equal((await show(id)).bootable, 'true');
    await act(id, { 'os-set_bootable': { bootable: 'false' } });
    assert.equal((await show(id)).bootable, 'false');
    const bad = await act(id, { 'os-set_bootable': { bootable: 'maybe' } });
    assert.equal(bad.statusCode, 400);
    const ro = await act(id, { 'os-update_readonly_flag': { readonly: true } });
    assert.equal(ro.statusCode, 202, ro.body);
    assert.equal((await show(id)).metadata.readonly, 'True');
  });

  it('refuses an unknown action, two actions at once, and another project’s volume', async () => {
    const id = await available();
    const unknown = await act(id, { 'os-frobnicate': {} });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().badRequest.message, 'There is no such action: os-frobnicate');
    const two = await act(id, { 'os-set_bootable': { bootable: true }, 'os-extend': { new_size: 9 } });
    assert.equal(two.statusCode, 400);
    const theirs = (
      await cloud.cinder('POST', '/volumes', { volume: { size: 1 } }, { as: cloud.admin })
    ).json().volume.id;
    const foreign = await act(theirs, { 'os-set_bootable': { bootable: true } });
    assert.equal(foreign.statusCode, 404);
  });

  it('reads, merges, replaces and deletes metadata, whole and by key', async () => {
    const id = (await cloud.cinder('POST', '/volumes', { volume: { size: 1, metadata: { a: '1' } } })).json()
      .volume.id;
    const path = `/volumes/${id}/metadata`;
    assert.deepEqual((await cloud.cinder('GET', path)).json(), { metadata: { a: '1' } });
    const merged = await cloud.cinder('POST', path, { metadata: { b: '2' } });
    assert.deepEqual(merged.json(), { metadata: { a: '1', b: '2' } });
    const replaced = await cloud.cinder('PUT', path, { metadata: { c: '3' } });
    assert.deepEqual(replaced.json(), { metadata: { c: '3' } });
    assert.deepEqual((await cloud.cinder('GET', `${path}/c`)).json(), { meta: { c: '3' } });
    const one = await cloud.cinder('PUT', `${path}/d`, { meta: { d: '4' } });
    assert.deepEqual(one.json(), { meta: { d: '4' } });
    const mismatch = await cloud.cinder('PUT', `${path}/d`, { meta: { e: '5' } });
    assert.equal(mismatch.statusCode, 400);
    assert.equal((await cloud.cinder('DELETE', `${path}/c`)).statusCode, 200);
    assert.deepEqual((await show(id)).metadata, { d: '4' });
    assert.equal((await cloud.cinder('GET', `${path}/c`)).statusCode, 404);
    const notText = await cloud.cinder('POST', path, { metadata: { n: 1 } });
    assert.equal(notText.statusCode, 400);
  });

  it('retypes an available volume through retyping, and refuses the same type or an unknown one', async () => {
    const id = await available(1);
    const r = await act(id, { 'os-retype': { new_type: 'lvmdriver-1', migration_policy: 'never' } });
    assert.equal(r.statusCode, 202, r.body);
    let volume = await show(id);
    assert.equal(volume.status, 'retyping');
    assert.equal(volume.volume_type, 'lvmdriver-1');
    cloud.advance(1000);
    volume = await show(id);
    assert.equal(volume.status, 'available');
    const same = await act(id, { 'os-retype': { new_type: 'lvmdriver-1' } });
    assert.equal(same.statusCode, 400);
    assert.match(same.json().badRequest.message, /must be different/);
    assert.equal((await act(id, { 'os-retype': { new_type: 'nope' } })).statusCode, 404);
    assert.equal((await act(id, { 'os-retype': {} })).statusCode, 400);
  });
});

describe('sandbox Cinder: boot failure noise', () => {
  it('sends a new volume to error instead of available', async () => {
    const cloud = await volumeCloud({ bootDelayMs: 1000, bootFailureRate: 1 });
    try {
      const r = await cloud.cinder('POST', '/volumes', { volume: { size: 1 } });
      assert.equal(r.json().volume.status, 'creating');
      cloud.advance(1000);
      const shown = (await cloud.cinder('GET', `/volumes/${r.json().volume.id}`)).json().volume;
      assert.equal(shown.status, 'error');
    } finally {
      await cloud.close();
    }
  });
});
