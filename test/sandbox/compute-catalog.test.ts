import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { computeRig, type ComputeRig } from './compute-fakes.js';

const json = { 'content-type': 'application/json' };
const v = (minor: number | string) => ({
  'OpenStack-API-Version': `compute ${typeof minor === 'number' ? `2.${minor}` : minor}`,
});

describe('sandbox compute: discovery, microversions, flavors, key pairs', () => {
  let rig: ComputeRig;
  before(async () => {
    rig = await computeRig();
  });
  after(() => rig.app.close());
  const get = (url: string, headers: Record<string, string> = rig.demo) =>
    rig.app.inject({ method: 'GET', url: `/compute/v2.1${url}`, headers });

  it('discovers v2.1 without a token and answers microversion headers', async () => {
    for (const url of ['/compute/v2.1', '/compute/v2.1/']) {
      const r = await rig.app.inject({ method: 'GET', url, headers: { host: 'cloud:1' } });
      assert.equal(r.statusCode, 200, url);
      const { version } = r.json();
      assert.equal(version.id, 'v2.1');
      assert.equal(version.status, 'CURRENT');
      assert.equal(version.version, '2.96');
      assert.equal(version.min_version, '2.1');
      assert.equal(version.links[0].href, 'http://cloud:1/compute/v2.1/');
    }
    const plain = await get('/flavors');
    assert.equal(plain.headers['openstack-api-version'], 'compute 2.1');
    assert.equal(plain.headers['x-openstack-nova-api-version'], '2.1');
    const latest = await get('/flavors', { ...rig.demo, ...v('latest') });
    assert.equal(latest.headers['openstack-api-version'], 'compute 2.96');
    const legacy = await get('/flavors', { ...rig.demo, 'X-OpenStack-Nova-API-Version': '2.60' });
    assert.equal(legacy.headers['x-openstack-nova-api-version'], '2.60');
    const tooNew = await get('/flavors', { ...rig.demo, ...v(97) });
    assert.equal(tooNew.statusCode, 406);
    assert.match(
      tooNew.body,
      /Version 2.97 is not supported by the API. Minimum is 2.1 and maximum is 2.96./,
    );
    assert.equal((await get('/flavors', {})).statusCode, 401);
  });

  it('lists the seeded flavors with minRam/minDisk filters and paging, and shows one', async () => {
    const all = (await get('/flavors')).json();
    assert.deepEqual(
      all.flavors.map((f: { id: string; name: string }) => [f.id, f.name]),
      [
        ['1', 'm1.tiny'],
        ['2', 'm1.small'],
        ['3', 'm1.medium'],
        ['4', 'm1.large'],
      ],
    );
    assert.deepEqual(Object.keys(all.flavors[0]).sort(), ['id', 'links', 'name']);
    const big = (await get('/flavors/detail?minRam=4096&minDisk=50')).json().flavors;
    assert.deepEqual(
      big.map((f: { name: string }) => f.name),
      ['m1.large'],
    );
    assert.equal(big[0].vcpus, 4);
    assert.equal(big[0].ram, 8192);
    assert.equal(big[0].disk, 80);
    assert.equal(big[0]['os-flavor-access:is_public'], true);
    assert.equal(big[0].swap, '');
    const paged = (await get('/flavors?limit=2&marker=1')).json();
    assert.deepEqual(
      paged.flavors.map((f: { id: string }) => f.id),
      ['2', '3'],
    );
    assert.match(paged.flavors_links[0].href, /marker=3/);
    const small = (await get('/flavors/2', { ...rig.demo, ...v(75) })).json().flavor;
    assert.equal(small.swap, 0);
    assert.deepEqual([small.vcpus, small.ram, small.disk], [1, 2048, 20]);
    const missing = await get('/flavors/m1.tiny');
    assert.deepEqual(missing.json(), {
      itemNotFound: { code: 404, message: 'Flavor m1.tiny could not be found.' },
    });
  });

  it('creates and deletes flavors and their extra specs as admin only', async () => {
    const flavor = { flavor: { name: 'custom', ram: 1024, vcpus: 2, disk: 10, id: 'c1' } };
    const denied = await rig.app.inject({
      method: 'POST',
      url: '/compute/v2.1/flavors',
      headers: { ...rig.demo, ...json },
      payload: flavor,
    });
    assert.equal(denied.statusCode, 403);
    assert.match(denied.json().forbidden.message, /os-flavor-manage:create/);
    const made = await rig.app.inject({
      method: 'POST',
      url: '/compute/v2.1/flavors',
      headers: { ...rig.admin, ...json },
      payload: flavor,
    });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal(made.json().flavor.id, 'c1');
    const dup = await rig.app.inject({
      method: 'POST',
      url: '/compute/v2.1/flavors',
      headers: { ...rig.admin, ...json },
      payload: flavor,
    });
    assert.equal(dup.statusCode, 409);
    const bad = await rig.app.inject({
      method: 'POST',
      url: '/compute/v2.1/flavors',
      headers: { ...rig.admin, ...json },
      payload: { flavor: { name: 'x', vcpus: 1, disk: 1 } },
    });
    assert.match(bad.json().badRequest.message, /'ram' is a required property/);
    const specs = await rig.app.inject({
      method: 'POST',
      url: '/compute/v2.1/flavors/c1/os-extra_specs',
      headers: { ...rig.admin, ...json },
      payload: { extra_specs: { 'hw:cpu_policy': 'dedicated' } },
    });
    assert.deepEqual(specs.json(), { extra_specs: { 'hw:cpu_policy': 'dedicated' } });
    assert.deepEqual((await get('/flavors/c1/os-extra_specs')).json(), {
      extra_specs: { 'hw:cpu_policy': 'dedicated' },
    });
    assert.equal(
      (await get('/flavors/c1', { ...rig.demo, ...v(61) })).json().flavor.extra_specs['hw:cpu_policy'],
      'dedicated',
    );
    assert.equal(
      (await rig.app.inject({ method: 'DELETE', url: '/compute/v2.1/flavors/c1', headers: rig.demo }))
        .statusCode,
      403,
    );
    assert.equal(
      (await rig.app.inject({ method: 'DELETE', url: '/compute/v2.1/flavors/c1', headers: rig.admin }))
        .statusCode,
      202,
    );
    assert.equal((await get('/flavors/c1')).statusCode, 404);
  });

  it('imports and generates key pairs (private key once), refuses duplicates, and keeps the quota', async () => {
    const post = (keypair: object, headers: Record<string, string> = {}) =>
      rig.app.inject({
        method: 'POST',
        url: '/compute/v2.1/os-keypairs',
        headers: { ...rig.demo, ...json, ...headers },
        payload: { keypair },
      });
    const made = await post({ name: 'gen' }, v(2));
    assert.equal(made.statusCode, 201, made.body);
    const generated = made.json().keypair;
    assert.match(generated.private_key, /^-----BEGIN RSA PRIVATE KEY-----/);
    assert.match(generated.public_key, /^ssh-rsa AAAAB3NzaC1yc2E/);
    assert.equal(generated.type, 'ssh');
    const blob = Buffer.from(generated.public_key.split(' ')[1], 'base64');
    assert.equal(generated.fingerprint, createHash('md5').update(blob).digest('hex').match(/../g)!.join(':'));
    const shown = (await get('/os-keypairs/gen')).json().keypair;
    assert.equal(shown.private_key, undefined);
    assert.equal(shown.public_key, generated.public_key);
    assert.equal(typeof shown.id, 'number');

    const imported = await post({ name: 'mine', public_key: generated.public_key });
    assert.equal(imported.statusCode, 200, 'before 2.2 a create answers 200');
    assert.equal(imported.json().keypair.private_key, undefined);
    assert.equal(imported.json().keypair.fingerprint, generated.fingerprint);
    assert.equal((await post({ name: 'junk', public_key: 'ssh-rsa bm90IGEga2V5' })).statusCode, 400);
    const dup = await post({ name: 'gen', public_key: generated.public_key });
    assert.equal(dup.statusCode, 409);
    assert.equal(dup.json().conflictingRequest.message, "Key pair 'gen' already exists.");
    assert.match(
      (await post({ name: 'new' }, v(92))).json().badRequest.message,
      /'public_key' is a required property/,
    );

    const list = (await get('/os-keypairs', { ...rig.demo, ...v(2) })).json();
    assert.deepEqual(
      list.keypairs.map((k: { keypair: { name: string } }) => k.keypair.name),
      ['gen', 'mine'],
    );
    assert.deepEqual(Object.keys(list.keypairs[0].keypair).sort(), [
      'fingerprint',
      'name',
      'public_key',
      'type',
    ]);
    assert.equal((await get('/os-keypairs', rig.admin)).json().keypairs.length, 0, 'key pairs are per user');

    rig.ctx.setNoise({ quotas: { key_pairs: 2 } });
    const over = await post({ name: 'third', public_key: generated.public_key });
    assert.equal(over.statusCode, 403);
    assert.equal(over.json().forbidden.message, 'Quota exceeded, too many key pairs.');
    rig.ctx.setNoise({ quotas: { key_pairs: -1 } });

    const del = await rig.app.inject({
      method: 'DELETE',
      url: '/compute/v2.1/os-keypairs/mine',
      headers: { ...rig.demo, ...v(2) },
    });
    assert.equal(del.statusCode, 204);
    const gone = await get('/os-keypairs/mine');
    assert.equal(gone.statusCode, 404);
    assert.match(gone.json().itemNotFound.message, /^Keypair mine not found for user /);

    // A server may name the key pair.
    const server = await rig.app.inject({
      method: 'POST',
      url: '/compute/v2.1/servers',
      headers: { ...rig.demo, ...json },
      payload: {
        server: { name: 'keyed', flavorRef: '1', imageRef: 'cirros-0.6.2-x86_64-disk', key_name: 'gen' },
      },
    });
    assert.equal(server.statusCode, 202, server.body);
    assert.equal((await get(`/servers/${server.json().server.id}`)).json().server.key_name, 'gen');
  });
});
