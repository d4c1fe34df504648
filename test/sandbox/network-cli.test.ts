import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { OPENSTACK_CLIENT_SKIP, openstackClient } from './support.js';

// The real openstack client against the sandbox's Neutron: what it sends and parses is the wire
// format, not our reading of it.

describe('the real openstack client against the sandbox network', { skip: OPENSTACK_CLIENT_SKIP }, () => {
  let app: FastifyInstance;
  let state: ReturnType<typeof createSandbox>['state'];
  let openstack: (...args: string[]) => Promise<string>;

  before(async () => {
    ({ app, state } = createSandbox());
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    openstack = openstackClient(address);
  });
  after(() => app.close());

  const json = async <T>(...args: string[]) => JSON.parse(await openstack(...args, '-f', 'json')) as T;

  it('creates a network, subnet, port, router with an interface, and a floating IP; lists; deletes', async () => {
    const net = await json<{ id: string; name: string; status: string }>('network', 'create', 'cli-net');
    assert.equal(net.name, 'cli-net');
    assert.equal(net.status, 'ACTIVE');
    const subnet = await json<{ id: string; cidr: string; gateway_ip: string }>(
      'subnet',
      'create',
      'cli-sub',
      '--network',
      'cli-net',
      '--subnet-range',
      '10.20.0.0/24',
    );
    assert.equal(subnet.cidr, '10.20.0.0/24');
    assert.equal(subnet.gateway_ip, '10.20.0.1');
    const port = await json<{ id: string; fixed_ips: unknown }>(
      'port',
      'create',
      'cli-port',
      '--network',
      'cli-net',
    );
    assert.match(JSON.stringify(port.fixed_ips), /10\.20\.0\.2/);
    const router = await json<{ id: string; external_gateway_info: unknown }>(
      'router',
      'create',
      'cli-router',
      '--external-gateway',
      'public',
    );
    assert.match(JSON.stringify(router.external_gateway_info), /172\.24\.4\./);
    await openstack('router', 'add', 'subnet', 'cli-router', 'cli-sub');
    const fip = await json<{ id: string; floating_ip_address: string }>(
      'floating',
      'ip',
      'create',
      'public',
      '--port',
      'cli-port',
    );
    assert.match(fip.floating_ip_address, /^172\.24\.4\.\d+$/);

    const networks = await json<{ Name: string }[]>('network', 'list');
    assert.deepEqual(networks.map((n) => n.Name).sort(), ['cli-net', 'public']);
    const ports = await json<{ ID: string; 'Fixed IP Addresses': unknown }[]>(
      'port',
      'list',
      '--network',
      'cli-net',
    );
    assert.equal(ports.length, 2);
    assert.ok(ports.some((p) => p.ID === port.id));

    await openstack('floating', 'ip', 'delete', fip.id);
    await openstack('router', 'remove', 'subnet', 'cli-router', 'cli-sub');
    await openstack('router', 'delete', router.id);
    await openstack('port', 'delete', port.id);
    await openstack('network', 'delete', net.id);
    // The deletes went through: only the seeded network is left, and no port, router or address.
    assert.deepEqual(
      state.list<{ id: string; name: string }>('network').map((n) => n.name),
      ['public'],
    );
    for (const kind of ['port', 'router', 'floatingip']) assert.equal(state.count(kind), 0, kind);
  });
});
