import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adoptStack } from '../../src/engine/operations/adopt.js';
import { createStack } from '../../src/engine/operations/create.js';
import { deleteStack } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { OperationError } from '../../src/engine/core/errors.js';
import { emptyEnvironment } from '../../src/template/environment/index.js';
import type { Json } from '../../src/util/json.js';
import { type DriftRig, driftRig } from './drift-support.js';

// An adopted or external id must be the adopter's own: project `p` (the sandbox's demo user) may
// not take over what project `admin` made, whether a stack of admin's manages it (the store says
// so) or admin made it in the cloud directly (the cloud, asked with p's credentials, says so).

const NET = 'OS::Neutron::Net';

function adoptDocument(id: string) {
  return {
    template: { heat_template_version: '2018-08-31', resources: { net: { type: NET } } },
    resources: { net: { resource_id: id, type: NET } },
  } as unknown as Json;
}

describe('engine: adopted and external ids belong to the adopter', () => {
  let rig: DriftRig;
  before(async () => {
    rig = await driftRig();
    rig.h.deps.settings.enableStackAdopt = true;
  });
  after(() => rig?.close());

  const adopt = (name: string, projectId: string, id: string) =>
    adoptStack(rig.h.deps, rig.h.engine.cache, {
      name,
      projectId,
      document: adoptDocument(id),
      environment: emptyEnvironment(),
    });
  const networkExists = async (id: string) => {
    const { body } = await rig.admin.request<{ networks: { id: string }[] }>('network', 'GET', '/networks');
    return body.networks.some((n) => n.id === id);
  };
  /** A network admin makes in the cloud directly, outside any stack. */
  const adminNetwork = async (name: string) =>
    (
      await rig.admin.request<{ network: { id: string } }>('network', 'POST', '/networks', {
        network: { name },
      })
    ).body.network;
  const row = async (stack: string, project: string) => {
    const found = await findStack(rig.h.deps, project, stack);
    const [r] = await rig.h.deps.store.tx((tx) => tx.resources.listActive(found.id));
    return { stack: found, row: r! };
  };
  const deleteAndSettle = async (stack: string, project: string) => {
    await deleteStack(rig.h.deps, (await findStack(rig.h.deps, project, stack)).id);
    await rig.h.settle();
  };

  it("refuses up front an id that another project's stack manages; nothing is stored", async () => {
    await rig.create(
      'theirs',
      `heat_template_version: 2018-08-31\nresources:\n  net:\n    type: ${NET}\n`,
      'admin',
    );
    const id = (await rig.ids('theirs', 'admin')).get('net')!;
    await assert.rejects(adopt('steal', 'p', id), (err: unknown) => {
      assert.ok(err instanceof OperationError);
      assert.match(
        err.message,
        /^Invalid adopt data: "resources.net.resource_id" \(\S+\) cannot be adopted by this project$/,
      );
      assert.doesNotMatch(err.message, /theirs/, "another project's stack is not named");
      return true;
    });
    await assert.rejects(findStack(rig.h.deps, 'p', 'steal'));
    // The same project is told which of its stacks has it.
    await assert.rejects(
      adopt('twice', 'admin', id),
      /is a resource of stack "theirs": abandon that stack first/,
    );
  });

  it("fails the resource, records no id and deletes nothing, for an object only another project's credentials read", async () => {
    const network = await adminNetwork('admins-own');
    await adopt('grab', 'p', network.id);
    await rig.h.settle();
    const { stack, row: net } = await row('grab', 'p');
    assert.equal(`${stack.action}_${stack.status}`, 'ADOPT_FAILED');
    assert.equal(`${net.action}_${net.status}`, 'ADOPT_FAILED');
    assert.match(net.reason, /can not be found with this stack's credentials/);
    assert.equal(net.physicalId, null, 'the foreign id never became the row’s');
    await deleteAndSettle('grab', 'p');
    assert.ok(await networkExists(network.id), "the other project's network is untouched");

    // Its owner may adopt it: the check reads it with admin's own credentials.
    await adopt('mine', 'admin', network.id);
    await rig.h.settle();
    const mine = await row('mine', 'admin');
    assert.equal(`${mine.stack.action}_${mine.stack.status}`, 'ADOPT_COMPLETE', mine.row.reason);
    assert.equal(mine.row.physicalId, network.id);
  });

  it("fails an external_id naming another project's object, and its delete leaves the object", async () => {
    const network = await adminNetwork('admins-external');
    await createStack(rig.h.deps, rig.h.engine.cache, {
      name: 'ext',
      projectId: 'p',
      template: rig.h.input(
        `heat_template_version: 2018-08-31\nresources:\n  net:\n    type: ${NET}\n    external_id: ${network.id}\n`,
      ),
      disableRollback: true,
    });
    await rig.h.settle();
    const { stack, row: net } = await row('ext', 'p');
    assert.equal(`${stack.action}_${stack.status}`, 'CREATE_FAILED');
    assert.match(net.reason, /can not be found/);
    await deleteAndSettle('ext', 'p');
    assert.ok(await networkExists(network.id));
  });
});
