import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type VolumeCloud, volumeCloud } from './volume-helpers.js';

// Cinder backups in the sandbox: made from a volume (creating -> available, the volume backing-up
// meanwhile), listed, restored onto a volume, a new volume made from one (3.47), deleted.
describe('sandbox Cinder: backups', () => {
  let cloud: VolumeCloud;
  before(async () => {
    cloud = await volumeCloud({ bootDelayMs: 1000 });
  });
  after(() => cloud.close());

  async function volume(body: Record<string, unknown>): Promise<string> {
    const made = await cloud.cinder('POST', '/volumes', { volume: body }, { version: '3.47' });
    assert.equal(made.statusCode, 202, made.body);
    return made.json().volume.id as string;
  }
  const show = async (path: string) => (await cloud.cinder('GET', path)).json();

  it('backs a volume up, restores it onto another and makes a volume from it', async () => {
    const source = await volume({ name: 'src', size: 2 });
    cloud.advance(1000);
    assert.equal((await show(`/volumes/${source}`)).volume.status, 'available');

    const made = await cloud.cinder('POST', '/backups', { backup: { volume_id: source, name: 'b1' } });
    assert.equal(made.statusCode, 202, made.body);
    const id = made.json().backup.id as string;
    assert.equal(made.json().backup.name, 'b1');
    assert.equal((await show(`/backups/${id}`)).backup.status, 'creating');
    assert.equal((await show(`/volumes/${source}`)).volume.status, 'backing-up');
    // Not yet available: a volume cannot be made from it, nor can it be deleted.
    const early = await cloud.cinder('POST', '/volumes', { volume: { backup_id: id } }, { version: '3.47' });
    assert.equal(early.statusCode, 400);
    assert.match(early.body, /Backup status must be available/);
    cloud.advance(1000);
    const backup = (await show(`/backups/${id}`)).backup;
    assert.equal(backup.status, 'available');
    assert.equal(backup.volume_id, source);
    assert.equal(backup.size, 2);
    assert.equal((await show(`/volumes/${source}`)).volume.status, 'available');
    assert.deepEqual(
      (await show('/backups/detail')).backups.map((b: { id: string }) => b.id),
      [id],
    );
    assert.deepEqual(
      (await show('/backups')).backups.map((b: { name: string }) => b.name),
      ['b1'],
    );

    // A volume from the backup: its size by default, restoring-backup until ready.
    const below = await cloud.cinder('POST', '/volumes', { volume: { backup_id: id } }, { version: '3.46' });
    assert.equal(below.statusCode, 400);
    assert.match(below.body, /backup_id/);
    const copy = await volume({ backup_id: id, name: 'copy' });
    const fresh = (await show(`/volumes/${copy}`)).volume;
    assert.equal(fresh.status, 'restoring-backup');
    assert.equal(fresh.size, 2);
    cloud.advance(1000);
    assert.equal((await show(`/volumes/${copy}`)).volume.status, 'available');

    // Restored onto an existing volume: too small is refused; the right size is restoring-backup.
    const small = await volume({ name: 'small', size: 1 });
    const big = await volume({ name: 'big', size: 3 });
    cloud.advance(1000);
    const refused = await cloud.cinder('POST', `/backups/${id}/restore`, { restore: { volume_id: small } });
    assert.equal(refused.statusCode, 400);
    const restored = await cloud.cinder('POST', `/backups/${id}/restore`, { restore: { volume_id: big } });
    assert.equal(restored.statusCode, 202, restored.body);
    assert.deepEqual(restored.json().restore, { backup_id: id, volume_id: big, volume_name: 'big' });
    assert.equal((await show(`/volumes/${big}`)).volume.status, 'restoring-backup');
    assert.equal((await show(`/backups/${id}`)).backup.status, 'restoring');
    cloud.advance(1000);
    assert.equal((await show(`/volumes/${big}`)).volume.status, 'available');

    // Deleted: deleting, then gone.
    const deleted = await cloud.cinder('DELETE', `/backups/${id}`);
    assert.equal(deleted.statusCode, 202);
    assert.equal((await show(`/backups/${id}`)).backup.status, 'deleting');
    cloud.advance(1000);
    const gone = await cloud.cinder('GET', `/backups/${id}`);
    assert.equal(gone.statusCode, 404);
    assert.match(gone.body, new RegExp(`Backup ${id} could not be found`));
  });

  it('refuses a backup of a volume that is not there, or busy, and another project’s backup', async () => {
    const missing = await cloud.cinder('POST', '/backups', { backup: { volume_id: 'nope' } });
    assert.equal(missing.statusCode, 404);
    const id = await volume({ name: 'busy', size: 1 });
    const busy = await cloud.cinder('POST', '/backups', { backup: { volume_id: id } });
    assert.equal(busy.statusCode, 400, 'still creating');
    assert.match(
      busy.json().badRequest.message,
      /must be available or in-use, but the current status is "creating"/,
    );
    cloud.advance(1000);
    const made = await cloud.cinder('POST', '/backups', { backup: { volume_id: id } });
    const other = await cloud.cinder('GET', `/backups/${made.json().backup.id}`, undefined, {
      as: cloud.admin,
    });
    assert.equal(other.statusCode, 404);
  });
});
