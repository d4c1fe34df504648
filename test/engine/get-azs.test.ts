import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stackOutputs } from '../../src/engine/context/outputs.js';
import { resourceMetadata } from '../../src/engine/context/metadata.js';
import type { Cloud } from '../../src/openstack/index.js';
import { type DriftRig, driftRig } from './drift-support.js';
import { Harness } from './harness.js';

// Fn::GetAZs in a property (through Fn::Select), the metadata and the outputs.
const ZONES = JSON.stringify({
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: {
    first: {
      Type: 'OS::Heat::Value',
      Metadata: { zones: { 'Fn::GetAZs': '' } },
      Properties: { value: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] } },
    },
  },
  Outputs: {
    zones: { Value: { 'Fn::GetAZs': { Ref: 'AWS::Region' } } },
    first: { Value: { 'Fn::GetAtt': ['first', 'value'] } },
  },
});

const PLAIN = JSON.stringify({
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: { plain: { Type: 'OS::Heat::Value', Properties: { value: 'x' } } },
  Outputs: { value: { Value: { 'Fn::GetAtt': ['plain', 'value'] } } },
});

for (const legacy of [false, true]) {
  describe(`Fn::GetAZs at run time, ${legacy ? 'legacy' : 'convergence'} engine, on the sandbox cloud`, () => {
    let rig: DriftRig;
    before(async () => {
      rig = await driftRig({ legacy });
      await rig.create('azs', ZONES);
    });
    after(() => rig?.close());

    it("answers Nova's available zones in properties, metadata and outputs", async () => {
      const { h } = rig;
      const [row] = await h.rows('azs');
      assert.equal(row!.properties?.value, 'nova');
      assert.deepEqual(await h.outputs('azs'), { zones: ['nova'], first: 'nova' });
      const stack = await h.stack('azs');
      const definition = await h.engine.cache.lookup(
        stack.templateId!,
        { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
        (id) => h.deps.store.tx((tx) => tx.templates.get(id)),
      );
      assert.deepEqual(await resourceMetadata(h.deps, definition!, stack, 'first'), { zones: ['nova'] });
    });
  });
}

describe('Fn::GetAZs and the cloud', () => {
  /** A cloud that counts zone listings and answers them, or fails them when `failing`. */
  function zoneCloud(state: { calls: number; failing: boolean }): Cloud {
    const cloud = {
      async request(service: string, method: string, path: string) {
        assert.equal(`${service} ${method} ${path}`, 'compute GET /os-availability-zone');
        state.calls++;
        if (state.failing) throw new Error('Nova is down');
        const zone = (zoneName: string, available: boolean) => ({ zoneName, zoneState: { available } });
        return {
          status: 200,
          body: { availabilityZoneInfo: [zone('az1', true), zone('gone', false), zone('az2', true)] },
        };
      },
      inRegion: () => cloud,
    };
    return cloud as unknown as Cloud;
  }

  it('lists zones only for a template that uses Fn::GetAZs, and a listing that fails fails the resource clearly', async () => {
    const state = { calls: 0, failing: false };
    const h = await Harness.create({ openstack: () => zoneCloud(state) });
    await h.create('plain', PLAIN);
    await h.settle();
    assert.equal(await h.status('plain'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.outputs('plain'), { value: 'x' });
    assert.equal(state.calls, 0);

    await h.create('azs', ZONES);
    await h.settle();
    assert.equal(await h.status('azs'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.outputs('azs'), { zones: ['az1', 'az2'], first: 'az1' });
    assert.ok(state.calls > 0);

    state.failing = true;
    await h.create('broken', ZONES);
    await h.settle();
    assert.equal(await h.status('broken'), 'CREATE_FAILED');
    const [row] = await h.rows('broken');
    assert.match(row!.reason, /Fn::GetAZs: the availability zones cannot be listed: Nova is down/);
    const zones = (await stackOutputs(h.deps, h.engine.cache, await h.stack('broken'))).find(
      (o) => o.output_key === 'zones',
    );
    assert.match(zones!.output_error!, /Nova is down/);
    assert.equal(zones!.output_value, undefined);
  });
});
