import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { neutronRouterPlugin } from '../../../src/resources/openstack/neutron/router.js';
import { TemplateError } from '../../../src/template/errors.js';
import type { AddressInfo } from 'node:net';
import { loadCloudSettings, openCloud } from '../../../src/openstack/index.js';
import type { Value } from '../../../src/template/functions/types.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeResource, rejection } from '../helpers.js';
import { type Answer, type L3Cloud, startL3Cloud } from './l3-support.js';

// OS::Neutron::Router against the sandbox cloud, through the OpenStack client, over HTTP.
describe('OS::Neutron::Router on the sandbox cloud', () => {
  let c: L3Cloud;
  before(async () => {
    c = await startL3Cloud();
  });
  after(() => c?.close());

  const router = async (id: string) => (await c.neutron('GET', `/routers/${id}`)).router;
  const resource = (key: string) => c.resource(neutronRouterPlugin, 'router', key);

  it('creates with a gateway named by network name, finds its own router again, updates in place, observes and deletes', async () => {
    const r = resource('key-router');
    const run = await r.create({ name: 'edge', external_gateway_info: { network: 'public' }, tags: ['a'] });
    assert.ok(run.polls >= 1, 'the create waits for the router to be ACTIVE');
    const id = r.physicalId!;
    const live = await router(id);
    assert.equal(live.name, 'edge');
    assert.equal(live.external_gateway_info.network_id, c.publicId);
    assert.equal(live.external_gateway_info.enable_snat, true);
    assert.deepEqual(live.tags, ['a']);
    assert.equal(await r.attribute('status'), 'ACTIVE');
    assert.equal(await r.attribute('name'), 'edge');
    assert.equal(await r.attribute('admin_state_up'), true);
    assert.equal(
      ((await r.attribute('external_gateway_info')) as { network_id: string }).network_id,
      c.publicId,
    );
    assert.equal(await r.attribute('tenant_id'), live.project_id);
    assert.equal(((await r.attribute('show')) as { id: string }).id, id);

    // The same create run again (after a crash) finds the router instead of making a second.
    const again = resource('key-router');
    await again.create({ name: 'edge', external_gateway_info: { network: 'public' } });
    assert.equal(again.physicalId, id);
    assert.equal((await c.neutron('GET', '/routers?name=edge')).routers.length, 1);

    // The gateway cleared, set again without SNAT and the router renamed, all in place.
    const cleared = await r.update({ name: 'edge', tags: ['a'] });
    assert.ok(!('replace' in cleared), JSON.stringify(cleared));
    assert.equal((await router(id)).external_gateway_info, null);
    const snat = await r.update({
      name: 'edge2',
      admin_state_up: false,
      external_gateway_info: { network: c.publicId, enable_snat: false },
      tags: ['b'],
    });
    assert.ok(!('replace' in snat), JSON.stringify(snat));
    const changed = await router(id);
    assert.equal(changed.name, 'edge2');
    assert.equal(changed.admin_state_up, false);
    assert.equal(changed.external_gateway_info.enable_snat, false);
    assert.deepEqual(changed.tags, ['b']);
    assert.equal(r.physicalId, id);

    const reality = await neutronRouterPlugin.getReality(r.ctx());
    assert.deepEqual(reality, {
      state: 'present',
      properties: {
        name: 'edge2',
        admin_state_up: false,
        external_gateway_info: { network: c.publicId, enable_snat: false },
        distributed: false,
        ha: false,
        tags: ['b'],
      },
    });

    await r.delete();
    assert.deepEqual(await neutronRouterPlugin.getReality(r.ctx()), { state: 'gone' });
    // A delete of what is already gone is done.
    await r.delete();
  });

  it('sends fixed IPs of the gateway with their subnet by name', async () => {
    const r = resource('key-fixed');
    await r.create({
      external_gateway_info: {
        network: 'public',
        external_fixed_ips: [{ subnet: 'public-subnet', ip_address: '172.24.4.200' }],
      },
    });
    const gw = (await router(r.physicalId!)).external_gateway_info;
    assert.equal(gw.external_fixed_ips[0].ip_address, '172.24.4.200');
    assert.match(String((await router(r.physicalId!)).name), /^st-router-[a-z2-7]{12}$/);
    await r.delete();
  });

  it('replaces for distributed or ha (not updatable), and refuses both together', async () => {
    const r = resource('key-flavour');
    await r.create({ name: 'plain' });
    assert.deepEqual(await r.update({ name: 'plain', ha: true }), { replace: 'schema', properties: ['ha'] });
    const err = await rejection(async () =>
      neutronRouterPlugin.validate!({ distributed: true, ha: true }, ['resources', 'router', 'properties']),
    );
    assert.ok(err instanceof TemplateError);
    assert.match(err.message, /distributed, ha/);
    await r.delete();
  });

  it('schedules the router on the L3 agents named (l3_agent_ids, or the older l3_agent_id), as an admin', async () => {
    const { port } = c.app.server.address() as AddressInfo;
    const env = { ...sandboxEnv(`http://127.0.0.1:${port}`), OS_USERNAME: 'admin', OS_PASSWORD: 'admin' };
    const admin = openCloud(loadCloudSettings({ env: { ...env, OS_PROJECT_NAME: 'admin' }, searchPath: [] }));
    try {
      const agents = (await admin.request<Answer>('network', 'GET', '/agents')).body.agents as Answer[];
      const [first, second] = agents.filter((a) => a.agent_type === 'L3 agent').map((a) => a.id as string);
      const hosting = async (id: string) =>
        (
          (await admin.request<Answer>('network', 'GET', `/routers/${id}/l3-agents`)).body.agents as Answer[]
        ).map((a) => a.id);
      const r = new FakeResource(neutronRouterPlugin, { name: 'router', stackName: 'st', key: 'key-agents' });
      r.cloud = admin;
      await r.create({ name: 'scheduled', l3_agent_id: first!, availability_zone_hints: ['nova'] });
      assert.deepEqual(await hosting(r.physicalId!), [first]);
      const shown = await admin.request<Answer>('network', 'GET', `/routers/${r.physicalId}`);
      assert.deepEqual(shown.body.router.availability_zone_hints, ['nova']);
      const moved = await r.update({
        name: 'scheduled',
        l3_agent_ids: [second!],
        availability_zone_hints: ['nova'],
      });
      assert.ok(!('replace' in moved));
      assert.deepEqual(await hosting(r.physicalId!), [second]);
      const live = await neutronRouterPlugin.getReality(r.ctx());
      assert.ok(live.state === 'present');
      assert.deepEqual(live.properties.l3_agent_ids, [second]);
      await r.update({ name: 'scheduled', availability_zone_hints: ['nova'] });
      assert.deepEqual(await hosting(r.physicalId!), []);
      await r.delete();
    } finally {
      await admin.close();
    }
    // Heat's checks: one name of the two, none with distributed, one agent unless HA.
    const path = ['resources', 'router', 'properties'];
    const refused = (props: Record<string, Value>, message: RegExp) =>
      assert.throws(() => neutronRouterPlugin.validate!(props, path), message);
    refused({ l3_agent_id: 'a', l3_agent_ids: ['b'] }, /l3_agent_id, l3_agent_ids/);
    refused({ distributed: true, l3_agent_ids: ['a'] }, /distributed, l3_agent_id\/l3_agent_ids/);
    refused({ l3_agent_ids: ['a', 'b'] }, /Non HA routers can only have one L3 agent/);
    neutronRouterPlugin.validate!({ ha: true, l3_agent_ids: ['a', 'b'] }, path);
    // A non-admin is refused by Neutron's policy.
    const err = await rejection(() => resource('key-agents-demo').create({ l3_agent_ids: ['x'] }));
    assert.match(String(err), /disallowed by policy/);
  });

  it('fails with Neutron’s reason when the gateway network is not external', async () => {
    const net = await c.privateNet('not-external', '10.9.0.0/24');
    const r = resource('key-bad-gw');
    const err = await rejection(() => r.create({ external_gateway_info: { network: net.network } }));
    assert.match(err.message, /not a valid external network/);
  });

  it('waits while the router has an interface, then deletes it', async () => {
    const r = resource('key-busy');
    await r.create({ name: 'busy' });
    const net = await c.privateNet('busy-net', '10.8.0.0/24');
    await c.neutron('PUT', `/routers/${r.physicalId}/add_router_interface`, { subnet_id: net.subnet });
    const started = await neutronRouterPlugin.delete(r.ctx());
    assert.ok(started.progress, 'a router with an interface is not deleted yet');
    assert.ok(await router(r.physicalId!));
    await c.neutron('PUT', `/routers/${r.physicalId}/remove_router_interface`, { subnet_id: net.subnet });
    const done = await neutronRouterPlugin.checkDeleteComplete!(r.ctx(), started.progress!);
    assert.equal(done.done, true);
    assert.deepEqual(await neutronRouterPlugin.getReality(r.ctx()), { state: 'gone' });
  });
});
