import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pluginContext } from '../../src/engine/context/node-work.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { updateStack } from '../../src/engine/operations/update.js';
import { cinderVolumePlugin } from '../../src/resources/openstack/cinder/volume.js';
import {
  createSnapshot,
  deleteSnapshot,
  restoreSnapshot,
  showSnapshot,
} from '../../src/engine/operations/snapshot.js';
import { type DriftRig, driftRig } from './drift-support.js';

// A stack snapshot of Cinder volumes on the sandbox cloud (issue 21, item 24): each volume is backed
// up; after the stack changed, a restore makes the volume that had an image from its backup (a
// replacement with backup_id) and restores the other's backup onto it (an update of backup_id);
// deleting the snapshot deletes its backups, and so does deleting the stack.

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  plain: {type: OS::Cinder::Volume, properties: {name: plain, size: 1}}
  booted:
    type: OS::Cinder::Volume
    properties: {name: booted, size: 1, image: cirros-0.6.2-x86_64-disk}
`;

const CHANGED = `heat_template_version: 2018-08-31
resources:
  plain: {type: OS::Cinder::Volume, properties: {name: renamed, size: 1}}
`;

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('stack snapshots of Cinder volumes, on the sandbox cloud', () => {
  let rig: DriftRig;
  const cinder = async (method: 'GET' | 'DELETE', path: string) =>
    (await rig.demo.request<Answer>('volumev3', method, path, undefined, { microversion: '3.47' })).body;
  const backups = async () =>
    ((await cinder('GET', '/backups/detail')).backups as Answer[]).map((b) => ({
      id: b.id,
      volume: b.volume_id,
    }));

  before(async () => {
    rig = await driftRig();
    await rig.create('v', TEMPLATE);
  });
  after(() => rig?.close());

  it('backs every volume up, then restores the stack from the backups', async () => {
    const { h } = rig;
    const stack = await findStack(h.deps, 'p', 'v');
    const before = await rig.ids('v');
    const made = await createSnapshot(h.deps, stack.id, 'snap');
    assert.equal(made.status, 'IN_PROGRESS');
    assert.equal((await findStack(h.deps, 'p', 'v')).action, 'SNAPSHOT');
    await h.settle();
    const snapshot = await showSnapshot(h.deps, stack.id, made.id);
    assert.equal(snapshot.status, 'COMPLETE', snapshot.statusReason);
    const after = await findStack(h.deps, 'p', 'v');
    assert.equal(`${after.action}_${after.status}`, 'SNAPSHOT_COMPLETE');

    // One backup of each volume, available, recorded in the snapshot under its resource.
    const resources = snapshot.data!.resources as Answer;
    const backupOf = (name: string) => resources[name].resource_data.backup_id as string;
    assert.deepEqual(
      (await backups()).sort((a, b) => a.id.localeCompare(b.id)),
      [
        { id: backupOf('plain'), volume: before.get('plain') },
        { id: backupOf('booted'), volume: before.get('booted') },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    for (const name of ['plain', 'booted']) {
      assert.equal((await cinder('GET', `/backups/${backupOf(name)}`)).backup.status, 'available');
    }

    // The stack changes: one volume renamed, the other deleted.
    await updateStack(h.deps, h.engine.cache, stack.id, { template: h.input(CHANGED) });
    await h.settle();
    assert.deepEqual([...(await rig.ids('v')).keys()], ['plain']);

    const seq = await callsNow();
    await restoreSnapshot(h.deps, h.engine.cache, stack.id, made.id);
    await h.settle();
    const restored = await findStack(h.deps, 'p', 'v');
    assert.equal(`${restored.action}_${restored.status}`, 'UPDATE_COMPLETE', restored.reason);
    const ids = await rig.ids('v');
    assert.deepEqual([...ids.keys()].sort(), ['booted', 'plain']);

    // `plain` stays the same volume, its name back and its backup restored onto it.
    assert.equal(ids.get('plain'), before.get('plain'));
    const plain = (await cinder('GET', `/volumes/${ids.get('plain')}`)).volume;
    assert.equal(plain.name, 'plain');
    assert.equal(plain.status, 'available');
    const calls = await callsSince(seq);
    assert.ok(
      calls.some((c) => c.method === 'POST' && c.path.endsWith(`/backups/${backupOf('plain')}/restore`)),
      JSON.stringify(calls.map((c) => `${c.method} ${c.path}`)),
    );

    // `booted` is a new volume made from its backup: the image it shows came with the backup, as
    // the restored definition names only the backup.
    assert.notEqual(ids.get('booted'), before.get('booted'));
    const booted = (await cinder('GET', `/volumes/${ids.get('booted')}`)).volume;
    assert.equal(booted.status, 'available');
    assert.equal(booted.volume_image_metadata?.image_name, 'cirros-0.6.2-x86_64-disk');
    const row = (await h.deps.store.tx((tx) => tx.resources.listActive(stack.id))).find(
      (r) => r.name === 'booted',
    )!;
    assert.equal(row.properties?.backup_id, backupOf('booted'));
    assert.equal(row.properties?.image ?? null, null);

    // Deleting the snapshot deletes its backups.
    await deleteSnapshot(h.deps, stack.id, made.id);
    await h.settle();
    assert.deepEqual(await backups(), []);
    await assert.rejects(showSnapshot(h.deps, stack.id, made.id), /could not be found/);
  });

  it('deletes the snapshots of a stack deleted, and their backups', async () => {
    const { h } = rig;
    const stack = await findStack(h.deps, 'p', 'v');
    const made = await createSnapshot(h.deps, stack.id, null);
    await h.settle();
    assert.equal((await showSnapshot(h.deps, stack.id, made.id)).status, 'COMPLETE');
    assert.equal((await backups()).length, 2);
    await h.delete('v');
    await h.settle();
    assert.deepEqual(await backups(), []);
    assert.deepEqual(await h.deps.store.tx((tx) => tx.snapshots.list(stack.id)), []);
  });

  it('makes one backup per snapshot key: a step run again finds the backup it made', async () => {
    const { h } = rig;
    await rig.create('w', TEMPLATE);
    const stack = await findStack(h.deps, 'p', 'w');
    const row = (await h.deps.store.tx((tx) => tx.resources.findByName(stack.id, 'plain')))[0]!;
    const ctx = { ...pluginContext({ deps: h.deps, stack }, row), idempotencyKey: 'snapshot-key-1' };
    const first = await cinderVolumePlugin.snapshot!(ctx);
    const again = await cinderVolumePlugin.snapshot!(ctx);
    assert.equal(first.data?.backup_id, again.data?.backup_id);
    const other = await cinderVolumePlugin.snapshot!({ ...ctx, idempotencyKey: 'snapshot-key-2' });
    assert.notEqual(other.data?.backup_id, first.data?.backup_id);
    const mine = (await backups()).filter((b) => b.volume === row.physicalId);
    assert.equal(mine.length, 2);
  });

  async function callsNow(): Promise<number> {
    const all = await callsSince(0);
    return all.at(-1)?.seq ?? 0;
  }
  async function callsSince(seq: number): Promise<{ seq: number; method: string; path: string }[]> {
    const answer = await rig.app.inject({ method: 'GET', url: `/admin/calls?since=${seq}` });
    return answer.json().calls;
  }
});
