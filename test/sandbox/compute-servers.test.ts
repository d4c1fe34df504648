import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { boot, computeRig, type ComputeRig, json, NETWORK_ID, show, status, v } from './compute-fakes.js';

describe('sandbox compute: server lifecycle (fake clock)', () => {
  it('is BUILD until bootDelayMs has passed, then ACTIVE with its addresses and states', async () => {
    const rig = await computeRig({ noise: { bootDelayMs: 1000 } });
    try {
      const r = await boot(rig, { name: 'web', networks: [{ uuid: NETWORK_ID }] });
      assert.equal(r.statusCode, 202, r.body);
      const created = r.json().server;
      assert.ok(created.adminPass);
      assert.equal(r.headers.location, `http://localhost:80/compute/v2.1/servers/${created.id}`);
      assert.deepEqual(created.security_groups, [{ name: 'default' }]);
      assert.equal(created['OS-DCF:diskConfig'], 'MANUAL');
      assert.deepEqual(rig.ports.calls, [`bind ${created.id} {"networkId":"${NETWORK_ID}"}`]);

      const building = (await show(rig, created.id)).json().server;
      assert.equal(building.status, 'BUILD');
      assert.equal(building['OS-EXT-STS:vm_state'], 'building');
      assert.equal(building['OS-EXT-STS:task_state'], 'spawning');
      assert.equal(building['OS-EXT-STS:power_state'], 0);
      assert.equal(building.hostId, '');

      rig.clock.now += 999;
      assert.equal(await status(rig, created.id), 'BUILD');
      rig.clock.now += 1;
      const r2 = await show(rig, created.id, { ...rig.demo, ...v(47) });
      assert.equal(r2.headers['openstack-api-version'], 'compute 2.47');
      const active = r2.json().server;
      assert.equal(active.status, 'ACTIVE');
      assert.equal(active['OS-EXT-STS:vm_state'], 'active');
      assert.equal(active['OS-EXT-STS:task_state'], null);
      assert.equal(active['OS-EXT-STS:power_state'], 1);
      assert.equal(active.hostId.length, 56);
      assert.deepEqual(active.addresses.private[0].addr, '10.0.0.10');
      assert.deepEqual(active.flavor, {
        vcpus: 1,
        ram: 512,
        disk: 1,
        ephemeral: 0,
        swap: 0,
        original_name: 'm1.tiny',
        extra_specs: {},
      });
      assert.equal(active.updated, '2025-01-01T00:00:01Z');
      assert.equal(active['OS-SRV-USG:launched_at'], '2025-01-01T00:00:01.000000');
      assert.equal(active['OS-EXT-AZ:availability_zone'], 'nova');
      assert.equal(active.image.id.length, 36);
      assert.equal(active.fault, undefined);
      // Before 2.47 the flavor is a reference.
      const old = (await show(rig, created.id)).json().server;
      assert.equal(old.flavor.id, '1');
    } finally {
      await rig.app.close();
    }
  });

  it('with bootFailureRate 1 goes to ERROR with Nova’s fault, and gives its ports back', async () => {
    const rig = await computeRig({ noise: { bootDelayMs: 100, bootFailureRate: 1 } });
    try {
      const id = (await boot(rig, { name: 'doomed' })).json().server.id;
      assert.equal(rig.ports.bound.size, 1);
      rig.clock.now += 100;
      const server = (await show(rig, id)).json().server;
      assert.equal(server.status, 'ERROR');
      assert.equal(server['OS-EXT-STS:vm_state'], 'error');
      assert.equal(server.fault.code, 500);
      assert.match(server.fault.message, /No valid host was found/);
      assert.equal(server.fault.details, undefined, 'details are for admins');
      assert.deepEqual(server.addresses, {});
      assert.equal(rig.ports.bound.size, 0);
      assert.ok((await show(rig, id, rig.admin)).json().server.fault.details.length > 0);
    } finally {
      await rig.app.close();
    }
  });

  it('an ACTIVE server errs after errorAfterMs, or disappears after disappearAfterMs (ports, volumes released)', async () => {
    const rig = await computeRig({
      noise: {
        bootDelayMs: 10,
        errorAfterRate: 1,
        errorAfterMs: 50,
        disappearRate: 1,
        disappearAfterMs: 200,
      },
    });
    try {
      rig.volumes.volumes.set('vol-1', 'available');
      const id = (
        await boot(rig, {
          name: 'fragile',
          block_device_mapping_v2: [
            { source_type: 'volume', destination_type: 'volume', uuid: 'vol-1', boot_index: 1 },
          ],
        })
      ).json().server.id;
      rig.clock.now += 10;
      assert.equal(await status(rig, id), 'ACTIVE');
      rig.clock.now += 50;
      assert.equal(await status(rig, id), 'ERROR');
      assert.match((await show(rig, id)).json().server.fault.message, /errorAfterRate/);
      rig.clock.now += 150;
      assert.equal((await show(rig, id)).statusCode, 404);
      assert.equal(rig.ports.bound.size, 0);
      assert.equal(rig.volumes.volumes.get('vol-1'), 'available');
      const list = await rig.app.inject({ method: 'GET', url: '/compute/v2.1/servers', headers: rig.demo });
      assert.deepEqual(list.json().servers, []);
      // changes-since still reports it, as DELETED.
      const since = await rig.app.inject({
        method: 'GET',
        url: '/compute/v2.1/servers/detail?changes-since=2025-01-01T00:00:00Z',
        headers: rig.demo,
      });
      assert.equal(since.json().servers[0].status, 'DELETED');
    } finally {
      await rig.app.close();
    }
  });

  it('reboot, stop and start move through REBOOT/SHUTOFF/ACTIVE; a wrong state is 409', async () => {
    const rig = await computeRig({ noise: { bootDelayMs: 100 } });
    const act = (id: string, payload: unknown) =>
      rig.app.inject({
        method: 'POST',
        url: `/compute/v2.1/servers/${id}/action`,
        headers: { ...rig.demo, ...json },
        payload: payload as object,
      });
    try {
      const id = (await boot(rig, { name: 'svc' })).json().server.id;
      const early = await act(id, { 'os-stop': null });
      assert.equal(early.statusCode, 409);
      assert.match(
        early.json().conflictingRequest.message,
        /Cannot 'stop' instance .* while it is in vm_state building/,
      );
      rig.clock.now += 100;
      assert.equal((await act(id, { reboot: { type: 'SOFT' } })).statusCode, 202);
      assert.equal(await status(rig, id), 'REBOOT');
      assert.equal((await show(rig, id)).json().server['OS-EXT-STS:task_state'], 'rebooting');
      rig.clock.now += 100;
      assert.equal(await status(rig, id), 'ACTIVE');
      assert.equal((await act(id, { reboot: { type: 'HARD' } })).statusCode, 202);
      assert.equal(await status(rig, id), 'HARD_REBOOT');
      rig.clock.now += 100;
      assert.equal((await act(id, { 'os-stop': null })).statusCode, 202);
      const stopped = (await show(rig, id)).json().server;
      assert.equal(stopped.status, 'SHUTOFF');
      assert.equal(stopped['OS-EXT-STS:power_state'], 4);
      assert.equal((await act(id, { 'os-stop': null })).statusCode, 409);
      assert.equal((await act(id, { 'os-start': null })).statusCode, 202);
      assert.equal(await status(rig, id), 'ACTIVE');
      const bad = await act(id, { reboot: { type: 'GENTLE' } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().badRequest.message, /Invalid input for field\/attribute type/);
      const unknown = await act(id, { levitate: {} });
      assert.equal(unknown.json().badRequest.message, 'There is no such action: levitate');
    } finally {
      await rig.app.close();
    }
  });

  it('changePassword is accepted only while ACTIVE, and leaves the status alone', async () => {
    const rig = await computeRig({ noise: { bootDelayMs: 100 } });
    const act = (id: string, payload: unknown) =>
      rig.app.inject({
        method: 'POST',
        url: `/compute/v2.1/servers/${id}/action`,
        headers: { ...rig.demo, ...json },
        payload: payload as object,
      });
    try {
      const id = (await boot(rig, { name: 'pw' })).json().server.id;
      const early = await act(id, { changePassword: { adminPass: 'x' } });
      assert.equal(early.statusCode, 409);
      assert.match(
        early.json().conflictingRequest.message,
        /Cannot 'changePassword' instance .* vm_state building/,
      );
      rig.clock.now += 100;
      assert.equal((await act(id, { changePassword: { adminPass: 's3cret' } })).statusCode, 202);
      assert.equal(await status(rig, id), 'ACTIVE');
      const bad = await act(id, { changePassword: {} });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().badRequest.message, /Invalid input for field\/attribute adminPass/);
    } finally {
      await rig.app.close();
    }
  });
});

describe('sandbox compute: server requests', () => {
  let rig: ComputeRig;
  before(async () => {
    rig = await computeRig({ noise: { bootDelayMs: 0 } });
  });
  after(() => rig.app.close());

  it('refuses bad requests with Nova’s badRequest body', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: undefined }, /'name' is a required property/],
      [{ name: 'x', flavorRef: '99' }, /^Flavor 99 could not be found\.$/],
      [{ name: 'x', imageRef: 'nope' }, /^Image nope could not be found\.$/],
      [{ name: 'x', key_name: 'missing' }, /^Invalid key_name provided\.$/],
      [{ name: 'x', user_data: 'not base64!' }, /is not a 'base64'/],
      [{ name: 'x', user_data: 'QUFB'.repeat(16384) }, /User data too large/],
      [{ name: 'x', networks: [{ uuid: 'no-such-net' }] }, /Network no-such-net could not be found/],
      [{ name: 'x', imageRef: '' }, /Block Device Mapping is Invalid/],
      [{ name: 'x', availability_zone: 'mars' }, /availability zone is not available/],
      [{ name: 'x', metadata: { k: 1 } }, /is not of type 'string'/],
    ];
    for (const [server, message] of cases) {
      const r = await boot(rig, server);
      assert.equal(r.statusCode, 400, JSON.stringify(server));
      assert.deepEqual(Object.keys(r.json()), ['badRequest']);
      assert.equal(r.json().badRequest.code, 400);
      assert.match(r.json().badRequest.message, message);
    }
    const missing = await rig.app.inject({
      method: 'GET',
      url: '/compute/v2.1/servers/nope',
      headers: rig.demo,
    });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), {
      itemNotFound: { code: 404, message: 'Instance nope could not be found.' },
    });
    // Nothing was left bound by the refused requests.
    assert.equal(rig.ports.bound.size, 0);
  });

  it('boots with a port, a fixed IP, "none", or from a volume; deletes unbind and detach', async () => {
    rig.ports.freePorts.set('my-port', NETWORK_ID);
    rig.volumes.volumes.set('boot-vol', 'available');
    const r = await boot(rig, {
      name: 'many',
      imageRef: '',
      networks: [{ port: 'my-port' }, { uuid: NETWORK_ID, fixed_ip: '10.0.0.99' }],
      block_device_mapping_v2: [
        { boot_index: 0, uuid: 'boot-vol', source_type: 'volume', destination_type: 'volume' },
      ],
    });
    assert.equal(r.statusCode, 202, r.body);
    const id = r.json().server.id;
    const server = (await show(rig, id)).json().server;
    assert.equal(server.image, '');
    assert.deepEqual(server['os-extended-volumes:volumes_attached'], [{ id: 'boot-vol' }]);
    assert.deepEqual(
      server.addresses.private.map((a: { addr: string }) => a.addr),
      ['10.0.0.' + rig.ports.bound.get(id)![0]!.ip.split('.')[3], '10.0.0.99'],
    );
    assert.deepEqual(
      rig.volumes.calls.filter((c) => c.includes(id)),
      [`attach boot-vol ${id} /dev/vda`],
    );
    const ifaces = await rig.app.inject({
      method: 'GET',
      url: `/compute/v2.1/servers/${id}/os-interface`,
      headers: rig.demo,
    });
    assert.deepEqual(
      ifaces
        .json()
        .interfaceAttachments.map((i: { port_id: string; fixed_ips: { ip_address: string }[] }) => [
          i.port_id,
          i.fixed_ips[0]!.ip_address,
        ]),
      [
        ['my-port', rig.ports.bound.get(id)![0]!.ip],
        [rig.ports.bound.get(id)![1]!.portId, '10.0.0.99'],
      ],
    );

    const none = await boot(rig, { name: 'isolated', networks: 'none' }, { ...rig.demo, ...v(37) });
    assert.equal(none.statusCode, 202, none.body);
    assert.deepEqual((await show(rig, none.json().server.id)).json().server.addresses, {});
    const required = await boot(rig, { name: 'x' }, { ...rig.demo, ...v(37) });
    assert.match(required.json().badRequest.message, /'networks' is a required property/);

    const del = await rig.app.inject({
      method: 'DELETE',
      url: `/compute/v2.1/servers/${id}`,
      headers: rig.demo,
    });
    assert.equal(del.statusCode, 204);
    assert.ok(rig.ports.calls.includes(`unbindAll ${id}`));
    assert.ok(rig.volumes.calls.includes(`detachAll ${id}`));
    assert.equal(rig.volumes.volumes.get('boot-vol'), 'available');
    assert.ok(rig.ports.freePorts.has('my-port'), 'a port the user gave is unbound, not deleted');
    assert.equal((await show(rig, id)).statusCode, 404);
    // A port failure rolls back what was already bound.
    const half = await boot(rig, { name: 'half', networks: [{ uuid: NETWORK_ID }, { port: 'ghost' }] });
    assert.equal(half.statusCode, 404);
    assert.equal(
      [...rig.ports.bound.values()].flat().length,
      0 + (rig.ports.bound.get(none.json().server.id)?.length ?? 0),
    );
  });

  it('filters (name as a regex, status, flavor, image, changes-since) and pages with limit/marker', async () => {
    const ids: string[] = [];
    for (const [name, flavorRef] of [
      ['alpha-1', '1'],
      ['alpha-2', '2'],
      ['beta-1', '1'],
      ['alpha-3', '1'],
    ]) {
      rig.clock.now += 1000;
      ids.push((await boot(rig, { name, flavorRef })).json().server.id);
    }
    const list = async (query: string) => {
      const r = await rig.app.inject({
        method: 'GET',
        url: `/compute/v2.1/servers/detail?${query}`,
        headers: rig.demo,
      });
      assert.equal(r.statusCode, 200, r.body);
      return r.json();
    };
    const names = (body: { servers: { name: string }[] }) => body.servers.map((s) => s.name);
    assert.deepEqual(names(await list('name=^alpha-[12]$')), ['alpha-2', 'alpha-1']);
    assert.deepEqual(names(await list('name=alpha&flavor=1')), ['alpha-3', 'alpha-1']);
    assert.deepEqual(names(await list('name=a-&status=ACTIVE&sort_dir=asc&sort_key=display_name')), [
      'alpha-1',
      'alpha-2',
      'alpha-3',
      'beta-1',
    ]);
    assert.deepEqual(names(await list('status=SHUTOFF')), []);
    const since = new Date(rig.clock.now - 500).toISOString();
    assert.deepEqual(names(await list(`changes-since=${since}`)), ['alpha-3']);
    const image = (await show(rig, ids[0]!)).json().server.image.id;
    assert.ok(names(await list(`image=${image}`)).includes('beta-1'));

    const first = await list('name=alpha&limit=2');
    assert.deepEqual(names(first), ['alpha-3', 'alpha-2']);
    const next = new URL(first.servers_links[0].href);
    assert.equal(next.searchParams.get('marker'), ids[1]);
    const second = await list(next.search.slice(1));
    assert.deepEqual(names(second), ['alpha-1']);
    assert.equal(second.servers_links, undefined);
    const short = await rig.app.inject({
      method: 'GET',
      url: '/compute/v2.1/servers?name=beta',
      headers: rig.demo,
    });
    assert.deepEqual(Object.keys(short.json().servers[0]).sort(), ['id', 'links', 'name']);
    const badMarker = await rig.app.inject({
      method: 'GET',
      url: '/compute/v2.1/servers?marker=zzz',
      headers: rig.demo,
    });
    assert.equal(badMarker.statusCode, 400);
    // Another project sees none of them; an admin with all_tenants sees them all.
    assert.equal(
      (await rig.app.inject({ method: 'GET', url: '/compute/v2.1/servers', headers: rig.admin })).json()
        .servers.length,
      0,
    );
    const all = await rig.app.inject({
      method: 'GET',
      url: '/compute/v2.1/servers?all_tenants=1',
      headers: rig.admin,
    });
    assert.ok(all.json().servers.length >= 4);
  });

  it('updates name and metadata, and serves /metadata', async () => {
    const id = (await boot(rig, { name: 'meta', metadata: { a: '1' } })).json().server.id;
    const base = `/compute/v2.1/servers/${id}`;
    const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
      rig.app.inject({
        method,
        url: base + url,
        headers: { ...rig.demo, ...json },
        ...(payload ? { payload } : {}),
      });
    const put = await call('PUT', '', { server: { name: 'renamed' } });
    assert.equal(put.statusCode, 200);
    assert.equal(put.json().server.name, 'renamed');
    assert.equal((await call('PUT', '', { server: { flavor: 'x' } })).statusCode, 400);
    assert.deepEqual((await call('POST', '/metadata', { metadata: { b: '2' } })).json(), {
      metadata: { a: '1', b: '2' },
    });
    assert.deepEqual((await call('PUT', '/metadata', { metadata: { c: '3' } })).json(), {
      metadata: { c: '3' },
    });
    assert.deepEqual((await call('GET', '/metadata/c')).json(), { meta: { c: '3' } });
    assert.deepEqual((await call('PUT', '/metadata/d', { meta: { d: '4' } })).json(), { meta: { d: '4' } });
    assert.equal(
      (await call('PUT', '/metadata/d', { meta: { e: '4' } })).json().badRequest.message,
      'Request body and URI mismatch',
    );
    assert.equal((await call('DELETE', '/metadata/c')).statusCode, 204);
    assert.equal((await call('GET', '/metadata/c')).statusCode, 404);
    assert.deepEqual((await call('GET', '/metadata')).json(), { metadata: { d: '4' } });
    assert.deepEqual((await show(rig, id)).json().server.metadata, { d: '4' });
  });

  it('attaches and detaches volumes through the VolumeBinder', async () => {
    rig.volumes.volumes.set('data', 'available');
    const id = (await boot(rig, { name: 'with-data' })).json().server.id;
    const url = `/compute/v2.1/servers/${id}/os-volume_attachments`;
    const attach = await rig.app.inject({
      method: 'POST',
      url,
      headers: { ...rig.demo, ...json },
      payload: { volumeAttachment: { volumeId: 'data' } },
    });
    assert.equal(attach.statusCode, 200, attach.body);
    assert.deepEqual(attach.json().volumeAttachment, {
      device: '/dev/vdb',
      serverId: id,
      volumeId: 'data',
      id: 'data',
    });
    const listed = await rig.app.inject({ method: 'GET', url, headers: { ...rig.demo, ...v(89) } });
    assert.equal(listed.json().volumeAttachments[0].attachment_id, 'att-data');
    assert.equal(
      (
        await rig.app.inject({
          method: 'POST',
          url,
          headers: { ...rig.demo, ...json },
          payload: { volumeAttachment: { volumeId: 'nope' } },
        })
      ).statusCode,
      404,
    );
    const detach = await rig.app.inject({ method: 'DELETE', url: `${url}/data`, headers: rig.demo });
    assert.equal(detach.statusCode, 202);
    assert.equal(rig.volumes.volumes.get('data'), 'available');
    assert.equal(
      (await rig.app.inject({ method: 'DELETE', url: `${url}/data`, headers: rig.demo })).statusCode,
      404,
    );
  });
});
