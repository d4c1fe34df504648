import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pluginContext } from '../../src/engine/context/node-work.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { updateStack } from '../../src/engine/operations/update.js';
import { novaServerPlugin } from '../../src/resources/openstack/nova/server.js';
import {
  createSnapshot,
  deleteSnapshot,
  restoreSnapshot,
  showSnapshot,
} from '../../src/engine/operations/snapshot.js';
import { type DriftRig, driftRig } from './drift-support.js';

// A stack snapshot of a Nova server on the sandbox cloud: the server is imaged (createImage), a
// restore boots the server from that image, and deleting the snapshot deletes the image.

const TEMPLATE = (name: string) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.7.0.0/24}
  server:
    type: OS::Nova::Server
    properties:
      name: ${name}
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
`;

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('stack snapshots of a Nova server, on the sandbox cloud', () => {
  let rig: DriftRig;
  const get = async (service: 'compute' | 'image', path: string) =>
    (
      await rig.demo.request<Answer>(
        service,
        'GET',
        path,
        undefined,
        service === 'compute' ? { microversion: '2.79' } : {},
      )
    ).body;

  before(async () => {
    rig = await driftRig();
    await rig.create('s', TEMPLATE('first'));
  });
  after(() => rig?.close());

  it('images the server, boots it from the image on restore, deletes the image with the snapshot', async () => {
    const { h } = rig;
    const stack = await findStack(h.deps, 'p', 's');
    const server = (await rig.ids('s')).get('server')!;
    const made = await createSnapshot(h.deps, stack.id, 'with-server');
    await h.settle();
    const snapshot = await showSnapshot(h.deps, stack.id, made.id);
    assert.equal(snapshot.status, 'COMPLETE', snapshot.statusReason);
    const imageId = (snapshot.data!.resources as Answer).server.resource_data.snapshot_image_id as string;
    const image = await get('image', `/images/${imageId}`);
    assert.equal(image.status, 'active');
    assert.equal(image.instance_uuid, server);
    assert.equal(image.image_type, 'snapshot');

    await updateStack(h.deps, h.engine.cache, stack.id, { template: h.input(TEMPLATE('second')) });
    await h.settle();
    assert.equal((await get('compute', `/servers/${server}`)).server.name, 'second');

    await restoreSnapshot(h.deps, h.engine.cache, stack.id, made.id);
    await h.settle();
    const restored = await findStack(h.deps, 'p', 's');
    assert.equal(`${restored.action}_${restored.status}`, 'UPDATE_COMPLETE', restored.reason);
    const now = (await rig.ids('s')).get('server')!;
    assert.notEqual(now, server, 'a server booted from another image is a new server');
    const booted = (await get('compute', `/servers/${now}`)).server;
    assert.equal(booted.image.id, imageId);
    assert.equal(booted.name, 'first');

    await deleteSnapshot(h.deps, stack.id, made.id);
    await h.settle();
    await assert.rejects(get('image', `/images/${imageId}`), /404|not found/i);
  });

  it('makes one image per snapshot key: a step run again finds the image it asked for', async () => {
    const { h } = rig;
    const stack = await findStack(h.deps, 'p', 's');
    const row = (await h.deps.store.tx((tx) => tx.resources.findByName(stack.id, 'server')))[0]!;
    const ctx = { ...pluginContext({ deps: h.deps, stack }, row), idempotencyKey: 'snapshot-key-1' };
    const first = await novaServerPlugin.snapshot!(ctx);
    const again = await novaServerPlugin.snapshot!(ctx);
    assert.equal(first.data?.snapshot_image_id, again.data?.snapshot_image_id);
    const other = await novaServerPlugin.snapshot!({ ...ctx, idempotencyKey: 'snapshot-key-2' });
    assert.notEqual(other.data?.snapshot_image_id, first.data?.snapshot_image_id);
  });
});
