import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../../src/openstack/index.js';
import { ResourceInError } from '../../../src/resources/contract.js';
import { novaServerPlugin } from '../../../src/resources/openstack/nova/server.js';
import type { Value } from '../../../src/template/functions/types.js';
import { TemplateError } from '../../../src/template/errors.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeClock, FakeResource, rejection } from '../helpers.js';

const IMAGE = 'cirros-0.6.2-x86_64-disk';
type Json = Record<string, unknown>;

// OS::Nova::Server against the sandbox cloud over HTTP; the sandbox runs on the test's fake clock,
// so a server is BUILD until the plugin's polls have moved the clock past its boot delay.
describe('OS::Nova::Server on the sandbox cloud', () => {
  let app: FastifyInstance;
  let sandbox: ReturnType<typeof createSandbox>;
  let cloud: Cloud;
  const clock = new FakeClock(Date.now());
  let networkId: string;

  before(async () => {
    sandbox = createSandbox({ now: clock.now });
    app = sandbox.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    cloud = openCloud(loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }));
    const net = await cloud.request<{ network: { id: string } }>('network', 'POST', '/networks', {
      network: { name: 'private' },
    });
    networkId = net.body.network.id;
    await cloud.request('network', 'POST', '/subnets', {
      subnet: { network_id: networkId, cidr: '10.0.0.0/24', ip_version: 4, name: 'private-subnet' },
    });
  });
  after(async () => {
    await cloud?.close();
    await app?.close();
  });

  const resource = (key: string, name = 'server') => {
    const r = new FakeResource(novaServerPlugin, { name, stackName: 'st', key, clock });
    r.cloud = cloud;
    return r;
  };
  const server = async (id: string) =>
    (await cloud.request<{ server: Json }>('compute', 'GET', `/servers/${id}`)).body.server;
  const serversNamed = async (name: string) =>
    (
      await cloud.request<{ servers: Json[] }>('compute', 'GET', '/servers', undefined, {
        query: { name: `^${name}$` },
      })
    ).body.servers;
  const admin = (path: string, payload: object = {}) =>
    app.inject({ method: 'POST', url: `/admin/${path}`, payload });
  const base = { image: IMAGE, flavor: 'm1.tiny', networks: [{ network: 'private' }] };

  it('boots (polled until ACTIVE), finds its own server on a retried create, updates in place, deletes', async () => {
    const web = resource('key-web');
    const props = {
      ...base,
      name: 'web',
      metadata: { role: 'web', n: 1 },
      user_data: 'hello',
      user_data_format: 'RAW',
    };
    const run = await web.create(props);
    assert.ok(run.polls >= 1, 'the create waited for the build');
    const id = web.physicalId!;
    const live = await server(id);
    assert.equal(live.status, 'ACTIVE');
    assert.deepEqual(live.metadata, { role: 'web', n: '1', hearth_key: 'key-web' });
    const record = sandbox.state.get<{ id: string; userData: string }>('server', id)!;
    assert.equal(record.userData, Buffer.from('hello').toString('base64'), 'user_data arrives base64');

    // The same create run again (after a crash) finds the server instead of booting a second.
    const again = resource('key-web');
    await again.create(props);
    assert.equal(again.physicalId, id);
    assert.equal((await serversNamed('web')).length, 1);
    // Another attempt (a retry after a failure) has another key: it boots its own.
    const other = resource('key-web/retry-1');
    await other.startCreate(props);
    assert.notEqual(other.physicalId, id);
    assert.equal((await serversNamed('web')).length, 2);
    await other.delete();

    const reality = await novaServerPlugin.getReality(web.ctx());
    assert.equal(reality.state, 'present');
    const seen = reality.state === 'present' ? reality.properties : {};
    assert.equal(seen.name, 'web');
    assert.equal(seen.flavor, 'm1.tiny', 'the template gave a name: the name');
    assert.equal(seen.image, IMAGE);
    assert.deepEqual(seen.metadata, { role: 'web', n: 1 }, 'the template’s metadata, without hearth_key');
    assert.deepEqual(seen.networks, web.storedProperties!.networks);

    const outcome = await web.update({ ...props, name: 'web2', metadata: { role: 'db' }, admin_pass: 'pw' });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    const updated = await server(id);
    assert.equal(updated.name, 'web2');
    assert.deepEqual(updated.metadata, { role: 'db', hearth_key: 'key-web' });
    const after = await novaServerPlugin.getReality(web.ctx());
    assert.deepEqual(after.state === 'present' && after.properties.metadata, { role: 'db' });

    // Drift: metadata changed out of band shows as it is.
    await cloud.request('compute', 'PUT', `/servers/${id}/metadata`, { metadata: { x: 'y' } });
    const drifted = await novaServerPlugin.getReality(web.ctx());
    assert.deepEqual(drifted.state === 'present' && drifted.properties.metadata, { x: 'y' });

    await web.delete();
    assert.deepEqual(await novaServerPlugin.getReality(web.ctx()), { state: 'gone' });
    assert.equal((await serversNamed('web2')).length, 0);
    await web.delete(); // already gone: done
  });

  it('replaces for a new flavor, image or user_data (unless IGNORE), not for metadata or networks', () => {
    const r = resource('key-replace');
    const previous = r.props(base);
    const replace = (changes: Record<string, Value>, changed: string[]) =>
      novaServerPlugin.needsReplace!(r.props({ ...base, ...changes }), previous, changed);
    assert.equal(replace({ flavor: 'm1.small' }, ['flavor']), true);
    assert.equal(replace({ image: 'fedora-39' }, ['image']), true);
    assert.equal(replace({ networks: [] }, ['networks']), false, 'interfaces are detached and attached');
    assert.equal(replace({ user_data: 'x' }, ['user_data']), true);
    assert.equal(replace({ user_data: 'x', user_data_update_policy: 'IGNORE' }, ['user_data']), false);
    assert.equal(replace({ metadata: { a: 'b' } }, ['metadata']), false);
  });

  it('names the server after stack and resource, reduced to 53 characters as Heat does', async () => {
    const r = resource('key-long', 'a-resource-name-that-is-long-enough-to-pass-the-limit');
    await r.create({ ...base });
    const name = String((await server(r.physicalId!)).name);
    assert.equal(name.length, 53);
    assert.match(name, /^st-.*-[a-z2-7]{12}$/);
    await r.delete();
  });

  it('reads first_address, networks and addresses from the server’s ports', async () => {
    const r = resource('key-addr');
    await r.create({ ...base, networks: [{ network: 'private', fixed_ip: '10.0.0.42' }] });
    assert.equal(await r.attribute('first_address'), '10.0.0.42');
    assert.deepEqual(await r.attribute('networks'), { private: ['10.0.0.42'], [networkId]: ['10.0.0.42'] });
    const addresses = (await r.attribute('addresses')) as Record<string, Json[]>;
    const [first] = addresses.private!;
    assert.equal(first!.addr, '10.0.0.42');
    assert.equal(first!.version, 4);
    assert.equal(first!['OS-EXT-IPS:type'], 'fixed');
    assert.match(String(first!['OS-EXT-IPS-MAC:mac_addr']), /^fa:16:3e(:[0-9a-f]{2}){3}$/);
    const ports = await cloud.request<{ ports: { id: string }[] }>('network', 'GET', '/ports', undefined, {
      query: { device_id: r.physicalId! },
    });
    assert.equal(first!.port, ports.body.ports[0]!.id);
    assert.equal((first!.subnets as Json[])[0]!.cidr, '10.0.0.0/24');
    assert.equal((first!.network as Json).id, networkId);
    assert.deepEqual(addresses[networkId], addresses.private);
    assert.equal(await r.attribute('name'), (await server(r.physicalId!)).name);
    assert.equal(((await r.attribute('show')) as Json).id, r.physicalId);
    await r.delete();
    assert.equal(await r.attribute('first_address'), '');
  });

  it('a boot that fails is ResourceInError with the server’s fault', async () => {
    sandbox.ctx.setNoise({ bootFailureRate: 1 });
    try {
      const r = resource('key-fail');
      const error = await rejection(() => r.create({ ...base }));
      assert.ok(error instanceof ResourceInError, String(error));
      assert.match(
        error.message,
        /^Went to status ERROR due to "Message: No valid host was found.*Code: 500"$/,
      );
      await r.delete(); // what the failed attempt made goes before a retry
      assert.deepEqual(await novaServerPlugin.getReality(r.ctx()), { state: 'gone' });
    } finally {
      sandbox.ctx.setNoise({ bootFailureRate: 0 });
    }
  });

  it('a server set to ERROR out of band fails the stack check; deleted out of band it is gone', async () => {
    const r = resource('key-oob');
    await r.create({ ...base });
    await novaServerPlugin.check!(r.ctx());
    await admin(`server/${r.physicalId}/error`, { message: 'host on fire' });
    const error = await rejection(() => novaServerPlugin.check!(r.ctx()));
    assert.match(error.message, /expected \['ACTIVE'\], got 'ERROR'/);
    await admin(`server/${r.physicalId}/delete`);
    assert.deepEqual(await novaServerPlugin.getReality(r.ctx()), { state: 'gone' });
    await rejection(() => novaServerPlugin.check!(r.ctx()));
    await r.delete();
  });

  it('a server that vanishes while building is ResourceInError', async () => {
    const r = resource('key-vanish');
    await r.startCreate({ ...base });
    await admin(`server/${r.physicalId}/delete`);
    const error = await rejection(() => r.poll('create'));
    assert.ok(error instanceof ResourceInError);
    assert.match(error.message, /disappeared while it was being built/);
  });

  it('suspends and resumes through server actions, polled to SUSPENDED and ACTIVE', async () => {
    const r = resource('key-suspend');
    await r.create({ ...base });
    const started = await novaServerPlugin.suspend!(r.ctx());
    assert.deepEqual(await novaServerPlugin.checkSuspendComplete!(r.ctx(), started.progress!), {
      done: true,
    });
    assert.equal((await server(r.physicalId!)).status, 'SUSPENDED');
    const resumed = await novaServerPlugin.resume!(r.ctx());
    assert.deepEqual(await novaServerPlugin.checkResumeComplete!(r.ctx(), resumed.progress!), { done: true });
    assert.equal((await server(r.physicalId!)).status, 'ACTIVE');
    await r.delete();
  });

  it('attaches block_device_mapping_v2 volumes (in-use while the server lives)', async () => {
    const made = await cloud.request<{ volume: { id: string } }>('block-storage', 'POST', '/volumes', {
      volume: { size: 1, name: 'data' },
    });
    const volumeId = made.body.volume.id;
    const volume = async () =>
      (await cloud.request<{ volume: Json }>('block-storage', 'GET', `/volumes/${volumeId}`)).body.volume;
    clock.advance(1000);
    assert.equal((await volume()).status, 'available');
    const r = resource('key-bdm');
    await r.create({
      ...base,
      block_device_mapping_v2: [{ volume_id: volumeId, boot_index: -1, device_name: 'vdb' }],
    });
    assert.equal((await volume()).status, 'in-use');
    const attached = (await server(r.physicalId!))['os-extended-volumes:volumes_attached'] as Json[];
    assert.deepEqual(
      attached.map((a) => a.id),
      [volumeId],
    );
    await r.delete();
    assert.equal((await volume()).status, 'available');
  });

  it('a server left in ERROR by its delete is deleted again, then the delete fails', async () => {
    const r = resource('key-stuck');
    await r.create({ ...base });
    // A compute host that takes the delete but never acts on it: the server goes to ERROR.
    let deletes = 0;
    r.cloud = {
      ...cloud,
      request: (async (service: string, method: string, path: string, ...rest: unknown[]) => {
        if (method === 'DELETE') {
          deletes++;
          return { status: 204, body: undefined, headers: {}, attempts: 1 };
        }
        return (cloud.request as (...args: unknown[]) => unknown)(service, method, path, ...rest);
      }) as Cloud['request'],
    };
    await admin(`server/${r.physicalId}/error`, { message: 'delete stuck' });
    const error = await rejection(() => r.delete());
    assert.ok(error instanceof ResourceInError);
    assert.match(error.message, /delete failed: \(500\) delete stuck/);
    assert.equal(deletes, 4, 'the first delete and three more');
    r.cloud = cloud;
    await r.delete();
    assert.deepEqual(await novaServerPlugin.getReality(r.ctx()), { state: 'gone' });
  });

  it('deletes what a create made when the create never recorded the id (found by its key)', async () => {
    const r = resource('key-lost');
    await r.startCreate({ ...base });
    const id = r.physicalId!;
    r.physicalId = null;
    await r.delete();
    await assert.rejects(server(id), /404|not be found/i);
  });

  it('checks the template as Heat does: devices, bootable source, network entries', () => {
    const r = resource('key-validate');
    const validate = (props: Record<string, Value>) =>
      novaServerPlugin.validate!(r.props(props), ['resources', 'vm', 'properties']);
    const refused = (props: Record<string, Value>, message: RegExp) =>
      assert.throws(
        () => validate(props),
        (e: unknown) => e instanceof TemplateError && message.test(e.message),
      );
    validate(base);
    refused({ flavor: 'm1.tiny' }, /Neither image nor bootable volume is specified for instance vm/);
    validate({ flavor: 'm1.tiny', block_device_mapping_v2: [{ volume_id: 'v' }] });
    refused(
      { ...base, block_device_mapping_v2: [{ volume_id: 'v' }] },
      /Multiple bootable sources for instance vm/,
    );
    refused(
      {
        ...base,
        block_device_mapping: [{ device_name: 'vdb', volume_id: 'v' }],
        block_device_mapping_v2: [{ swap_size: 1 }],
      },
      /at the same time: block_device_mapping, block_device_mapping_v2/,
    );
    refused({ ...base, networks: [{ fixed_ip: '10.0.0.1' }] }, /One of the properties "network", "port"/);
    refused({ ...base, networks: [{ allocate_network: 'auto', network: 'x' }] }, /allocate_network/);
  });

  it('passes reservation_id on as Heat does (Nova’s return_reservation_id): the server is found by its key', async () => {
    const r = resource('key-reserved', 'reserved');
    await r.create({ ...base, reservation_id: 'true' });
    assert.match(String((await server(r.physicalId!)).name), /^st-reserved-/);
    const bad = resource('key-uuid', 'uuid');
    const error = await rejection(() =>
      bad.create({ ...base, reservation_id: '5e3a8f46-0a53-4ec1-9bb8-1fd1e0a1d1a0' }),
    );
    assert.match(
      error.message,
      /^Invalid input for field\/attribute return_reservation_id\. .* \(creating the server; compute: POST /,
    );
  });

  it('tags the server at create, replaces its tags on update, sees them as a set, and their drift', async () => {
    const r = resource('key-tags', 'tagged');
    await r.create({ ...base, tags: ['a', 'b'] });
    const id = r.physicalId!;
    const tags = async () =>
      (
        await cloud.request<{ tags: string[] }>('compute', 'GET', `/servers/${id}/tags`, undefined, {
          microversion: '2.26',
        })
      ).body.tags;
    assert.deepEqual(await tags(), ['a', 'b']);
    assert.deepEqual(await r.attribute('tags'), ['a', 'b']);
    await r.update({ ...base, tags: ['c'] });
    assert.equal(r.physicalId, id);
    assert.deepEqual(await tags(), ['c']);
    await cloud.request('compute', 'PUT', `/servers/${id}/tags`, { tags: ['c'] }, { microversion: '2.26' });
    const same = await novaServerPlugin.getReality(r.ctx());
    assert.deepEqual(same.state === 'present' && same.properties.tags, ['c']);
    await cloud.request(
      'compute',
      'PUT',
      `/servers/${id}/tags`,
      { tags: ['x', 'c'] },
      { microversion: '2.26' },
    );
    const drifted = await novaServerPlugin.getReality(r.ctx());
    assert.deepEqual(drifted.state === 'present' && drifted.properties.tags, ['x', 'c']);
    await r.delete();
  });
});
