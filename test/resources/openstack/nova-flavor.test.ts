import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ResourceFailure } from '../../../src/resources/contract.js';
import { novaFlavorPlugin } from '../../../src/resources/openstack/nova/flavor.js';
import { rejection } from '../helpers.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

describe('OS::Nova::Flavor on the sandbox cloud', () => {
  let rig: TypeRig;
  let demoProject: string;
  before(async () => {
    rig = await typeRig();
    demoProject = (await rig.demo.session.login()).projectId;
  });
  after(async () => rig?.close());

  const flavor = async (id: string) =>
    (
      await rig.admin.request<{ flavor: Record<string, unknown> }>(
        'compute',
        'GET',
        `/flavors/${id}`,
        undefined,
        {
          microversion: '2.61',
        },
      )
    ).body.flavor;
  const access = async (id: string) =>
    (
      await rig.admin.request<{ flavor_access: { tenant_id: string }[] }>(
        'compute',
        'GET',
        `/flavors/${id}/os-flavor-access`,
      )
    ).body.flavor_access.map((a) => a.tenant_id);

  it('creates a public flavor with extra specs; a create run again finds it; specs update in place', async () => {
    const f = rig.resource(novaFlavorPlugin, 'fl-public', rig.admin);
    await f.create({ ram: 1024, vcpus: 2, disk: 10, extra_specs: { 'hw:cpu_policy': 'dedicated', x: 'y' } });
    const id = f.physicalId!;
    const shown = await flavor(id);
    assert.match(String(shown.name), /^st-res-[a-z2-7]{12}$/);
    assert.equal(shown.ram, 1024);
    assert.deepEqual(shown.extra_specs, { 'hw:cpu_policy': 'dedicated', x: 'y' });
    assert.equal(await f.attribute('is_public'), true);

    const again = rig.resource(novaFlavorPlugin, 'fl-public', rig.admin);
    await again.create({ ram: 1024, vcpus: 2, disk: 10 });
    assert.equal(again.physicalId, id);

    const outcome = await f.update({ ram: 1024, vcpus: 2, disk: 10, extra_specs: { x: 'z', n: 1 } });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    assert.deepEqual((await flavor(id)).extra_specs, { x: 'z', n: '1' });
    assert.deepEqual(await f.attribute('extra_specs'), { x: 'z', n: '1' });
    const live = await novaFlavorPlugin.getReality(f.ctx());
    assert.equal(live.state, 'present');
    assert.deepEqual(live.state === 'present' && live.properties, {
      name: shown.name,
      ram: 1024,
      vcpus: 2,
      disk: 10,
      swap: 0,
      ephemeral: 0,
      rxtx_factor: 1,
      is_public: true,
      extra_specs: { x: 'z', n: '1' },
    });

    assert.deepEqual(await f.update({ ram: 2048, vcpus: 2, disk: 10, extra_specs: { x: 'z', n: 1 } }), {
      replace: 'schema',
      properties: ['ram'],
    });
    await f.delete();
    assert.deepEqual(await novaFlavorPlugin.getReality(f.ctx()), { state: 'gone' });
    await f.delete();
  });

  it('shares a private flavor with the stack project, or the tenants named, updated in place', async () => {
    const mine = rig.resource(novaFlavorPlugin, 'fl-private', rig.admin);
    await mine.create({ name: 'private-1', flavorid: 'priv-1', ram: 512, vcpus: 1, is_public: false });
    assert.equal(mine.physicalId, 'priv-1');
    const adminProject = (await rig.admin.session.login()).projectId;
    assert.deepEqual(await access('priv-1'), [adminProject]);
    assert.equal(await mine.attribute('is_public'), false);

    const shared = rig.resource(novaFlavorPlugin, 'fl-shared', rig.admin);
    await shared.create({ name: 'private-2', ram: 512, vcpus: 1, is_public: false, tenants: [demoProject] });
    assert.deepEqual(await access(shared.physicalId!), [demoProject]);
    // demo sees the flavor shared with its project.
    await rig.demo.request('compute', 'GET', `/flavors/${shared.physicalId}`);
    await shared.update({ name: 'private-2', ram: 512, vcpus: 1, is_public: false, tenants: [adminProject] });
    assert.deepEqual(await access(shared.physicalId!), [adminProject]);
    const live = await novaFlavorPlugin.getReality(shared.ctx());
    assert.deepEqual(live.state === 'present' && live.properties.tenants, [adminProject]);
    await assert.rejects(
      rig.demo.request('compute', 'GET', `/flavors/${shared.physicalId}`),
      /404|not found/i,
    );
  });

  it('refuses a flavor id taken by a flavor it did not make, and a user who is not an admin', async () => {
    const taken = rig.resource(novaFlavorPlugin, 'fl-taken', rig.admin);
    const err = await rejection(() => taken.create({ flavorid: '1', ram: 512, vcpus: 1 }));
    assert.ok(err instanceof ResourceFailure);
    assert.match(err.message, /a flavor with id 1 already exists/);
    const demo = rig.resource(novaFlavorPlugin, 'fl-demo');
    await assert.rejects(demo.create({ ram: 512, vcpus: 1 }), /Policy doesn't allow/);
  });
});
