import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertNeutronError, type NetworkClient, networkClient } from './network-helpers.js';

describe('sandbox Neutron: discovery, networks and subnets', () => {
  let c: NetworkClient;
  before(async () => {
    c = await networkClient();
  });
  after(() => c.app.close());

  it('answers version discovery publicly', async () => {
    const root = await c.app.inject({ method: 'GET', url: '/network', headers: { host: 'cloud:1' } });
    assert.equal(root.statusCode, 200);
    assert.equal(root.json().versions[0].id, 'v2.0');
    assert.equal(root.json().versions[0].links[0].href, 'http://cloud:1/network/v2.0/');
    const v2 = await c.app.inject({ method: 'GET', url: '/network/v2.0' });
    assert.equal(v2.statusCode, 200);
    assert.ok(v2.json().resources.some((r: { collection: string }) => r.collection === 'networks'));
    const denied = await c.app.inject({ method: 'GET', url: '/network/v2.0/networks' });
    assertNeutronError({ status: denied.statusCode, body: denied.json() }, 401, 'Unauthorized');
  });

  it('seeds the external network public with its subnet, visible to every project', async () => {
    for (const token of [c.token, c.adminToken]) {
      const r = await c.call('GET', '/networks?name=public', undefined, token);
      assert.equal(r.status, 200);
      assert.equal(r.body.networks.length, 1);
      const net = r.body.networks[0];
      assert.equal(net['router:external'], true);
      assert.equal(net.subnets.length, 1);
      const subnet = (await c.call('GET', `/subnets/${net.subnets[0]}`, undefined, token)).body.subnet;
      assert.equal(subnet.name, 'public-subnet');
      assert.equal(subnet.cidr, '172.24.4.0/24');
      assert.equal(subnet.gateway_ip, '172.24.4.1');
    }
  });

  it('creates, shows, filters, updates and deletes a network in the wire format', async () => {
    const net = await c.create('networks', { name: 'n1' });
    assert.equal(net.status, 'ACTIVE');
    assert.equal(net.admin_state_up, true);
    assert.equal(net.shared, false);
    assert.equal(net['router:external'], false);
    assert.equal(net.project_id, c.projectId);
    assert.equal(net.tenant_id, c.projectId);
    assert.equal(net.revision_number, 0);
    assert.match(net.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(net.subnets, []);
    const other = await c.create('networks', { name: 'n2', admin_state_up: false, description: 'mark-1' });

    const byName = await c.call('GET', '/networks?name=n1');
    assert.deepEqual(
      byName.body.networks.map((n: { id: string }) => n.id),
      [net.id],
    );
    const anyOf = await c.call('GET', '/networks?name=n1&name=n2&fields=id&fields=name');
    assert.deepEqual(anyOf.body.networks, [
      { id: net.id, name: 'n1' },
      { id: other.id, name: 'n2' },
    ]);
    // Filtered in SQL, an empty value too (left to the generic filter).
    const marked = await c.call('GET', '/networks?description=mark-1&name=n2');
    assert.deepEqual(
      marked.body.networks.map((n: { id: string }) => n.id),
      [other.id],
    );
    assert.equal((await c.call('GET', '/networks?description=mark-1&name=n1')).body.networks.length, 0);
    const undescribed = await c.call('GET', '/networks?description=&name=n1&name=n2');
    assert.deepEqual(
      undescribed.body.networks.map((n: { id: string }) => n.id),
      [net.id],
    );
    const down = await c.call('GET', '/networks?admin_state_up=False');
    assert.deepEqual(
      down.body.networks.map((n: { id: string }) => n.id),
      [other.id],
    );
    const page = await c.call('GET', '/networks?limit=1');
    assert.equal(page.body.networks.length, 1);
    assert.equal(page.body.networks_links[0].rel, 'next');
    const marker = page.body.networks[0].id;
    const rest = await c.call('GET', `/networks?marker=${marker}`);
    assert.ok(!rest.body.networks.some((n: { id: string }) => n.id === marker));

    const updated = await c.call('PUT', `/networks/${net.id}`, { network: { name: 'renamed', mtu: 1400 } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.network.name, 'renamed');
    assert.equal(updated.body.network.mtu, 1400);
    assert.equal(updated.body.network.revision_number, 1);

    assert.equal((await c.call('DELETE', `/networks/${net.id}`)).status, 204);
    assert.equal((await c.call('DELETE', `/networks/${other.id}`)).status, 204);
    assertNeutronError(await c.call('GET', `/networks/${net.id}`), 404, 'NetworkNotFound');
    assertNeutronError(await c.call('DELETE', `/networks/${net.id}`), 404, 'NetworkNotFound');
  });

  it('keeps a project’s network from another project', async () => {
    const r = await c.call('POST', '/networks', { network: { name: 'admins' } }, c.adminToken);
    assert.equal(r.status, 201);
    const id = r.body.network.id;
    assert.equal((await c.call('GET', '/networks?name=admins')).body.networks.length, 0);
    assertNeutronError(await c.call('GET', `/networks/${id}`), 404, 'NetworkNotFound');
    assertNeutronError(await c.call('DELETE', `/networks/${id}`), 404, 'NetworkNotFound');
    assert.equal((await c.call('DELETE', `/networks/${id}`, undefined, c.adminToken)).status, 204);
  });

  it('creates subnets with the default gateway and pools, and validates them', async () => {
    const net = await c.create('networks', { name: 'sub-net' });
    const subnet = await c.create('subnets', { network_id: net.id, cidr: '10.0.0.0/24', name: 's1' });
    assert.equal(subnet.gateway_ip, '10.0.0.1');
    assert.deepEqual(subnet.allocation_pools, [{ start: '10.0.0.2', end: '10.0.0.254' }]);
    assert.equal(subnet.ip_version, 4);
    assert.equal(subnet.enable_dhcp, true);
    assert.deepEqual(subnet.dns_nameservers, []);
    const shown = (await c.call('GET', `/networks/${net.id}`)).body.network;
    assert.deepEqual(shown.subnets, [subnet.id]);

    const middle = await c.create('subnets', {
      network_id: net.id,
      cidr: '10.1.0.0/24',
      gateway_ip: '10.1.0.100',
      dns_nameservers: ['8.8.8.8'],
      host_routes: [{ destination: '192.168.0.0/16', nexthop: '10.1.0.254' }],
    });
    assert.deepEqual(middle.allocation_pools, [
      { start: '10.1.0.1', end: '10.1.0.99' },
      { start: '10.1.0.101', end: '10.1.0.254' },
    ]);
    assert.deepEqual(middle.dns_nameservers, ['8.8.8.8']);
    const noGateway = await c.create('subnets', {
      network_id: net.id,
      cidr: '10.2.0.0/28',
      gateway_ip: null,
      allocation_pools: [{ start: '10.2.0.5', end: '10.2.0.6' }],
    });
    assert.equal(noGateway.gateway_ip, null);
    assert.deepEqual(noGateway.allocation_pools, [{ start: '10.2.0.5', end: '10.2.0.6' }]);

    const filtered = await c.call('GET', `/subnets?network_id=${net.id}&cidr=10.1.0.0/24`);
    assert.deepEqual(
      filtered.body.subnets.map((s: { id: string }) => s.id),
      [middle.id],
    );

    const bad = (body: Record<string, unknown>) =>
      c.call('POST', '/subnets', { subnet: { network_id: net.id, ...body } });
    assertNeutronError(await bad({ cidr: '10.9.0.0/33' }), 400, 'InvalidInput');
    assertNeutronError(await bad({ cidr: 'nonsense' }), 400, 'InvalidInput');
    assertNeutronError(await bad({ cidr: '10.9.0.1/24' }), 400, 'InvalidInput');
    assertNeutronError(await bad({ cidr: '10.0.0.128/25' }), 400, 'InvalidInput');
    assertNeutronError(
      await bad({ cidr: '10.9.0.0/24', allocation_pools: [{ start: '10.9.1.2', end: '10.9.1.9' }] }),
      400,
      'OutOfBoundsAllocationPool',
    );
    assertNeutronError(
      await bad({
        cidr: '10.9.0.0/24',
        allocation_pools: [
          { start: '10.9.0.2', end: '10.9.0.9' },
          { start: '10.9.0.5', end: '10.9.0.20' },
        ],
      }),
      400,
      'OverlappingAllocationPools',
    );
    assertNeutronError(await bad({ cidr: '10.9.0.0/24', gateway_ip: '10.8.0.1' }), 400, 'InvalidInput');
    const missingNet = await c.call('POST', '/subnets', {
      subnet: { network_id: 'nope', cidr: '10.9.0.0/24' },
    });
    assertNeutronError(missingNet, 404, 'NetworkNotFound');

    const renamed = await c.call('PUT', `/subnets/${subnet.id}`, {
      subnet: { name: 'again', enable_dhcp: false },
    });
    assert.equal(renamed.body.subnet.name, 'again');
    assert.equal(renamed.body.subnet.enable_dhcp, false);
    assert.equal((await c.call('DELETE', `/subnets/${middle.id}`)).status, 204);
    // Deleting the network takes its subnets with it.
    assert.equal((await c.call('DELETE', `/networks/${net.id}`)).status, 204);
    assertNeutronError(await c.call('GET', `/subnets/${subnet.id}`), 404, 'SubnetNotFound');
  });

  it('updates a subnet as Neutron does: no gateway (null), no pools ([]), the gateway kept out of the pools', async () => {
    const net = await c.create('networks', { name: 'upd-net' });
    const subnet = await c.create('subnets', { network_id: net.id, cidr: '10.5.0.0/24' });
    const put = (body: Record<string, unknown>) => c.call('PUT', `/subnets/${subnet.id}`, { subnet: body });
    // A new gateway inside the kept pools conflicts with them.
    assertNeutronError(await put({ gateway_ip: '10.5.0.9' }), 409, 'GatewayConflictWithAllocationPools');
    const detached = (await put({ gateway_ip: null })).body.subnet;
    assert.equal(detached.gateway_ip, null);
    assert.deepEqual(detached.allocation_pools, [{ start: '10.5.0.2', end: '10.5.0.254' }]);
    const poolless = (await put({ allocation_pools: [] })).body.subnet;
    assert.deepEqual(poolless.allocation_pools, []);
    assert.equal((await put({ gateway_ip: '10.5.0.9' })).body.subnet.gateway_ip, '10.5.0.9');
    assertNeutronError(await put({ allocation_pools: null }), 400, 'InvalidInput');
  });

  it('refuses a network past the quota with OverQuota', async () => {
    const q = await networkClient({ noise: { quotas: { network: 1, subnet: 0 } } });
    try {
      const net = await q.create('networks', { name: 'only' });
      assertNeutronError(await q.call('POST', '/networks', { network: { name: 'two' } }), 409, 'OverQuota');
      assertNeutronError(
        await q.call('POST', '/subnets', { subnet: { network_id: net.id, cidr: '10.0.0.0/24' } }),
        409,
        'OverQuota',
      );
    } finally {
      await q.app.close();
    }
  });
});
