import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { rowReality } from '../../src/resources/heat/row-reality.js';
import { Harness } from './harness.js';

// PluginContext.metadata: the resource's template metadata, resolved, as a server's create reads
// it for its cfn-init-data; under the convergence engine and the legacy one.

const seer: ResourcePlugin = {
  type: 'Test::MetadataSeer',
  description: 'Keeps the metadata its create saw.',
  properties: {},
  attributes: { seen: { type: 'map' } },
  async create(ctx) {
    return { physicalId: ctx.idempotencyKey, data: { seen: (await ctx.metadata?.()) ?? null } };
  },
  async delete() {
    return {};
  },
  getReality: rowReality,
  async attribute(ctx) {
    return ctx.data.seen ?? null;
  },
};

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  v: {type: OS::Heat::Value, properties: {value: blue}}
  seer:
    type: Test::MetadataSeer
    metadata: {'AWS::CloudFormation::Init': {config: {colour: {get_attr: [v, value]}}}}
  plain: {type: Test::MetadataSeer}
outputs:
  seen: {value: {get_attr: [seer, seen]}}
  plain: {value: {get_attr: [plain, seen]}}
`;

describe('PluginContext.metadata', () => {
  for (const legacy of [false, true]) {
    it(`is the resource’s template metadata resolved (${legacy ? 'legacy' : 'convergence'} engine)`, async () => {
      const h = await Harness.create({ plugins: [seer], legacy });
      await h.create('s', TEMPLATE);
      await h.settle();
      assert.equal(await h.status('s'), 'CREATE_COMPLETE');
      const out = await h.outputs('s');
      assert.deepEqual(out.seen, { 'AWS::CloudFormation::Init': { config: { colour: 'blue' } } });
      assert.deepEqual(out.plain, {});
    });
  }
});
