import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type VolumeCloud, volumeCloud } from './volume-helpers.js';

describe('sandbox Cinder: discovery and volume lifecycle', () => {
  let cloud: VolumeCloud;
  before(async () => {
    cloud = await volumeCloud();
  });
  after(() => cloud.close());

  it('discovers v3 without a token, and answers at the asked microversion', async () => {
    const root = await cloud.app.inject({ method: 'GET', url: '/volume/', headers: { host: 'cloud:1' } });
    assert.equal(root.statusCode, 300);
    const [version] = root.json().versions;
    assert.equal(version.id, 'v3.0');
    assert.equal(version.min_version, '3.0');
    assert.equal(version.version, '3.70');
    assert.equal(version.links[0].href, 'http://cloud:1/volume/v3/');
    const v3 = await cloud.app.inject({ method: 'GET', url: '/volume/v3' });
    assert.equal(v3.statusCode, 200);
    assert.equal(v3.json().versions[0].id, 'v3.0');

    const at = await cloud.cinder('GET', '/volumes', undefined, { version: '3.27' });
    assert.equal(at.statusCode, 200);
    assert.equal(at.headers['openstack-api-version'], 'volume 3.27');
    const plain = await cloud.cinder('GET', '/volumes');
    assert.equal(plain.headers['openstack-api-version'], 'volume 3.0');
    const latest = await cloud.cinder('GET', '/volumes', undefined, { version: 'latest' });
    assert.equal(latest.headers['openstack-api-version'], 'volume 3.70');
    const tooNew = await cloud.cinder('GET', '/volumes', undefined, { version: '3.99' });
    assert.equal(tooNew.statusCode, 406);
    assert.match(tooNew.body, /Minimum is 3.0 and maximum is 3.70/);
  });

  it('refuses another project in the path, and no token', async () => {
    const other = await cloud.cinder('GET', '/volumes', undefined, { project: cloud.admin.projectId });
    assert.equal(other.statusCode, 403);
    assert.equal(other.json().forbidden.code, 403);
    const anonymous = await cloud.app.inject({
      method: 'GET',
      url: `/volume/v3/${cloud.demo.projectId}/volumes`,
    });
    assert.equal(anonymous.statusCode, 401);
  });

  it('creates a volume creating, available after the boot delay, with Cinder’s fields', async () => {
    const r = await cloud.cinder('POST', '/volumes', {
      volume: { size: 2, name: 'data', description: 'd', metadata: { tier: 'gold' } },
    });
    assert.equal(r.statusCode, 202, r.body);
    const volume = r.json().volume;
    assert.equal(volume.status, 'creating');
    assert.equal(volume.size, 2);
    assert.equal(volume.name, 'data');
    assert.equal(volume.availability_zone, 'nova');
    assert.equal(volume.volume_type, '__DEFAULT__');
    assert.equal(volume.bootable, 'false');
    assert.equal(volume.encrypted, false);
    assert.equal(volume.multiattach, false);
    assert.deepEqual(volume.metadata, { tier: 'gold' });
    assert.deepEqual(volume.attachments, []);
    assert.equal(volume['os-vol-tenant-attr:tenant_id'], cloud.demo.projectId);
    assert.equal(volume.snapshot_id, null);
    assert.equal(volume.source_volid, null);
    assert.ok('replication_status' in volume && 'user_id' in volume && 'updated_at' in volume);
    assert.match(volume.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    assert.match(
      volume.links[0].href,
      new RegExp(`/volume/v3/${cloud.demo.projectId}/volumes/${volume.id}$`),
    );

    cloud.advance(999);
    assert.equal((await cloud.cinder('GET', `/volumes/${volume.id}`)).json().volume.status, 'creating');
    cloud.advance(1);
    const shown = (await cloud.cinder('GET', `/volumes/${volume.id}`)).json().volume;
    assert.equal(shown.status, 'available');
    assert.notEqual(shown.updated_at, null);
  });

  it('updates name, description and metadata; deletes through deleting to gone', async () => {
    const { id } = (await cloud.cinder('POST', '/volumes', { volume: { size: 1, name: 'tmp' } })).json()
      .volume;
    const early = await cloud.cinder('DELETE', `/volumes/${id}`);
    assert.equal(early.statusCode, 400, 'a creating volume cannot be deleted');
    cloud.advance(1000);
    const put = await cloud.cinder('PUT', `/volumes/${id}`, {
      volume: { name: 'renamed', description: 'x', metadata: { a: '1' } },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().volume.name, 'renamed');
    assert.deepEqual(put.json().volume.metadata, { a: '1' });
    const legacy = await cloud.cinder('PUT', `/volumes/${id}`, { volume: { display_name: 'old-style' } });
    assert.equal(legacy.json().volume.name, 'old-style', 'the openstack client sends display_name');
    assert.equal(legacy.json().volume.description, 'x');

    const del = await cloud.cinder('DELETE', `/volumes/${id}`);
    assert.equal(del.statusCode, 202);
    assert.equal((await cloud.cinder('GET', `/volumes/${id}`)).json().volume.status, 'deleting');
    const again = await cloud.cinder('DELETE', `/volumes/${id}`);
    assert.equal(again.statusCode, 400);
    cloud.advance(1000);
    const gone = await cloud.cinder('GET', `/volumes/${id}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), {
      itemNotFound: { code: 404, message: `Volume ${id} could not be found.` },
    });
  });

  it('creates from an image (bootable) and from a source volume; unknown references are refused', async () => {
    const images = await cloud.app.inject({
      method: 'GET',
      url: '/image/v2/images',
      headers: { 'x-auth-token': cloud.demo.token },
    });
    const cirros = images.json().images.find((i: { name: string }) => i.name.startsWith('cirros'));
    const fromImage = await cloud.cinder('POST', '/volumes', { volume: { size: 1, imageRef: cirros.id } });
    assert.equal(fromImage.statusCode, 202, fromImage.body);
    assert.equal(fromImage.json().volume.bootable, 'true');
    assert.equal(fromImage.json().volume.volume_image_metadata.image_id, cirros.id);

    const badImage = await cloud.cinder('POST', '/volumes', { volume: { size: 1, imageRef: 'nope' } });
    assert.equal(badImage.statusCode, 400);
    assert.equal(
      badImage.json().badRequest.message,
      'Invalid image identifier or unable to access requested image.',
    );
    const small = await cloud.cinder('POST', '/volumes', { volume: { size: 1, imageRef: 'fedora-39' } });
    assert.equal(small.statusCode, 400, 'fedora needs 5 GiB');
    assert.match(small.json().badRequest.message, /minDisk/);

    cloud.advance(1000);
    const source = fromImage.json().volume.id;
    const clone = await cloud.cinder('POST', '/volumes', {
      volume: { source_volid: source, volume_type: 'lvmdriver-1' },
    });
    assert.equal(clone.statusCode, 202, clone.body);
    assert.equal(clone.json().volume.size, 1);
    assert.equal(clone.json().volume.source_volid, source);
    assert.equal(clone.json().volume.bootable, 'true');
    assert.equal(clone.json().volume.volume_type, 'lvmdriver-1');
    const missing = await cloud.cinder('POST', '/volumes', { volume: { source_volid: 'nope' } });
    assert.equal(missing.statusCode, 404);
  });

  it('validates a create in Cinder’s badRequest format', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /Missing required element 'volume'/],
      [{ volume: {} }, /size/],
      [{ volume: { size: 0 } }, /size.*less than the minimum of 1/],
      [{ volume: { size: 'big' } }, /size/],
      [{ volume: { size: 1.5 } }, /size/],
      [{ volume: { size: 1, name: 7 } }, /name/],
      [{ volume: { size: 1, metadata: { k: 1 } } }, /metadata/],
      [{ volume: { size: 1, availability_zone: 'mars' } }, /Availability zone 'mars' is invalid/],
    ];
    for (const [payload, message] of cases) {
      const r = await cloud.cinder('POST', '/volumes', payload);
      assert.equal(r.statusCode, 400, `${JSON.stringify(payload)}: ${r.body}`);
      assert.deepEqual(Object.keys(r.json()), ['badRequest']);
      assert.equal(r.json().badRequest.code, 400);
      assert.match(r.json().badRequest.message, message);
    }
    const type = await cloud.cinder('POST', '/volumes', { volume: { size: 1, volume_type: 'gold' } });
    assert.equal(type.statusCode, 404);
    assert.equal(type.json().itemNotFound.code, 404);
    const asString = await cloud.cinder('POST', '/volumes', { volume: { size: '3' } });
    assert.equal(asString.statusCode, 202);
    assert.equal(asString.json().volume.size, 3);
  });

  it('lists the volume types and availability zones', async () => {
    const types = (await cloud.cinder('GET', '/types'))
      .json()
      .volume_types.map((t: { name: string }) => t.name);
    assert.deepEqual(types.sort(), ['__DEFAULT__', 'lvmdriver-1']);
    const zones = (await cloud.cinder('GET', '/os-availability-zone')).json().availabilityZoneInfo;
    assert.deepEqual(zones, [{ zoneName: 'nova', zoneState: { available: true } }]);
  });
});
