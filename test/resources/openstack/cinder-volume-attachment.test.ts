import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cinderVolumeAttachmentPlugin as plugin } from '../../../src/resources/openstack/cinder/volume-attachment.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

describe('OS::Cinder::VolumeAttachment on the sandbox cloud', () => {
  let rig: TypeRig;
  let servers: string[];
  before(async () => {
    rig = await typeRig({ bootDelayMs: 1000 });
    const images = await rig.demo.request<{ images: { id: string }[] }>('image', 'GET', '/images');
    const boot = async (name: string) =>
      (
        await rig.demo.request<{ server: { id: string } }>('compute', 'POST', '/servers', {
          server: { name, flavorRef: '1', imageRef: images.body.images[0]!.id },
        })
      ).body.server.id;
    servers = [await boot('one'), await boot('two')];
    rig.clock.advance(1000);
  });
  after(async () => rig?.close());

  const newVolume = async (name: string) => {
    const made = await rig.demo.request<{ volume: { id: string } }>('block-storage', 'POST', '/volumes', {
      volume: { name, size: 1 },
    });
    rig.clock.advance(1000);
    return made.body.volume.id;
  };
  const volume = async (id: string) =>
    (
      await rig.demo.request<{
        volume: { status: string; attachments: { server_id: string; device: string }[] };
      }>('block-storage', 'GET', `/volumes/${id}`)
    ).body.volume;

  it('attaches, finds its attachment again on a retried create, observes and detaches', async () => {
    const vol = await newVolume('a');
    const att = rig.resource(plugin, 'att-1');
    await att.create({ instance_uuid: servers[0]!, volume_id: vol, mountpoint: '/dev/vdc' });
    // Nova's attachment id (before 2.89, the volume's id).
    assert.equal(att.physicalId, vol);
    const shown = await volume(vol);
    assert.equal(shown.status, 'in-use');
    assert.deepEqual(
      shown.attachments.map((a) => [a.server_id, a.device]),
      [[servers[0], '/dev/vdc']],
    );

    const again = rig.resource(plugin, 'att-1');
    await again.create({ instance_uuid: servers[0]!, volume_id: vol, mountpoint: '/dev/vdc' });
    assert.equal(again.physicalId, vol);
    assert.equal((await volume(vol)).attachments.length, 1);

    assert.deepEqual(await plugin.getReality(att.ctx()), {
      state: 'present',
      properties: { instance_uuid: servers[0], volume_id: vol, mountpoint: '/dev/vdc' },
    });
    assert.equal(((await att.attribute('show')) as { serverId: string }).serverId, servers[0]);

    await att.delete();
    assert.equal((await volume(vol)).status, 'available');
    assert.deepEqual(await plugin.getReality(att.ctx()), { state: 'gone' });
    await att.delete();
  });

  it('an update detaches and attaches again as the new properties say', async () => {
    const first = await newVolume('b');
    const second = await newVolume('c');
    const att = rig.resource(plugin, 'att-2');
    await att.create({ instance_uuid: servers[0]!, volume_id: first });
    const outcome = await att.update({ instance_uuid: servers[1]!, volume_id: second });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    assert.equal(att.physicalId, second);
    assert.equal((await volume(first)).status, 'available');
    const moved = await volume(second);
    assert.equal(moved.status, 'in-use');
    assert.equal(moved.attachments[0]!.server_id, servers[1]);
    assert.deepEqual(await plugin.getReality(att.ctx()), {
      state: 'present',
      properties: { instance_uuid: servers[1], volume_id: second, mountpoint: null },
    });
    await att.delete();
    assert.equal((await volume(second)).status, 'available');
  });

  it('a volume detached or deleted behind its back is gone, and deleting it then is done', async () => {
    const vol = await newVolume('d');
    const att = rig.resource(plugin, 'att-3');
    await att.create({ instance_uuid: servers[0]!, volume_id: vol });
    await rig.demo.request('compute', 'DELETE', `/servers/${servers[0]}/os-volume_attachments/${vol}`);
    assert.deepEqual(await plugin.getReality(att.ctx()), { state: 'gone' });
    await att.delete();
  });

  it('a server that is not there fails the create', async () => {
    const vol = await newVolume('e');
    const att = rig.resource(plugin, 'att-4');
    await assert.rejects(
      att.create({ instance_uuid: 'no-such-server', volume_id: vol }),
      /attaching the volume/,
    );
  });
});
