import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { findStack } from '../../src/engine/operations/queries.js';
import {
  createSnapshot,
  deleteSnapshot,
  listSnapshots,
  restoreSnapshot,
  showSnapshot,
} from '../../src/engine/operations/snapshot.js';
import { P } from '../../src/template/properties/index.js';
import type { Json } from '../../src/util/json.js';
import { Harness } from './harness.js';

// Stack snapshots in the engine, with a type whose snapshot takes a while (fake time) and may fail:
// persisted polling, the snapshot's and the stack's states, refusals, a snapshot superseded by an
// update, and a restore rewriting a resource's properties from its snapshot data.

class SnapProbe {
  readonly deleted: string[] = [];
  /** How many deletes of a snapshot's copy fail before one succeeds. */
  failDeletes = 0;
  readonly plugin: ResourcePlugin = {
    type: 'Test::Snap',
    description: 'Takes snapshots that last `snap_secs` of fake time (tests only).',
    properties: {
      value: P.string({ updateAllowed: true }),
      snap_secs: P.number({ updateAllowed: true }),
      fail_snapshot: P.boolean({ updateAllowed: true }),
      restored_from: P.string({ updateAllowed: true }),
    },
    attributes: {},
    create: async (ctx) => ({ physicalId: `snap-${ctx.idempotencyKey}` }),
    delete: async () => ({}),
    snapshot: async (ctx) => {
      const props = ctx.storedProperties ?? {};
      if (props.fail_snapshot) throw new Error('the backend refused the copy');
      const copy = `copy-of-${ctx.physicalId}-${ctx.now()}`;
      const secs = typeof props.snap_secs === 'number' ? props.snap_secs : 0;
      return secs > 0
        ? { data: { copy }, progress: { until: ctx.now() + secs * 1000, copy } }
        : { data: { copy } };
    },
    checkSnapshotComplete: async (ctx, progress) => {
      const { until, copy } = progress as { until: number; copy: string };
      return ctx.now() >= until
        ? { done: true, data: { copy } }
        : { done: false, progress: progress as Json };
    },
    deleteSnapshot: async (_ctx, data) => {
      if (this.failDeletes > 0) {
        this.failDeletes--;
        throw new Error('the backend is busy');
      }
      this.deleted.push(String(data.copy));
    },
    restoreProperties: (properties, data) => ({ ...properties, restored_from: String(data.copy) }),
    getReality: async () => ({ state: 'gone' }),
    attribute: async () => null,
  };
}

const template = (value: string, extra = '') => `heat_template_version: 2018-08-31
resources:
  first: {type: Test::Snap, properties: {value: ${value}, snap_secs: 30${extra}}}
  second: {type: Test::Snap, properties: {value: {get_resource: first}}}
`;

async function rig() {
  const probe = new SnapProbe();
  const h = await Harness.create({ plugins: [probe.plugin] });
  await h.create('s', template('one'));
  await h.settle();
  const stack = await findStack(h.deps, 'p', 's');
  return { h, probe, stack };
}

describe('stack snapshots in the engine', () => {
  it('polls a slow snapshot as persisted work, with the resource locked meanwhile, then completes', async () => {
    const { h, stack } = await rig();
    const made = await createSnapshot(h.deps, stack.id, 'slow');
    await h.rounds(3);
    const during = await showSnapshot(h.deps, stack.id, made.id);
    assert.equal(during.status, 'IN_PROGRESS');
    const first = (await h.deps.store.tx((tx) => tx.resources.findByName(stack.id, 'first')))[0]!;
    assert.notEqual(first.engineId, null, 'the row is locked while its copy is being made');
    assert.equal(`${first.action}_${first.status}`, 'CREATE_COMPLETE', 'and keeps its state');
    const queued = await h.deps.store.tx((tx) => tx.work.listForTraversal(during.traversalId));
    assert.ok(queued.some((item) => (item.payload as { phase?: string }).phase === 'snapshot-poll'));

    await h.settle();
    const done = await showSnapshot(h.deps, stack.id, made.id);
    assert.equal(done.status, 'COMPLETE');
    assert.equal(done.statusReason, 'Stack SNAPSHOT completed successfully');
    const resources = done.data!.resources as Record<string, { resource_data: Record<string, unknown> }>;
    assert.match(String(resources.first!.resource_data.copy), /^copy-of-snap-/);
    assert.match(String(resources.second!.resource_data.copy), /^copy-of-snap-/);
    assert.match(JSON.stringify(done.data!.template), /Test::Snap/);
    const after = await findStack(h.deps, 'p', 's');
    assert.equal(`${after.action}_${after.status}`, 'SNAPSHOT_COMPLETE');
    const rows = await h.deps.store.tx((tx) => tx.resources.listActive(stack.id));
    assert.deepEqual(rows.map((r) => [r.name, r.engineId, `${r.action}_${r.status}`]).sort(), [
      ['first', null, 'CREATE_COMPLETE'],
      ['second', null, 'CREATE_COMPLETE'],
    ]);
    const events = await h.deps.store.tx((tx) => tx.events.list(stack.id));
    assert.ok(
      events.some((e) => e.resourceName === 'first' && e.action === 'SNAPSHOT' && e.status === 'COMPLETE'),
    );
  });

  it('fails the snapshot and the stack’s SNAPSHOT when a resource’s copy fails, the resource untouched', async () => {
    const probe = new SnapProbe();
    const h = await Harness.create({ plugins: [probe.plugin] });
    await h.create('s', template('one', ', fail_snapshot: true'));
    await h.settle();
    const stack = await findStack(h.deps, 'p', 's');
    const made = await createSnapshot(h.deps, stack.id, null);
    await h.settle();
    const failed = await showSnapshot(h.deps, stack.id, made.id);
    assert.equal(failed.status, 'FAILED');
    assert.match(failed.statusReason, /Resource SNAPSHOT failed: Error: the backend refused the copy/);
    const after = await findStack(h.deps, 'p', 's');
    assert.equal(`${after.action}_${after.status}`, 'SNAPSHOT_FAILED');
    const first = (await h.deps.store.tx((tx) => tx.resources.findByName(stack.id, 'first')))[0]!;
    assert.equal(`${first.action}_${first.status}`, 'CREATE_COMPLETE');
    assert.equal(first.engineId, null);
    // A failed snapshot cannot be restored, but can be deleted.
    await assert.rejects(
      restoreSnapshot(h.deps, h.engine.cache, stack.id, made.id),
      /only a COMPLETE snapshot/,
    );
    await deleteSnapshot(h.deps, stack.id, made.id);
    await h.settle();
    assert.deepEqual(await listSnapshots(h.deps, stack.id), []);
    // The stack goes on: an update works.
    await h.update('s', template('two'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
  });

  it('refuses a snapshot of a busy stack, the delete of one being taken, and another stack’s', async () => {
    const { h, stack } = await rig();
    const made = await createSnapshot(h.deps, stack.id, 'a');
    await assert.rejects(
      createSnapshot(h.deps, stack.id, 'b'),
      /already has an action \(SNAPSHOT\) in progress/,
    );
    await assert.rejects(
      deleteSnapshot(h.deps, stack.id, made.id),
      /Deleting in-progress snapshot is not supported/,
    );
    await h.create('other', template('x'));
    await h.settle();
    const other = await findStack(h.deps, 'p', 'other');
    await assert.rejects(showSnapshot(h.deps, other.id, made.id), /could not be found/);
    await assert.rejects(deleteSnapshot(h.deps, other.id, made.id), /could not be found/);
    await assert.rejects(restoreSnapshot(h.deps, h.engine.cache, other.id, made.id), /could not be found/);
    await h.settle();
    assert.equal((await showSnapshot(h.deps, stack.id, made.id)).status, 'COMPLETE');
  });

  it('fails a snapshot an update supersedes, and frees its rows', async () => {
    const { h, stack } = await rig();
    const made = await createSnapshot(h.deps, stack.id, null);
    await h.rounds(2);
    await h.update('s', template('two'));
    const superseded = await showSnapshot(h.deps, stack.id, made.id);
    assert.equal(superseded.status, 'FAILED');
    assert.match(superseded.statusReason, /superseded by a stack UPDATE/);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const rows = await h.deps.store.tx((tx) => tx.resources.listActive(stack.id));
    assert.deepEqual(
      rows.map((r) => r.engineId),
      [null, null],
    );
  });

  it('restores the snapshot’s template, each resource’s properties rewritten from its data', async () => {
    const { h, probe, stack } = await rig();
    const made = await createSnapshot(h.deps, stack.id, null);
    await h.settle();
    const copy = (
      (await showSnapshot(h.deps, stack.id, made.id)).data!.resources as Record<
        string,
        { resource_data: { copy: string } }
      >
    ).first!.resource_data.copy;
    await h.update('s', template('two'));
    await h.settle();
    await restoreSnapshot(h.deps, h.engine.cache, stack.id, made.id);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const first = (await h.deps.store.tx((tx) => tx.resources.findByName(stack.id, 'first')))[0]!;
    assert.equal(first.properties?.value, 'one');
    assert.equal(first.properties?.restored_from, copy);

    // Deleting the stack deletes its snapshot, and what the snapshot made.
    await h.delete('s');
    await h.settle();
    assert.deepEqual(await h.deps.store.tx((tx) => tx.snapshots.list(stack.id)), []);
    assert.ok(probe.deleted.includes(copy), JSON.stringify(probe.deleted));
  });

  it('tries a failed delete of what a snapshot made again, and gives up after a few tries', async () => {
    const { h, probe, stack } = await rig();
    const first = await createSnapshot(h.deps, stack.id, null);
    await h.settle();
    probe.failDeletes = 3;
    await deleteSnapshot(h.deps, stack.id, first.id);
    // Hidden at once, while its unit tries again.
    assert.deepEqual(await listSnapshots(h.deps, stack.id), []);
    await h.settle();
    assert.equal(probe.failDeletes, 0);
    assert.equal(probe.deleted.length, 2, 'both copies deleted once the backend let it');
    assert.deepEqual(await h.deps.store.tx((tx) => tx.snapshots.list(stack.id)), []);

    const second = await createSnapshot(h.deps, stack.id, null);
    await h.settle();
    probe.failDeletes = 1000;
    await deleteSnapshot(h.deps, stack.id, second.id);
    await h.settle();
    assert.deepEqual(
      await h.deps.store.tx((tx) => tx.snapshots.list(stack.id)),
      [],
      'the row goes in the end',
    );
    assert.equal(1000 - probe.failDeletes, 6, 'tried six times');
  });

  it('restores a template resource, its nested template found through the snapshot’s files', async () => {
    const probe = new SnapProbe();
    const h = await Harness.create({ plugins: [probe.plugin] });
    const member = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  inner: {type: Test::Snap, properties: {value: {get_param: v}}}
`;
    const parent = `heat_template_version: 2018-08-31
resources:
  nested: {type: member.yaml, properties: {v: inside}}
`;
    const files = { 'member.yaml': member };
    await h.create('n', parent, { files });
    await h.settle();
    const stack = await findStack(h.deps, 'p', 'n');
    const made = await createSnapshot(h.deps, stack.id, null);
    await h.settle();
    assert.equal((await showSnapshot(h.deps, stack.id, made.id)).status, 'COMPLETE');
    await h.update('n', template('other'));
    await h.settle();
    await restoreSnapshot(h.deps, h.engine.cache, stack.id, made.id);
    await h.settle();
    const restored = await findStack(h.deps, 'p', 'n');
    assert.equal(`${restored.action}_${restored.status}`, 'UPDATE_COMPLETE', restored.reason);
    const rows = await h.deps.store.tx((tx) => tx.resources.listActive(stack.id));
    assert.deepEqual(
      rows.map((r) => r.name),
      ['nested'],
    );
  });
});
