import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Cloud } from '../../src/openstack/index.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { Harness } from './harness.js';

const TYPE = 'Test::UsesCloud';

/** A type whose create asks the context for the cloud and records which one it got. */
function cloudUser(seen: string[]): ResourcePlugin {
  return {
    type: TYPE,
    description: 'test: reads ctx.openstack()',
    properties: {},
    attributes: {},
    async create(ctx) {
      seen.push(ctx.openstack().settings.cloud ?? 'unnamed');
      return { physicalId: `made-${ctx.resourceName}` };
    },
    async delete() {
      return {};
    },
    async getReality() {
      return { state: 'gone' };
    },
    async attribute() {
      return null;
    },
  };
}

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  r: {type: ${TYPE}}
`;

describe('ctx.openstack()', () => {
  it('gives a plugin the cloud of its stack’s project', async () => {
    const seen: string[] = [];
    const projects: string[] = [];
    const cloud = { settings: { cloud: 'sandbox' } } as unknown as Cloud;
    const h = await Harness.create({
      plugins: [cloudUser(seen)],
      openstack: ({ projectId }) => (projects.push(projectId), cloud),
    });
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(seen, ['sandbox']);
    // Asked at create (the constraints checked against the cloud) and when the resource runs.
    assert.deepEqual([...new Set(projects)], ['p']);
  });

  it('fails the resource with what to configure when there is no cloud, or a bad one', async () => {
    const none = await Harness.create({ plugins: [cloudUser([])] });
    await none.create('s', TEMPLATE);
    await none.settle();
    assert.equal(await none.status('s'), 'CREATE_FAILED');
    const [row] = await none.rows('s');
    assert.match(row!.reason, /no OpenStack cloud is configured: set openstack_cloud/);

    const bad = await Harness.create({
      plugins: [cloudUser([])],
      openstack: () => {
        throw new Error('clouds.yaml: cloud "nope" not found');
      },
    });
    await bad.create('s', TEMPLATE);
    await bad.settle();
    assert.equal(await bad.status('s'), 'CREATE_FAILED');
    const [badRow] = await bad.rows('s');
    assert.match(badRow!.reason, /the OpenStack cloud cannot be used: clouds.yaml: cloud "nope" not found/);
  });
});
