import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StackOwner } from '../../src/engine/core/deps.js';
import { createStack } from '../../src/engine/operations/create.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import type { Cloud } from '../../src/openstack/index.js';
import type { PluginContext, ResourcePlugin } from '../../src/resources/contract.js';
import type { StackCredentials } from '../../src/store/contract.js';
import { emptyEnvironment } from '../../src/template/environment/index.js';
import { P } from '../../src/template/properties/index.js';
import { Harness } from './harness.js';

const TYPE = 'Test::AsOwner';

/** A type whose create, update and delete each open the cloud, as the OpenStack types do. */
function ownerUser(): ResourcePlugin {
  return {
    type: TYPE,
    description: 'test: opens ctx.openstack() in each action',
    properties: { v: P.string({ updateAllowed: true }) },
    attributes: {},
    async create(ctx: PluginContext) {
      ctx.openstack();
      return { physicalId: `made-${ctx.resourceName}` };
    },
    async update(ctx: PluginContext) {
      ctx.openstack();
      return {};
    },
    async delete(ctx: PluginContext) {
      ctx.openstack();
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

const CHILD = `heat_template_version: 2018-08-31
parameters: {v: {type: string}}
resources:
  inner: {type: ${TYPE}, properties: {v: {get_param: v}}}
`;
const parent = (v: string) => `heat_template_version: 2018-08-31
resources:
  outer: {type: ${TYPE}, properties: {v: ${v}}}
  nested: {type: child.yaml, properties: {v: ${v}}}
`;

const TRUST: StackCredentials = { kind: 'trust', sealedTrustId: 'v1.sealed.id', trustorId: 'alice' };

async function rig(release?: (owner: StackOwner) => Promise<void>) {
  const owners: StackOwner[] = [];
  const released: StackOwner[] = [];
  const h = await Harness.create({
    plugins: [ownerUser()],
    openstack: (owner) => (owners.push(owner), {} as Cloud),
    releaseCredentials: async (owner) => {
      released.push(owner);
      await release?.(owner);
    },
  });
  const create = (name: string, credentials: Parameters<typeof createStack>[2]['credentials']) =>
    createStack(h.deps, h.engine.cache, {
      name,
      projectId: 'p',
      template: {
        url: 't.yaml',
        text: parent('one'),
        files: { 'child.yaml': CHILD },
        environment: emptyEnvironment(),
      },
      ...(credentials ? { credentials } : {}),
    });
  return { h, owners, released, create };
}

describe('stacks act as their owner', () => {
  it('every cloud call of a stack and its nested stack, create, update and delete, uses the root’s credentials; the trust is released once, at the delete', async () => {
    const { h, owners, released, create } = await rig();
    await create('s', TRUST);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const root = await h.stack('s');
    assert.deepEqual(root.credentials, TRUST);
    const [child] = await h.deps.store.tx((tx) => tx.stacks.children(root.id));
    assert.deepEqual(child!.credentials, TRUST, 'the nested stack carries its root’s credentials');
    await h.update('s', parent('two'), { files: { 'child.yaml': CHILD } });
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(released, [], 'nothing released before the delete');
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    // create, update and delete of outer and inner: six calls, all as the trust.
    assert.ok(owners.length >= 6, `${owners.length} cloud opens`);
    for (const owner of owners) assert.deepEqual(owner, { projectId: 'p', credentials: TRUST });
    assert.deepEqual(released, [{ projectId: 'p', credentials: TRUST }]);
  });

  it('a stack made without credentials acts with the deployment’s login and releases nothing', async () => {
    const { h, owners, released, create } = await rig();
    await create('d', undefined);
    await h.settle();
    await h.delete('d');
    await h.settle();
    assert.ok(owners.length > 0);
    for (const owner of owners) assert.deepEqual(owner.credentials, { kind: 'deployment' });
    assert.deepEqual(released, []);
  });

  it('a release that keeps failing is tried again, then given up: the delete is complete all along', async () => {
    let failures = 0;
    const { h, released, create } = await rig(async () => {
      failures++;
      throw new Error('Keystone is down');
    });
    await create('f', TRUST);
    await h.settle();
    await h.delete('f');
    await h.settle();
    assert.equal(await h.status('f'), 'DELETE_COMPLETE');
    assert.equal(failures, 4);
    assert.equal(released.length, 4);
    assert.equal(await h.deps.store.nextWorkTime(), undefined, 'no unit is left');
  });

  it('credentials made by a source are made once the template is valid, and discarded when the create is refused', async () => {
    const { h, create } = await rig();
    const made: string[] = [];
    const discarded: StackCredentials[] = [];
    const source = {
      async obtain(): Promise<StackCredentials> {
        made.push('trust');
        return TRUST;
      },
      async discard(credentials: StackCredentials) {
        discarded.push(credentials);
      },
    };
    await create('taken', source);
    assert.deepEqual(made, ['trust']);
    await assert.rejects(
      create('taken', source),
      (e: unknown) => e instanceof OperationError && e.code === 'conflict',
    );
    assert.deepEqual(made, ['trust', 'trust']);
    assert.deepEqual(discarded, [TRUST], 'the refused create’s trust is deleted');
    // An invalid template makes no credentials at all.
    await assert.rejects(
      createStack(h.deps, h.engine.cache, {
        name: 'bad',
        projectId: 'p',
        template: {
          url: 't.yaml',
          text: 'heat_template_version: 2018-08-31\nresources: {r: {type: No::Such}}\n',
          files: {},
          environment: emptyEnvironment(),
        },
        credentials: source,
      }),
    );
    assert.deepEqual(made, ['trust', 'trust']);
    // A source that cannot make them fails the create with its error, and nothing is stored.
    await assert.rejects(
      create('refused', {
        obtain: async () => {
          throw new Error('Keystone refused the trust');
        },
        discard: async () => {},
      }),
      /Keystone refused the trust/,
    );
    await assert.rejects(findStack(h.deps, 'p', 'refused'));
  });
});
