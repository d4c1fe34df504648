import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networkClient } from './network-helpers.js';

// The sandbox's Nova asks its Neutron for a server's ports, as the real services do.
describe('sandbox: Nova servers on Neutron networks', () => {
  it('a server on a network gets a port and an address, and a volume through Nova; deleting it frees them', async () => {
    let now = 1_000_000;
    const n = await networkClient({ now: () => now });
    try {
      const net = await n.create('networks', { name: 'private' });
      const subnet = await n.create('subnets', { network_id: net.id, cidr: '10.0.0.0/24', ip_version: 4 });
      const compute = async (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) => {
        const r = await n.app.inject({
          method,
          url: `/compute/v2.1${path}`,
          headers: { 'x-auth-token': n.token },
          ...(payload !== undefined ? { payload: payload as object } : {}),
        });
        return { status: r.statusCode, body: r.body ? r.json() : undefined };
      };
      const created = await compute('POST', '/servers', {
        server: {
          name: 'web',
          flavorRef: '1',
          imageRef: 'cirros-0.6.2-x86_64-disk',
          networks: [{ uuid: net.id }],
        },
      });
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const id = created.body.server.id;
      now += 60_000;
      const shown = await compute('GET', `/servers/${id}`);
      assert.equal(shown.body.server.status, 'ACTIVE');
      const [address] = shown.body.server.addresses.private;
      assert.equal(address.version, 4);
      assert.match(address.addr, /^10\.0\.0\.\d+$/);
      const ports = await n.call('GET', `/ports?device_id=${id}`);
      assert.equal(ports.body.ports.length, 1);
      assert.equal(ports.body.ports[0].device_owner, 'compute:nova');
      assert.equal(ports.body.ports[0].fixed_ips[0].subnet_id, subnet.id);
      assert.equal(ports.body.ports[0].fixed_ips[0].ip_address, address.addr);

      // A volume attached through Nova is in-use in Cinder, and free again once the server is gone.
      const volume = await n.app.inject({
        method: 'POST',
        url: `/volume/v3/${n.projectId}/volumes`,
        headers: { 'x-auth-token': n.token },
        payload: { volume: { size: 1, name: 'data' } },
      });
      assert.equal(volume.statusCode, 202, volume.body);
      const volumeId = volume.json().volume.id;
      now += 60_000;
      const attached = await compute('POST', `/servers/${id}/os-volume_attachments`, {
        volumeAttachment: { volumeId },
      });
      assert.equal(attached.status, 200, JSON.stringify(attached.body));
      assert.equal(attached.body.volumeAttachment.device, '/dev/vdb');
      const cinder = async () =>
        (
          await n.app.inject({
            method: 'GET',
            url: `/volume/v3/${n.projectId}/volumes/${volumeId}`,
            headers: { 'x-auth-token': n.token },
          })
        ).json().volume;
      assert.equal((await cinder()).status, 'in-use');
      assert.equal((await cinder()).attachments[0].server_id, id);

      assert.equal((await compute('DELETE', `/servers/${id}`)).status, 204);
      assert.equal((await cinder()).status, 'available');
      const after = await n.call('GET', `/ports?device_id=${id}`);
      assert.deepEqual(after.body.ports, []);
    } finally {
      await n.app.close();
    }
  });

  it('resolves the security groups a server names (by name or id) and shows its ports’ groups by name', async () => {
    let now = 1_000_000;
    const n = await networkClient({ now: () => now });
    try {
      const net = await n.create('networks', { name: 'private' });
      await n.create('subnets', { network_id: net.id, cidr: '10.0.0.0/24' });
      const web = await n.create('security-groups', { name: 'web' });
      const compute = async (method: 'GET' | 'POST', path: string, payload?: unknown) => {
        const r = await n.app.inject({
          method,
          url: `/compute/v2.1${path}`,
          headers: { 'x-auth-token': n.token },
          ...(payload !== undefined ? { payload: payload as object } : {}),
        });
        return { status: r.statusCode, body: r.body ? r.json() : undefined };
      };
      const boot = (groups?: unknown[], networks: unknown[] = [{ uuid: net.id }]) =>
        compute('POST', '/servers', {
          server: {
            name: 'web',
            flavorRef: '1',
            imageRef: 'cirros-0.6.2-x86_64-disk',
            networks,
            ...(groups ? { security_groups: groups } : {}),
          },
        });
      // Named by id: the create's answer repeats the request, the server shows the name.
      const created = await boot([{ name: web.id }]);
      assert.equal(created.status, 202, JSON.stringify(created.body));
      assert.deepEqual(created.body.server.security_groups, [{ name: web.id }]);
      const id = created.body.server.id;
      now += 60_000;
      const shown = await compute('GET', `/servers/${id}`);
      assert.deepEqual(shown.body.server.security_groups, [{ name: 'web' }]);
      const [port] = (await n.call('GET', `/ports?device_id=${id}`)).body.ports;
      assert.deepEqual(port.security_groups, [web.id]);
      const listed = await compute('GET', '/servers/detail');
      assert.deepEqual(listed.body.servers[0].security_groups, [{ name: 'web' }]);

      // None named: the project's default group, by name.
      const plain = await boot();
      now += 60_000;
      const plainShown = await compute('GET', `/servers/${plain.body.server.id}`);
      assert.deepEqual(plainShown.body.server.security_groups, [{ name: 'default' }]);

      // A port without groups gives a server without any: Nova then shows no key.
      const bare = await n.create('ports', { network_id: net.id, port_security_enabled: false });
      const onBare = await boot(undefined, [{ port: bare.id }]);
      now += 60_000;
      const bareShown = await compute('GET', `/servers/${onBare.body.server.id}`);
      assert.equal(bareShown.body.server.security_groups, undefined);

      const missing = await boot([{ name: 'nope' }]);
      assert.equal(missing.status, 400);
      assert.match(JSON.stringify(missing.body), /Security group nope not found/);
      await n.create('security-groups', { name: 'twin' });
      await n.create('security-groups', { name: 'twin' });
      const twins = await boot([{ name: 'twin' }]);
      assert.equal(twins.status, 409);
      assert.match(JSON.stringify(twins.body), /Multiple security groups found matching 'twin'/);
    } finally {
      await n.app.close();
    }
  });

  // As Nova's SecurityGroupCannotBeApplied: never ACTIVE with no address (a Heat server's
  // first_address would silently be ''); a retry once the subnet exists gets one.
  it('a server on a network with no subnet yet fails its build; once the subnet exists one boots with an address', async () => {
    let now = 1_000_000;
    const n = await networkClient({ now: () => now });
    try {
      const net = await n.create('networks', { name: 'late' });
      const boot = async (name: string, network: string) => {
        const r = await n.app.inject({
          method: 'POST',
          url: '/compute/v2.1/servers',
          headers: { 'x-auth-token': n.token },
          payload: {
            server: {
              name,
              flavorRef: '1',
              imageRef: 'cirros-0.6.2-x86_64-disk',
              networks: [{ uuid: network }],
            },
          },
        });
        assert.equal(r.statusCode, 202, r.body);
        return r.json().server.id as string;
      };
      const show = async (id: string) =>
        (
          await n.app.inject({
            method: 'GET',
            url: `/compute/v2.1/servers/${id}`,
            headers: { 'x-auth-token': n.token },
          })
        ).json().server;
      const early = await boot('early', net.id);
      assert.deepEqual((await n.call('GET', `/ports?device_id=${early}`)).body.ports, []);
      now += 60_000;
      const failed = await show(early);
      assert.equal(failed.status, 'ERROR');
      assert.match(failed.fault.message, /subnet associated in order to apply security groups/);
      assert.deepEqual(failed.addresses, {});

      // Without port security Nova makes the port, addressless, as Neutron allows.
      const open = await n.create('networks', { name: 'open', port_security_enabled: false });
      const bare = await boot('bare', open.id);
      now += 60_000;
      assert.equal((await show(bare)).status, 'ACTIVE');

      // Nor is an interface made there on an ACTIVE server (Nova's 400).
      const attach = await n.app.inject({
        method: 'POST',
        url: `/compute/v2.1/servers/${bare}/os-interface`,
        headers: { 'x-auth-token': n.token },
        payload: { interfaceAttachment: { net_id: net.id } },
      });
      assert.equal(attach.statusCode, 400, attach.body);
      assert.match(attach.body, /subnet associated in order to apply security groups/);

      await n.create('subnets', { network_id: net.id, cidr: '10.0.0.0/24', ip_version: 4 });
      const later = await boot('later', net.id);
      now += 60_000;
      const active = await show(later);
      assert.equal(active.status, 'ACTIVE');
      assert.match(active.addresses.late[0].addr, /^10\.0\.0\.\d+$/);
    } finally {
      await n.app.close();
    }
  });
});
