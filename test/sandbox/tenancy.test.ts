import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { caller } from './keystone-helpers.js';
import type { Answer } from './network-helpers.js';
import { login } from './support.js';

/**
 * Tenancy: bob (a member of project bob) must not see or touch alice's objects, by id or by name,
 * in any API; each attempt fails as the real service answers (mostly 404 "could not be found").
 */

type Session = { token: string; projectId: string };

describe('sandbox tenancy: bob against alice’s objects', () => {
  let app: FastifyInstance;
  let alice: Session;
  let bob: Session;
  const a: Record<string, string> = {};
  const b: Record<string, string> = {};
  const call = () => caller(app);

  /** A call that must succeed; its JSON body. */
  const ok = async (
    who: Session,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
  ): Promise<Answer> => {
    const r = await call()(method, url, who.token, payload);
    assert.ok(r.statusCode < 300, `${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.body ? r.json() : undefined;
  };
  /** A call of bob's that must fail with `status` (and a "could not be found"-like message for 404s). */
  const refused = async (
    status: number,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    payload?: unknown,
  ) => {
    const r = await call()(method, url, bob.token, payload);
    assert.equal(r.statusCode, status, `${method} ${url} ${JSON.stringify(payload) ?? ''}: ${r.body}`);
    if (status === 404) assert.match(r.body, /could not be found|does not exist|not found/i);
  };
  const net = (path: string) => `/network/v2.0${path}`;
  const nova = (path: string) => `/compute/v2.1${path}`;
  const cinder = (who: Session, path: string) => `/volume/v3/${who.projectId}${path}`;

  /** One of each object in the session's project. */
  async function populate(who: Session, ids: Record<string, string>, name: string) {
    ids.network = (await ok(who, 'POST', net('/networks'), { network: { name: `${name}-net` } })).network.id;
    ids.subnet = (
      await ok(who, 'POST', net('/subnets'), {
        subnet: { name: `${name}-subnet`, network_id: ids.network, cidr: '10.0.0.0/24', ip_version: 4 },
      })
    ).subnet.id;
    ids.port = (
      await ok(who, 'POST', net('/ports'), { port: { name: `${name}-port`, network_id: ids.network } })
    ).port.id;
    ids.spare = (
      await ok(who, 'POST', net('/ports'), { port: { name: `${name}-spare`, network_id: ids.network } })
    ).port.id;
    const publicNet = (await ok(who, 'GET', net('/networks?name=public'))).networks[0].id as string;
    ids.router = (
      await ok(who, 'POST', net('/routers'), {
        router: { name: `${name}-router`, external_gateway_info: { network_id: publicNet } },
      })
    ).router.id;
    await ok(who, 'PUT', net(`/routers/${ids.router}/add_router_interface`), { subnet_id: ids.subnet });
    ids.floatingip = (
      await ok(who, 'POST', net('/floatingips'), { floatingip: { floating_network_id: publicNet } })
    ).floatingip.id;
    ids.sg = (
      await ok(who, 'POST', net('/security-groups'), { security_group: { name: `${name}-sg` } })
    ).security_group.id;
    ids.rule = (
      await ok(who, 'POST', net('/security-group-rules'), {
        security_group_rule: {
          security_group_id: ids.sg,
          direction: 'ingress',
          protocol: 'tcp',
          port_range_min: 22,
          port_range_max: 22,
        },
      })
    ).security_group_rule.id;
    ids.server = (
      await ok(who, 'POST', nova('/servers'), {
        server: {
          name: `${name}-server`,
          flavorRef: '1',
          imageRef: 'cirros-0.6.2-x86_64-disk',
          networks: [{ port: ids.port }],
        },
      })
    ).server.id;
    ids.volume = (
      await ok(who, 'POST', cinder(who, '/volumes'), { volume: { name: `${name}-volume`, size: 1 } })
    ).volume.id;
    ids.volume2 = (
      await ok(who, 'POST', cinder(who, '/volumes'), { volume: { name: `${name}-volume2`, size: 1 } })
    ).volume.id;
  }

  before(async () => {
    ({ app } = createSandbox({ users: ['alice', 'bob'], noise: { bootDelayMs: 0 } }));
    await app.ready();
    alice = await login(app, 'alice');
    bob = await login(app, 'bob');
    await populate(alice, a, 'alice');
    await populate(bob, b, 'bob');
  });
  after(() => app.close());

  it('Nova: alice’s server is not found by bob (show, update, delete, actions, metadata, interfaces, volumes)', async () => {
    const server = nova(`/servers/${a.server}`);
    await refused(404, 'GET', server);
    await refused(404, 'PUT', server, { server: { name: 'taken' } });
    for (const action of [
      { 'os-stop': null },
      { reboot: { type: 'SOFT' } },
      { createImage: { name: 'x' } },
    ]) {
      await refused(404, 'POST', `${server}/action`, action);
    }
    await refused(404, 'GET', `${server}/metadata`);
    await refused(404, 'POST', `${server}/metadata`, { metadata: { a: 'b' } });
    await refused(404, 'GET', `${server}/os-interface`);
    await refused(404, 'GET', `${server}/os-volume_attachments`);
    await refused(404, 'POST', `${server}/os-volume_attachments`, {
      volumeAttachment: { volumeId: b.volume },
    });
    await refused(404, 'DELETE', server);
    // Nothing of alice's changed.
    const still = await ok(alice, 'GET', nova(`/servers/${a.server}`));
    assert.equal(still.server.name, 'alice-server');
    assert.deepEqual(await ok(alice, 'GET', nova(`/servers/${a.server}/metadata`)), { metadata: {} });
  });

  it('Nova: bob cannot attach alice’s volume or use alice’s port or network for his server', async () => {
    await refused(404, 'POST', nova(`/servers/${b.server}/os-volume_attachments`), {
      volumeAttachment: { volumeId: a.volume2 },
    });
    const boot = (extra: Record<string, unknown>) => ({
      server: { name: 'stolen', flavorRef: '1', imageRef: 'cirros-0.6.2-x86_64-disk', ...extra },
    });
    for (const extra of [
      { networks: [{ port: a.spare }] },
      { networks: [{ uuid: a.network }] },
      {
        networks: [{ uuid: b.network }],
        block_device_mapping_v2: [
          { uuid: a.volume2, source_type: 'volume', destination_type: 'volume', boot_index: -1 },
        ],
      },
    ]) {
      const r = await call()('POST', nova('/servers'), bob.token, boot(extra));
      assert.ok([400, 404].includes(r.statusCode), `${JSON.stringify(extra)}: ${r.statusCode} ${r.body}`);
    }
    const spare = await ok(alice, 'GET', net(`/ports/${a.spare}`));
    assert.equal(spare.port.device_id, '');
    const volume = await ok(alice, 'GET', cinder(alice, `/volumes/${a.volume2}`));
    assert.equal(volume.volume.status, 'available');
    const mine = await ok(bob, 'GET', nova('/servers/detail'));
    assert.deepEqual(
      mine.servers.map((s: Answer) => s.name),
      ['bob-server'],
    );
  });

  it('Nova: lists and name filters show bob only his own servers', async () => {
    for (const path of [
      '/servers?name=alice-server',
      '/servers/detail?name=alice',
      '/servers?all_tenants=1',
    ]) {
      const r = await ok(bob, 'GET', nova(path));
      assert.ok(
        r.servers.every((s: Answer) => s.id !== a.server),
        `${path}: ${JSON.stringify(r)}`,
      );
    }
  });

  it('Neutron: alice’s objects are not found by bob (show, update, delete)', async () => {
    const objects: [string, string, Record<string, unknown>][] = [
      ['networks', 'network', { name: 'x' }],
      ['subnets', 'subnet', { name: 'x' }],
      ['ports', 'port', { name: 'x' }],
      ['routers', 'router', { name: 'x' }],
      ['floatingips', 'floatingip', { description: 'x' }],
      ['security-groups', 'sg', { name: 'x' }],
      ['security-group-rules', 'rule', {}],
    ];
    for (const [collection, key] of objects) await refused(404, 'GET', net(`/${collection}/${a[key]}`));
    for (const [collection, key, body] of objects.filter(([c]) => c !== 'security-group-rules')) {
      const member = collection === 'security-groups' ? 'security_group' : collection.replace(/s$/, '');
      await refused(404, 'PUT', net(`/${collection}/${a[key]}`), { [member]: body });
    }
    await refused(404, 'PUT', net(`/networks/${a.network}/tags/stolen`));
    for (const [collection, key] of [...objects].reverse())
      await refused(404, 'DELETE', net(`/${collection}/${a[key]}`));
    assert.equal((await ok(alice, 'GET', net(`/networks/${a.network}`))).network.name, 'alice-net');
  });

  it('Neutron: bob cannot build on alice’s network, subnet, port or security group', async () => {
    await refused(404, 'POST', net('/ports'), { port: { network_id: a.network } });
    await refused(404, 'POST', net('/subnets'), {
      subnet: { network_id: a.network, cidr: '10.9.0.0/24', ip_version: 4 },
    });
    await refused(404, 'PUT', net(`/routers/${b.router}/add_router_interface`), { subnet_id: a.subnet });
    await refused(404, 'PUT', net(`/routers/${b.router}/add_router_interface`), { port_id: a.spare });
    await refused(404, 'PUT', net(`/routers/${a.router}/add_router_interface`), { subnet_id: b.subnet });
    await refused(404, 'PUT', net(`/routers/${a.router}/remove_router_interface`), { subnet_id: a.subnet });
    await refused(404, 'PUT', net(`/floatingips/${b.floatingip}`), { floatingip: { port_id: a.spare } });
    const publicNet = (await ok(bob, 'GET', net('/networks?name=public'))).networks[0].id as string;
    await refused(404, 'POST', net('/floatingips'), {
      floatingip: { floating_network_id: publicNet, port_id: a.spare },
    });
    await refused(404, 'POST', net('/ports'), { port: { network_id: b.network, security_groups: [a.sg] } });
    await refused(404, 'POST', net('/security-group-rules'), {
      security_group_rule: { security_group_id: a.sg, direction: 'ingress' },
    });
    await refused(404, 'POST', net('/security-group-rules'), {
      security_group_rule: { security_group_id: b.sg, direction: 'ingress', remote_group_id: a.sg },
    });
  });

  it('Neutron: bob cannot create objects in alice’s project, nor shared or external networks', async () => {
    await refused(403, 'POST', net('/networks'), {
      network: { name: 'planted', project_id: alice.projectId },
    });
    await refused(403, 'POST', net('/networks'), {
      network: { name: 'planted', tenant_id: alice.projectId },
    });
    await refused(403, 'POST', net('/networks'), { network: { name: 'everyone', shared: true } });
    await refused(403, 'POST', net('/networks'), { network: { name: 'outside', 'router:external': true } });
    await refused(403, 'POST', net('/subnets'), {
      subnet: { network_id: b.network, cidr: '10.8.0.0/24', ip_version: 4, project_id: alice.projectId },
    });
    const seen = await ok(alice, 'GET', net('/networks?name=planted'));
    assert.deepEqual(seen.networks, []);
  });

  it('Neutron: lists and name filters show bob only his own and shared objects', async () => {
    const lists: [string, string, string][] = [
      ['networks', 'networks', 'alice-net'],
      ['subnets', 'subnets', 'alice-subnet'],
      ['ports', 'ports', 'alice-port'],
      ['routers', 'routers', 'alice-router'],
      ['security-groups', 'security_groups', 'alice-sg'],
    ];
    for (const [collection, key, name] of lists) {
      assert.deepEqual((await ok(bob, 'GET', net(`/${collection}?name=${name}`)))[key], [], collection);
      const all = (await ok(bob, 'GET', net(`/${collection}`)))[key] as Answer[];
      assert.ok(all.length > 0, collection);
      assert.ok(
        all.every(
          (o) => o.project_id === bob.projectId || o.project_id === '' || o.shared || o['router:external'],
        ),
        collection,
      );
    }
    const fips = (await ok(bob, 'GET', net('/floatingips'))).floatingips as Answer[];
    assert.deepEqual(
      fips.map((f) => f.id),
      [b.floatingip],
    );
    const rules = (await ok(bob, 'GET', net('/security-group-rules'))).security_group_rules as Answer[];
    assert.ok(!rules.some((r) => r.id === a.rule));
    const defaults = (await ok(bob, 'GET', net('/security-groups?name=default'))).security_groups as Answer[];
    assert.deepEqual(
      defaults.map((g) => g.project_id),
      [bob.projectId],
    );
  });

  it('Cinder: alice’s volume is not found by bob (show, update, delete, actions, metadata), nor her project', async () => {
    const volume = cinder(bob, `/volumes/${a.volume}`);
    await refused(404, 'GET', volume);
    await refused(404, 'PUT', volume, { volume: { name: 'taken' } });
    await refused(404, 'POST', `${volume}/action`, { 'os-extend': { new_size: 2 } });
    await refused(404, 'GET', `${volume}/metadata`);
    await refused(404, 'POST', `${volume}/metadata`, { metadata: { a: 'b' } });
    await refused(404, 'POST', cinder(bob, '/volumes'), { volume: { size: 1, source_volid: a.volume } });
    await refused(404, 'DELETE', volume);
    await refused(403, 'GET', cinder(alice, `/volumes/${a.volume}`));
    await refused(403, 'GET', cinder(alice, '/volumes'));
    for (const path of ['/volumes?name=alice-volume', '/volumes/detail?all_tenants=1']) {
      const r = await ok(bob, 'GET', cinder(bob, path));
      assert.ok(
        r.volumes.every((v: Answer) => v.id !== a.volume && v.id !== a.volume2),
        path,
      );
    }
    assert.equal((await ok(alice, 'GET', cinder(alice, `/volumes/${a.volume}`))).volume.name, 'alice-volume');
  });

  it('Glance and key pairs: alice’s private image and key pair are not found by bob', async () => {
    const image = await ok(alice, 'POST', '/image/v2/images', { name: 'alice-image', visibility: 'private' });
    await refused(404, 'GET', `/image/v2/images/${image.id}`);
    await refused(404, 'DELETE', `/image/v2/images/${image.id}`);
    const images = await ok(bob, 'GET', '/image/v2/images?name=alice-image');
    assert.deepEqual(images.images, []);
    await ok(alice, 'POST', nova('/os-keypairs'), { keypair: { name: 'alice-key' } });
    await refused(404, 'GET', nova('/os-keypairs/alice-key'));
    await refused(404, 'DELETE', nova('/os-keypairs/alice-key'));
    const boot = {
      server: { name: 'k', flavorRef: '1', imageRef: image.id, networks: [{ uuid: b.network }] },
    };
    await refused(400, 'POST', nova('/servers'), boot);
    await refused(400, 'POST', nova('/servers'), {
      server: { ...boot.server, imageRef: 'cirros-0.6.2-x86_64-disk', key_name: 'alice-key' },
    });
    assert.equal((await ok(alice, 'GET', nova('/os-keypairs/alice-key'))).keypair.name, 'alice-key');
  });

  it('Glance: only an admin makes an image public, which every project then sees and boots', async () => {
    await refused(403, 'POST', '/image/v2/images', { name: 'bob-public', visibility: 'public' });
    const admin = await login(app, 'admin');
    const image = await ok(admin, 'POST', '/image/v2/images', { name: 'shared-image', visibility: 'public' });
    assert.equal((await ok(bob, 'GET', `/image/v2/images/${image.id}`)).name, 'shared-image');
    const listed = await ok(bob, 'GET', '/image/v2/images?name=shared-image');
    assert.deepEqual(
      listed.images.map((i: Answer) => i.id),
      [image.id],
    );
    // Seen is not owned: bob cannot delete it.
    await refused(404, 'DELETE', `/image/v2/images/${image.id}`);
  });

  it('Nova: a port bob points at alice’s server (device_id) is not one of its interfaces', async () => {
    const port = await ok(bob, 'POST', net('/ports'), {
      port: { network_id: b.network, device_id: a.server, device_owner: 'compute:nova' },
    });
    const server = await ok(alice, 'GET', nova(`/servers/${a.server}`));
    assert.deepEqual(Object.keys(server.server.addresses), ['alice-net']);
    const interfaces = await ok(alice, 'GET', nova(`/servers/${a.server}/os-interface`));
    assert.deepEqual(
      interfaces.interfaceAttachments.map((i: Answer) => i.port_id),
      [a.port],
    );
    await ok(bob, 'GET', net(`/ports/${port.port.id}`));
  });

  it('Nova: an admin attaches a volume of the server’s project (bob still cannot)', async () => {
    const admin = await login(app, 'admin');
    await refused(404, 'POST', nova(`/servers/${a.server}/os-volume_attachments`), {
      volumeAttachment: { volumeId: a.volume2 },
    });
    const r = await call()('POST', nova(`/servers/${a.server}/os-volume_attachments`), admin.token, {
      volumeAttachment: { volumeId: a.volume2 },
    });
    assert.equal(r.statusCode, 200, r.body);
    const volume = await ok(alice, 'GET', cinder(alice, `/volumes/${a.volume2}`));
    assert.equal(volume.volume.attachments[0].server_id, a.server);
  });

  it('Nova os-interface: bob cannot attach to alice’s server, nor alice’s port or network to his; alice can', async () => {
    await refused(404, 'POST', nova(`/servers/${a.server}/os-interface`), {
      interfaceAttachment: { net_id: b.network },
    });
    await refused(404, 'DELETE', nova(`/servers/${a.server}/os-interface/${a.port}`));
    await refused(404, 'POST', nova(`/servers/${b.server}/os-interface`), {
      interfaceAttachment: { port_id: a.spare },
    });
    const byNet = await call()('POST', nova(`/servers/${b.server}/os-interface`), bob.token, {
      interfaceAttachment: { net_id: a.network },
    });
    assert.ok([400, 404].includes(byNet.statusCode), byNet.body);
    // Naming neither, Nova picks the network: one of bob's own.
    const chosen = await ok(bob, 'POST', nova(`/servers/${b.server}/os-interface`), {
      interfaceAttachment: {},
    });
    assert.equal(chosen.interfaceAttachment.net_id, b.network);
    assert.equal((await ok(alice, 'GET', net(`/ports/${a.spare}`))).port.device_id, '');

    const attached = await ok(alice, 'POST', nova(`/servers/${a.server}/os-interface`), {
      interfaceAttachment: { port_id: a.spare },
    });
    assert.equal(attached.interfaceAttachment.port_id, a.spare);
    assert.equal((await ok(alice, 'GET', net(`/ports/${a.spare}`))).port.device_id, a.server);
    const listed = await ok(alice, 'GET', nova(`/servers/${a.server}/os-interface`));
    assert.deepEqual(
      listed.interfaceAttachments.map((i: Answer) => i.port_id),
      [a.port, a.spare],
    );
    const r = await call()('DELETE', nova(`/servers/${a.server}/os-interface/${a.spare}`), alice.token);
    assert.equal(r.statusCode, 202, r.body);
    assert.equal((await ok(alice, 'GET', net(`/ports/${a.spare}`))).port.device_id, '');
    const after = await ok(alice, 'GET', nova(`/servers/${a.server}/os-interface`));
    assert.deepEqual(
      after.interfaceAttachments.map((i: Answer) => i.port_id),
      [a.port],
    );
  });
});
