import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VolumeBinder } from '../../src/sandbox/bindings.js';
import { ApiError } from '../../src/sandbox/errors.js';
import { volumeAttachments } from '../../src/sandbox/volume/index.js';
import { type VolumeCloud, volumeCloud } from './volume-helpers.js';

describe('sandbox Cinder: the VolumeBinder (Nova’s attachments) and admin actions', () => {
  let cloud: VolumeCloud;
  let binder: VolumeBinder;
  before(async () => {
    cloud = await volumeCloud();
    binder = volumeAttachments(cloud.ctx);
  });
  after(() => cloud.close());

  async function volume(body: Record<string, unknown> = {}, ready = true): Promise<string> {
    const r = await cloud.cinder('POST', '/volumes', { volume: { size: 1, ...body } });
    assert.equal(r.statusCode, 202, r.body);
    if (ready) cloud.advance(1000);
    return r.json().volume.id as string;
  }
  const show = async (id: string) => (await cloud.cinder('GET', `/volumes/${id}`)).json().volume;
  const refusal = (status: number, message: RegExp) => (error: unknown) =>
    error instanceof ApiError && error.status === status && message.test(error.message);

  it('attaches available volumes as /dev/vdb, /dev/vdc…; the volume shows in-use with the attachment', async () => {
    const first = await volume();
    const second = await volume();
    const a = binder.attach(cloud.demo.projectId, first, 'server-1');
    assert.equal(a.device, '/dev/vdb');
    assert.equal(a.volumeId, first);
    assert.equal(a.serverId, 'server-1');
    const b = binder.attach(cloud.demo.projectId, second, 'server-1');
    assert.equal(b.device, '/dev/vdc');
    assert.deepEqual(
      binder.attachmentsOf('server-1').map((x) => [x.volumeId, x.device]),
      [
        [first, '/dev/vdb'],
        [second, '/dev/vdc'],
      ],
    );
    const shown = await show(first);
    assert.equal(shown.status, 'in-use');
    assert.equal(shown.attachments.length, 1);
    const [attachment] = shown.attachments;
    assert.equal(attachment.id, first);
    assert.equal(attachment.volume_id, first);
    assert.equal(attachment.attachment_id, a.id);
    assert.equal(attachment.server_id, 'server-1');
    assert.equal(attachment.device, '/dev/vdb');
    assert.ok(attachment.attached_at);
    assert.ok('host_name' in attachment);

    const del = await cloud.cinder('DELETE', `/volumes/${first}`);
    assert.equal(del.statusCode, 400);
    assert.match(del.json().badRequest.message, /^Invalid volume: Volume status must be available or error/);

    binder.detach(cloud.demo.projectId, first, 'server-1');
    assert.equal((await show(first)).status, 'available');
    assert.deepEqual((await show(first)).attachments, []);
    assert.deepEqual(
      binder.attachmentsOf('server-1').map((x) => x.device),
      ['/dev/vdc'],
    );
    // The freed name is used again.
    assert.equal(binder.attach(cloud.demo.projectId, first, 'server-1').device, '/dev/vdb');
    binder.detachAll('server-1');
    assert.deepEqual(binder.attachmentsOf('server-1'), []);
    assert.equal((await show(second)).status, 'available');
  });

  it('refuses a volume that is not available, not the project’s, or already attached; takes a given device', async () => {
    const creating = await volume({}, false);
    assert.throws(
      () => binder.attach(cloud.demo.projectId, creating, 'server-2'),
      refusal(400, /status must be 'available'/),
    );
    cloud.advance(1000);
    assert.throws(
      () => binder.attach(cloud.admin.projectId, creating, 'server-2'),
      refusal(404, /could not be found/),
    );
    assert.throws(
      () => binder.attach(cloud.demo.projectId, 'nope', 'server-2'),
      refusal(404, /could not be found/),
    );
    assert.equal(binder.attach(cloud.demo.projectId, creating, 'server-2', '/dev/vdf').device, '/dev/vdf');
    assert.throws(() => binder.attach(cloud.demo.projectId, creating, 'server-3'), refusal(400, /in-use/));
    const other = await volume();
    assert.throws(
      () => binder.attach(cloud.demo.projectId, other, 'server-2', '/dev/vdf'),
      refusal(400, /in use/),
    );
    assert.throws(() => binder.detach(cloud.demo.projectId, other, 'server-2'), refusal(404, /server-2/));
  });

  it('attaches a multiattach volume to several servers; it stays in-use until the last detach', async () => {
    const shared = await volume({ multiattach: true });
    binder.attach(cloud.demo.projectId, shared, 'server-4');
    assert.throws(
      () => binder.attach(cloud.demo.projectId, shared, 'server-4'),
      refusal(400, /already attached/),
    );
    binder.attach(cloud.demo.projectId, shared, 'server-5');
    assert.equal((await show(shared)).attachments.length, 2);
    binder.detach(cloud.demo.projectId, shared, 'server-4');
    assert.equal((await show(shared)).status, 'in-use');
    binder.detachAll('server-5');
    assert.equal((await show(shared)).status, 'available');
  });

  it('extends an in-use volume from microversion 3.42 only, back to in-use afterwards', async () => {
    const id = await volume();
    binder.attach(cloud.demo.projectId, id, 'server-7');
    const extend = (version: string) =>
      cloud.cinder('POST', `/volumes/${id}/action`, { 'os-extend': { new_size: 2 } }, { version });
    assert.equal((await extend('3.41')).statusCode, 400);
    const r = await extend('3.42');
    assert.equal(r.statusCode, 202, r.body);
    assert.equal((await show(id)).status, 'extending');
    cloud.advance(1000);
    const extended = await show(id);
    assert.equal(extended.status, 'in-use');
    assert.equal(extended.size, 2);
    assert.equal(extended.attachments.length, 1);
    // Detached while extending: it ends available, not in-use with nothing attached.
    assert.equal((await extend('3.42')).statusCode, 400, 'new_size must grow');
    const again = await cloud.cinder(
      'POST',
      `/volumes/${id}/action`,
      { 'os-extend': { new_size: 3 } },
      { version: '3.42' },
    );
    assert.equal(again.statusCode, 202);
    binder.detachAll('server-7');
    cloud.advance(1000);
    assert.equal((await show(id)).status, 'available');
  });

  it('changes a volume out of band (status, size, name, metadata) and deletes it, attachments and all', async () => {
    const id = await volume({}, false);
    const set = await cloud.app.inject({
      method: 'POST',
      url: `/admin/volume/${id}/set`,
      payload: { status: 'error', size: 7, name: 'broken', metadata: { why: 'disk' } },
    });
    assert.equal(set.statusCode, 200, set.body);
    cloud.advance(5000);
    const shown = await show(id);
    assert.equal(shown.status, 'error', 'the creating transition was dropped');
    assert.equal(shown.size, 7);
    assert.equal(shown.name, 'broken');
    assert.deepEqual(shown.metadata, { why: 'disk' });
    const bad = await cloud.app.inject({
      method: 'POST',
      url: `/admin/volume/${id}/set`,
      payload: { size: 0 },
    });
    assert.equal(bad.statusCode, 400);

    const attached = await volume();
    binder.attach(cloud.demo.projectId, attached, 'server-6');
    const del = await cloud.app.inject({ method: 'POST', url: `/admin/volume/${attached}/delete` });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal((await cloud.cinder('GET', `/volumes/${attached}`)).statusCode, 404);
    assert.deepEqual(binder.attachmentsOf('server-6'), []);
    const missing = await cloud.app.inject({ method: 'POST', url: `/admin/volume/${attached}/delete` });
    assert.equal(missing.statusCode, 404);
  });
});
