import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type VolumeCloud, volumeCloud } from './volume-helpers.js';

describe('sandbox Cinder: lists, quotas and limits', () => {
  let cloud: VolumeCloud;
  const ids: Record<string, string> = {};
  before(async () => {
    cloud = await volumeCloud({ bootDelayMs: 0 });
    for (const [name, size, tier] of [
      ['a', 1, 'gold'],
      ['b', 3, 'silver'],
      ['c', 2, 'gold'],
      ['d', 1, 'bronze'],
      ['e', 4, 'gold'],
    ] as const) {
      const r = await cloud.cinder('POST', '/volumes', { volume: { name, size, metadata: { tier } } });
      assert.equal(r.statusCode, 202, r.body);
      ids[name] = r.json().volume.id;
      cloud.advance(1000);
    }
    await cloud.cinder('POST', '/volumes', { volume: { name: 'theirs', size: 1 } }, { as: cloud.admin });
  });
  after(() => cloud.close());

  const names = (body: { volumes: { name: string }[] }) => body.volumes.map((v) => v.name);

  it('lists the project’s volumes newest first, in summary and in detail', async () => {
    const summary = (await cloud.cinder('GET', '/volumes')).json();
    assert.deepEqual(names(summary), ['e', 'd', 'c', 'b', 'a']);
    assert.deepEqual(Object.keys(summary.volumes[0]).sort(), ['id', 'links', 'name']);
    const detail = (await cloud.cinder('GET', '/volumes/detail')).json();
    assert.equal(detail.volumes[0].status, 'available');
    assert.equal(detail.volumes[0].size, 4);
    assert.equal(detail.volumes_links, undefined);
  });

  it('filters by name, status and metadata (JSON or a Python dict)', async () => {
    assert.deepEqual(names((await cloud.cinder('GET', '/volumes/detail?name=c')).json()), ['c']);
    assert.deepEqual(names((await cloud.cinder('GET', '/volumes/detail?status=error')).json()), []);
    assert.equal((await cloud.cinder('GET', '/volumes/detail?status=available')).json().volumes.length, 5);
    const json = encodeURIComponent('{"tier": "gold"}');
    assert.deepEqual(names((await cloud.cinder('GET', `/volumes/detail?metadata=${json}`)).json()), [
      'e',
      'c',
      'a',
    ]);
    const python = encodeURIComponent("{'tier': 'silver'}");
    assert.deepEqual(names((await cloud.cinder('GET', `/volumes?metadata=${python}`)).json()), ['b']);
  });

  it('sorts by sort= or sort_key/sort_dir, and refuses an unknown key', async () => {
    const bySize = (await cloud.cinder('GET', '/volumes/detail?sort=size:asc,name:desc')).json();
    assert.deepEqual(names(bySize), ['d', 'a', 'c', 'b', 'e']);
    const byName = (await cloud.cinder('GET', '/volumes?sort_key=name&sort_dir=asc')).json();
    assert.deepEqual(names(byName), ['a', 'b', 'c', 'd', 'e']);
    const bad = await cloud.cinder('GET', '/volumes?sort=colour:asc');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().badRequest.message, /sort key/);
  });

  it('pages with limit and marker, following the next links to the end', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/volumes/detail?limit=2&sort=name:asc';
    let pages = 0;
    while (url !== undefined) {
      const r = await cloud.cinder('GET', url);
      assert.equal(r.statusCode, 200, r.body);
      const body = r.json();
      seen.push(...names(body));
      pages++;
      const next = body.volumes_links?.find((l: { rel: string }) => l.rel === 'next')?.href as
        string | undefined;
      url = next?.replace(/^.*\/volume\/v3\/[^/]+/, '');
      if (next) assert.match(next, /marker=/);
    }
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
    assert.equal(pages, 3);
    const missing = await cloud.cinder('GET', '/volumes?marker=nope');
    assert.equal(missing.statusCode, 404);
    const badLimit = await cloud.cinder('GET', '/volumes?limit=-1');
    assert.equal(badLimit.statusCode, 400);
    const counted = await cloud.cinder('GET', '/volumes?limit=1&with_count=true', undefined, {
      version: '3.45',
    });
    assert.equal(counted.json().count, 5);
  });

  it('lets an admin list every project’s volumes with all_tenants', async () => {
    const own = (await cloud.cinder('GET', '/volumes', undefined, { as: cloud.admin })).json();
    assert.deepEqual(names(own), ['theirs']);
    const all = (await cloud.cinder('GET', '/volumes?all_tenants=1', undefined, { as: cloud.admin })).json();
    assert.equal(all.volumes.length, 6);
    const demoAll = (await cloud.cinder('GET', '/volumes?all_tenants=1')).json();
    assert.equal(demoAll.volumes.length, 5, 'all_tenants means nothing to a non-admin');
  });

  it('enforces the volumes and gigabytes quotas with Cinder’s overLimit, and shows them in limits', async () => {
    cloud.ctx.setNoise({ quotas: { volumes: 6, gigabytes: 13 } });
    try {
      const limits = (await cloud.cinder('GET', '/limits')).json().limits.absolute;
      assert.equal(limits.maxTotalVolumes, 6);
      assert.equal(limits.maxTotalVolumeGigabytes, 13);
      assert.equal(limits.totalVolumesUsed, 5);
      assert.equal(limits.totalGigabytesUsed, 11);
      const quotaSet = (
        await cloud.cinder('GET', `/os-quota-sets/${cloud.demo.projectId}?usage=True`)
      ).json();
      assert.deepEqual(quotaSet.quota_set.gigabytes, { limit: 13, in_use: 11, reserved: 0, allocated: 0 });
      assert.equal(quotaSet.quota_set.id, cloud.demo.projectId);

      const tooBig = await cloud.cinder('POST', '/volumes', { volume: { size: 3 } });
      assert.equal(tooBig.statusCode, 413, tooBig.body);
      assert.deepEqual(Object.keys(tooBig.json()), ['overLimit']);
      assert.equal(tooBig.json().overLimit.code, 413);
      assert.match(tooBig.json().overLimit.message, /gigabytes quota.*Requested 3G, quota is 13G and 11G/);
      const fits = await cloud.cinder('POST', '/volumes', { volume: { size: 2, name: 'f' } });
      assert.equal(fits.statusCode, 202);
      const tooMany = await cloud.cinder('POST', '/volumes', { volume: { size: 1 } });
      assert.equal(tooMany.statusCode, 413);
      assert.match(
        tooMany.json().overLimit.message,
        /Maximum number of volumes allowed \(6\) exceeded for quota 'volumes'/,
      );
      const extend = await cloud.cinder('POST', `/volumes/${ids.a}/action`, { 'os-extend': { new_size: 2 } });
      assert.equal(extend.statusCode, 413, 'extending counts against gigabytes too');

      // Deleting frees the quota once the volume is gone.
      assert.equal((await cloud.cinder('DELETE', `/volumes/${fits.json().volume.id}`)).statusCode, 202);
      const again = await cloud.cinder('POST', '/volumes', { volume: { size: 1 } });
      assert.equal(again.statusCode, 202, again.body);
    } finally {
      cloud.ctx.setNoise({ quotas: { volumes: -1, gigabytes: -1 } });
    }
  });
});
