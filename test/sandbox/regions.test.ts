import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCloudSettings, openCloud } from '../../src/openstack/index.js';
import { sandboxClientEnv } from '../../src/sandbox/index.js';
import {
  type ListeningSandbox,
  listeningSandbox,
  OPENSTACK_CLIENT_SKIP,
  openstackClient,
} from './support.js';

/** The sandbox's second region: the same APIs on objects of their own, one Keystone for both. */
describe('sandbox regions: RegionTwo beside RegionOne', () => {
  let sandbox: ListeningSandbox;
  let url: string;
  before(async () => {
    sandbox = await listeningSandbox();
    url = sandbox.env.OS_AUTH_URL!.replace(/\/identity\/v3$/, '');
  });
  after(() => sandbox.app.close());

  const cloudIn = (region?: string) =>
    openCloud(
      loadCloudSettings({
        env: { ...sandboxClientEnv(url), ...(region ? { OS_REGION_NAME: region } : {}) },
        searchPath: [],
      }),
    );
  const names = async (cloud: ReturnType<typeof cloudIn>) =>
    (
      (await cloud.request<{ networks: { name: string }[] }>('network', 'GET', '/networks')).body?.networks ??
      []
    )
      .map((n) => n.name)
      .sort();

  it('lists both regions in the catalog, RegionOne first, and keeps their objects apart', async () => {
    const two = cloudIn('RegionTwo');
    const one = cloudIn('RegionOne');
    const unnamed = cloudIn();
    const { catalog } = await two.session.login();
    const network = catalog.find((s) => s.type === 'network')!;
    assert.deepEqual([...new Set(network.endpoints.map((e) => e.region))], ['RegionOne', 'RegionTwo']);
    assert.match(await two.session.endpoint('network'), /\/regions\/RegionTwo\/network\/v2\.0$/);
    assert.match(await unnamed.session.endpoint('network'), /:\d+\/network\/v2\.0$/);

    await two.request('network', 'POST', '/networks', { network: { name: 'far' } });
    await one.request('network', 'POST', '/networks', { network: { name: 'near' } });
    assert.deepEqual(await names(two), ['far', 'public'], 'each region has its own seeded public network');
    assert.deepEqual(await names(one), ['near', 'public']);
    assert.deepEqual(await names(unnamed), ['near', 'public'], 'no region named: RegionOne');
    const regionTwo = sandbox.state.region('RegionTwo');
    assert.deepEqual(
      regionTwo.list<{ id: string; name: string }>('network').map((n) => n.name),
      ['public', 'far'],
    );
    assert.ok(!sandbox.state.list<{ id: string; name: string }>('network').some((n) => n.name === 'far'));
  });

  it('boots a server in RegionTwo on a RegionTwo network (its Nova reaches its own Neutron)', async () => {
    const two = cloudIn('RegionTwo');
    const net = await two.request<{ network: { id: string } }>('network', 'POST', '/networks', {
      network: { name: 'boot-net' },
    });
    const netId = net.body!.network.id;
    await two.request('network', 'POST', '/subnets', {
      subnet: { network_id: netId, cidr: '10.9.0.0/24', ip_version: 4 },
    });
    const flavors = await two.request<{ flavors: { id: string }[] }>('compute', 'GET', '/flavors');
    const images = await two.request<{ images: { id: string }[] }>('image', 'GET', '/images');
    const made = await two.request<{ server: { id: string } }>('compute', 'POST', '/servers', {
      server: {
        name: 'far-server',
        flavorRef: flavors.body!.flavors[0]!.id,
        imageRef: images.body!.images[0]!.id,
        networks: [{ uuid: netId }],
      },
    });
    const id = made.body!.server.id;
    assert.ok(sandbox.state.region('RegionTwo').get('server', id));
    assert.equal(sandbox.state.get('server', id), undefined, 'not a RegionOne server');
    const one = cloudIn('RegionOne');
    await assert.rejects(one.request('compute', 'GET', `/servers/${id}`), /404|not be found/i);
  });

  it(
    'serves the openstack client in RegionTwo (--os-region-name)',
    { skip: OPENSTACK_CLIENT_SKIP },
    async () => {
      const openstack = openstackClient(url);
      await openstack('--os-region-name', 'RegionTwo', 'network', 'create', 'cli-far', '-f', 'json');
      const two = JSON.parse(
        await openstack('--os-region-name', 'RegionTwo', 'network', 'list', '-f', 'json'),
      );
      const one = JSON.parse(await openstack('network', 'list', '-f', 'json'));
      assert.ok(two.some((n: { Name: string }) => n.Name === 'cli-far'));
      assert.ok(!one.some((n: { Name: string }) => n.Name === 'cli-far'));
    },
  );
});
