import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ResourceFailure, ResourceInError } from '../../../src/resources/contract.js';
import { cinderVolumePlugin } from '../../../src/resources/openstack/cinder/volume.js';
import { rejection } from '../helpers.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

describe('OS::Cinder::Volume on the sandbox cloud', () => {
  let rig: TypeRig;
  before(async () => {
    rig = await typeRig({ bootDelayMs: 3000 });
  });
  after(async () => rig?.close());

  const volume = async (id: string) =>
    (await rig.demo.request<{ volume: Record<string, unknown> }>('block-storage', 'GET', `/volumes/${id}`))
      .body.volume;
  const listed = async (name: string) =>
    (
      await rig.demo.request<{ volumes: unknown[] }>('block-storage', 'GET', '/volumes', undefined, {
        query: { name },
      })
    ).body.volumes.length;

  it('creates and polls until available; a create run again finds the same volume', async () => {
    const v = rig.resource(cinderVolumePlugin, 'vol-create');
    const started = await v.startCreate({ name: 'data', size: 1, metadata: { role: 'db' }, read_only: true });
    assert.ok(started.progress !== undefined, 'creation is asynchronous');
    const id = v.physicalId!;
    assert.equal((await volume(id)).status, 'creating');

    // A crash now: the create runs again and finds the volume by its marker.
    const again = rig.resource(cinderVolumePlugin, 'vol-create');
    const run = await again.create({ name: 'data', size: 1, metadata: { role: 'db' }, read_only: true });
    assert.equal(again.physicalId, id);
    assert.ok(run.polls >= 1 && run.waitedMs >= 3000, JSON.stringify(run));
    assert.equal(await listed('data'), 1);
    const shown = await volume(id);
    assert.equal(shown.status, 'available');
    assert.deepEqual(shown.metadata, { role: 'db', hearth_key: 'hearth:vol-create', readonly: 'True' });

    // The marker is no part of what the template sees.
    assert.deepEqual(await again.attribute('metadata_values'), { role: 'db', readonly: 'True' });
    assert.equal(await again.attribute('metadata'), JSON.stringify({ role: 'db', readonly: 'True' }));
    assert.equal(await again.attribute('size'), '1');
    assert.equal(await again.attribute('status'), 'available');
    assert.equal(await again.attribute('display_name'), 'data');
    assert.equal(await again.attribute('bootable'), 'false');
    assert.equal(await again.attribute('encrypted'), 'False');
    assert.equal(await again.attribute('multiattach'), false);
    assert.equal(await again.attribute('snapshot_id'), null);
    assert.deepEqual(await again.attribute('attachments_list'), []);
    assert.equal(await again.attribute('volume_type'), '__DEFAULT__');
    assert.equal(((await again.attribute('show')) as { id: string }).id, id);
    assert.deepEqual(await cinderVolumePlugin.getReality(again.ctx()), {
      state: 'present',
      properties: {
        name: 'data',
        description: null,
        size: 1,
        metadata: { role: 'db' },
        volume_type: null,
        read_only: true,
      },
    });
    await again.delete();
  });

  it('a volume that goes to error is a ResourceInError (retried by action_retry_limit)', async () => {
    const v = rig.resource(cinderVolumePlugin, 'vol-error');
    await v.startCreate({ size: 1 });
    await rig.outOfBand('volume', v.physicalId!, 'set', { status: 'error' });
    const err = await rejection(() => v.poll('create'));
    assert.ok(err instanceof ResourceInError, err.message);
    // Heat's ResourceInError text, which its reasons show after `ResourceInError: resources.<name>: `.
    assert.match(err.message, /^Went to status error due to "Unknown" \(Volume [0-9a-f-]+\)$/);
    assert.equal(err.heatClass, 'ResourceInError');
    await v.delete();
    assert.deepEqual(await cinderVolumePlugin.getReality(v.ctx()), { state: 'gone' });
  });

  it('updates in place: name, description, metadata (keeping the marker), retype, extend, read-only', async () => {
    const v = rig.resource(cinderVolumePlugin, 'vol-update');
    await v.create({ name: 'u', size: 1 });
    const id = v.physicalId!;
    const outcome = await v.update({
      name: 'u2',
      description: 'grown',
      size: 3,
      metadata: { a: 'b' },
      volume_type: 'lvmdriver-1',
      read_only: true,
    });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    assert.ok(outcome.polls >= 2, 'retype and extend are each waited for');
    const shown = await volume(id);
    assert.equal(shown.name, 'u2');
    assert.equal(shown.description, 'grown');
    assert.equal(shown.size, 3);
    assert.equal(shown.volume_type, 'lvmdriver-1');
    assert.equal(shown.status, 'available');
    assert.deepEqual(shown.metadata, { a: 'b', hearth_key: 'hearth:vol-update', readonly: 'True' });

    const err = await rejection(() =>
      v.update({ name: 'u2', description: 'grown', size: 2, volume_type: 'lvmdriver-1' }),
    );
    assert.ok(err instanceof ResourceFailure);
    assert.match(err.message, /Shrinking volume is not supported/);
    assert.equal((await volume(id)).size, 3);

    // A change Cinder cannot make in place replaces the volume.
    assert.deepEqual(await v.update({ name: 'u2', size: 3, availability_zone: 'nova' }), {
      replace: 'schema',
      properties: ['availability_zone'],
    });
    await v.delete();
  });

  it('waits while the volume is attached, then until it is gone; a delete of what is gone is done', async () => {
    const v = rig.resource(cinderVolumePlugin, 'vol-busy');
    await v.create({ size: 1 });
    const id = v.physicalId!;
    await rig.outOfBand('volume', id, 'set', { status: 'in-use' });
    const started = await cinderVolumePlugin.delete(v.ctx());
    assert.deepEqual(started.progress, { id, phase: 'delete', busy: 2 });
    await rig.outOfBand('volume', id, 'set', { status: 'available' });
    let poll = await cinderVolumePlugin.checkDeleteComplete!(v.ctx(), started.progress!);
    assert.deepEqual(poll.progress, { id, phase: 'gone' });
    assert.equal((await volume(id)).status, 'deleting');
    rig.clock.advance(3000);
    poll = await cinderVolumePlugin.checkDeleteComplete!(v.ctx(), poll.progress!);
    assert.equal(poll.done, true);
    assert.deepEqual(await cinderVolumePlugin.getReality(v.ctx()), { state: 'gone' });
    await v.delete();
  });

  it('a delete without a physical id finds the volume by its marker (a create that never returned)', async () => {
    const v = rig.resource(cinderVolumePlugin, 'vol-orphan');
    await v.create({ name: 'orphan', size: 1 });
    v.physicalId = null;
    await v.delete();
    assert.equal(await listed('orphan'), 0);
  });

  it('checks its sources at validation as Heat does', () => {
    const r = rig.resource(cinderVolumePlugin, 'vol-validate');
    const validate = (props: Record<string, unknown>) =>
      cinderVolumePlugin.validate!(r.props(props as never), ['properties']);
    assert.throws(() => validate({}), /one and only one of "source_volid", "snapshot_id"/);
    assert.throws(() => validate({ size: 1, image: 'a', source_volid: 'b' }), /only one of "image"/);
    assert.throws(() => validate({ size: 1, image: 'a', imageRef: 'a' }), /image, imageRef/);
    validate({ source_volid: 'x' });
    validate({ size: 1, image: 'cirros' });
  });
});
