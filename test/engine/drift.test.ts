import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDrift, storedDrift } from '../../src/engine/reality/drift.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import type { PluginContext, RealityState, ResourcePlugin } from '../../src/resources/contract.js';
import type { DriftRecord } from '../../src/store/contract.js';
import { P } from '../../src/template/properties/index.js';
import type { JsonObject } from '../../src/util/json.js';
import { Harness } from './harness.js';

const OBSERVED = 'Test::Observed';

/** A type whose reality the test controls through the harness's reality (tests only). */
class ObservedType {
  inFlight = 0;
  maxInFlight = 0;

  readonly plugin: ResourcePlugin = {
    type: OBSERVED,
    description: 'An object in the test reality, read back as it is there (tests only).',
    properties: {
      name: P.string({ updateAllowed: true }),
      size: P.integer({ updateAllowed: true, default: 1 }),
      admin_pass: P.string({ updateAllowed: true }),
      options: P.map({ updateAllowed: true }),
    },
    attributes: {},
    create: async (ctx, properties) => {
      const id = `obj-${ctx.idempotencyKey}`;
      const name =
        (properties.name as string | undefined) ?? `${ctx.stackName}-${ctx.resourceName}-generated`;
      await ctx.reality.put({
        id,
        key: ctx.idempotencyKey,
        type: OBSERVED,
        properties: { ...(properties as JsonObject), name },
        status: 'ACTIVE',
      });
      return { physicalId: id };
    },
    delete: async (ctx) => {
      if (ctx.physicalId) await ctx.reality.delete(OBSERVED, ctx.physicalId);
      return {};
    },
    getReality: async (ctx: PluginContext): Promise<RealityState> => {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 2));
        const object = await ctx.reality.get(OBSERVED, ctx.physicalId!);
        if (!object) return { state: 'gone' };
        if (object.status === 'BROKEN') throw new Error('the cloud answered 500');
        return { state: 'present', properties: { ...object.properties } };
      } finally {
        this.inFlight--;
      }
    },
    attribute: async () => null,
  };
}

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  same: {type: ${OBSERVED}, properties: {name: same, size: 2}}
  resized: {type: ${OBSERVED}, properties: {name: resized, size: 2, admin_pass: s3cret-one, options: {password: p4ss-word, color: red}}}
  unnamed: {type: ${OBSERVED}}
  gone: {type: ${OBSERVED}, properties: {name: gone}}
  broken: {type: ${OBSERVED}, properties: {name: broken}}
  none: {type: OS::Heat::None}
  value: {type: OS::Heat::Value, properties: {value: 42}}
  inner: {type: nested.yaml}
`;

const NESTED = `heat_template_version: 2018-08-31
resources:
  deep: {type: OS::Heat::TestResource, properties: {value: original}}
`;

async function created(type = new ObservedType()) {
  const h = await Harness.create({ plugins: [type.plugin] });
  await h.create('s', TEMPLATE, { files: { 'nested.yaml': NESTED } });
  await h.settle();
  assert.equal(await h.status('s'), 'CREATE_COMPLETE');
  return { h, type, stackId: (await findStack(h.deps, 'p', 's')).id };
}

/** Changes an object of the reality behind the engine's back. */
async function outOfBand(
  h: Harness,
  type: string,
  physicalId: string,
  change: (p: JsonObject) => JsonObject,
  status?: string,
) {
  const object = (await h.reality.get(type, physicalId))!;
  await h.reality.put({
    ...object,
    properties: change({ ...object.properties }),
    ...(status ? { status } : {}),
  });
}

async function physicalIds(h: Harness, stack = 's'): Promise<Map<string, string>> {
  return new Map((await h.rows(stack)).map((r) => [r.name, r.physicalId!]));
}

function byName(records: readonly DriftRecord[]): Map<string, DriftRecord> {
  return new Map(records.map((r) => [r.resourceName, r]));
}

describe('drift detection', () => {
  it('reports each resource IN_SYNC, MODIFIED with its property diff (secrets masked), DELETED, NOT_CHECKED or FAILED, nested stacks included', async () => {
    const { h, stackId } = await created();
    const ids = await physicalIds(h);
    await outOfBand(h, OBSERVED, ids.get('resized')!, (p) => ({
      ...p,
      size: 5,
      admin_pass: 'changed-pass',
      options: { password: 'other-pass', color: 'blue' },
    }));
    // A value of the wrong JSON type that the schema converts to the stored one: no drift.
    await outOfBand(h, OBSERVED, ids.get('same')!, (p) => ({ ...p, size: '2' }));
    // The cloud's own choice for a property the template left unset is not drift.
    await outOfBand(h, OBSERVED, ids.get('unnamed')!, (p) => ({ ...p, name: 'renamed-by-cloud' }));
    await h.reality.delete(OBSERVED, ids.get('gone')!);
    await outOfBand(h, OBSERVED, ids.get('broken')!, (p) => p, 'BROKEN');
    const child = (await h.deps.store.tx((tx) => tx.stacks.children(stackId)))[0]!;
    const deepId = (await h.deps.store.tx((tx) => tx.resources.listActive(child.id)))[0]!.physicalId!;
    await outOfBand(h, 'OS::Heat::TestResource', deepId, (p) => ({ ...p, value: 'changed' }));

    const summary = await detectDrift(h.deps, stackId);
    assert.deepEqual(summary.counts, {
      IN_SYNC: 2,
      MODIFIED: 2,
      DELETED: 1,
      ERROR: 0,
      NOT_CHECKED: 3,
      FAILED: 1,
    });
    assert.equal(summary.detectedAt, new Date(h.clock.now()).toISOString());

    const all = await storedDrift(h.deps, stackId);
    const top = byName(all.resources.filter((r) => r.stackId === stackId));
    assert.deepEqual([...top].map(([name, r]) => [name, r.status]).sort(), [
      ['broken', 'FAILED'],
      ['gone', 'DELETED'],
      ['inner', 'NOT_CHECKED'],
      ['none', 'NOT_CHECKED'],
      ['resized', 'MODIFIED'],
      ['same', 'IN_SYNC'],
      ['unnamed', 'IN_SYNC'],
      ['value', 'NOT_CHECKED'],
    ]);
    assert.deepEqual(top.get('resized')!.diff, [
      { name: 'admin_pass', expected: '******', actual: '******' },
      {
        name: 'options',
        expected: { password: '******', color: 'red' },
        actual: { password: '******', color: 'blue' },
      },
      { name: 'size', expected: 2, actual: 5 },
    ]);
    assert.doesNotMatch(JSON.stringify(all), /s3cret|p4ss|changed-pass|other-pass/);
    assert.equal(top.get('broken')!.reason, 'the cloud answered 500');
    assert.equal(top.get('gone')!.physicalId, ids.get('gone'));
    assert.match(top.get('none')!.reason!, /nothing to observe/);
    assert.match(top.get('inner')!.reason!, /nested stack/);
    assert.equal(top.get('resized')!.resourceType, OBSERVED);
    const deep = all.resources.find((r) => r.resourceName === 'deep')!;
    assert.equal(deep.stackName, child.name);
    assert.equal(deep.status, 'MODIFIED');
    assert.deepEqual(deep.diff, [{ name: 'value', expected: 'original', actual: 'changed' }]);

    const drifted = await storedDrift(h.deps, stackId, { onlyDrifted: true });
    assert.equal(drifted.resources.length, 7);
    assert.ok(drifted.resources.every((r) => r.status !== 'IN_SYNC'));
    assert.deepEqual(drifted.summary, summary);
  });

  it('replaces the stored results with the next detection, and a deleted stack leaves none', async () => {
    const { h, stackId } = await created();
    const ids = await physicalIds(h);
    await outOfBand(h, OBSERVED, ids.get('same')!, (p) => ({ ...p, size: 9 }));
    assert.equal((await detectDrift(h.deps, stackId)).counts.MODIFIED, 1);
    await outOfBand(h, OBSERVED, ids.get('same')!, (p) => ({ ...p, size: 2 }));
    h.clock.t += 60_000;
    const again = await detectDrift(h.deps, stackId);
    assert.equal(again.counts.MODIFIED, 0);
    assert.equal(again.detectedAt, new Date(h.clock.now()).toISOString());
    const stored = await storedDrift(h.deps, stackId);
    assert.equal(
      stored.resources.filter((r) => r.resourceName === 'same').length,
      1,
      'one result per resource',
    );
    assert.ok(stored.resources.every((r) => r.detectedAt === again.detectedAt));

    const child = (await h.deps.store.tx((tx) => tx.stacks.children(stackId)))[0]!;
    await h.delete('s');
    await h.settle();
    assert.deepEqual(await h.deps.store.tx((tx) => tx.drift.summary([stackId, child.id])), {
      counts: { IN_SYNC: 0, MODIFIED: 0, DELETED: 0, ERROR: 0, NOT_CHECKED: 0, FAILED: 0 },
      detectedAt: null,
    });
    await assert.rejects(
      detectDrift(h.deps, stackId),
      (e: unknown) => e instanceof OperationError && e.code === 'not_found',
    );
  });

  it('reads at most `concurrency` live states at once', async () => {
    const type = new ObservedType();
    const h = await Harness.create({ plugins: [type.plugin] });
    const many = Array.from(
      { length: 30 },
      (_, i) => `  r${i}: {type: ${OBSERVED}, properties: {name: r${i}}}`,
    );
    await h.create('wide', `heat_template_version: 2018-08-31\nresources:\n${many.join('\n')}\n`);
    await h.settle();
    const stackId = (await findStack(h.deps, 'p', 'wide')).id;
    const summary = await detectDrift(h.deps, stackId, { concurrency: 4 });
    assert.equal(summary.counts.IN_SYNC, 30);
    assert.equal(type.maxInFlight, 4);
    type.maxInFlight = 0;
    await detectDrift(h.deps, stackId, { concurrency: 1 });
    assert.equal(type.maxInFlight, 1);
  });

  it('a stack never checked has no results', async () => {
    const { h, stackId } = await created();
    const stored = await storedDrift(h.deps, stackId);
    assert.deepEqual(stored.resources, []);
    assert.equal(stored.summary.detectedAt, null);
  });
});
