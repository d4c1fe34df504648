import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { boot, computeRig, type ComputeRig, json, NETWORK_ID, show, v } from './compute-fakes.js';

// The sandbox Nova's server tags, remote consoles, interface attach without a network and
// return_reservation_id: Nova's microversion gates and answers.
describe('sandbox compute: tags, remote consoles, reservation ids', () => {
  let rig: ComputeRig;
  let id: string;

  before(async () => {
    rig = await computeRig({ noise: { bootDelayMs: 1000 } });
    const tagged = { name: 'tagged', tags: ['a', 'b', 'a'], networks: [{ uuid: NETWORK_ID }] };
    const r = await boot(rig, tagged, { ...rig.demo, ...v(52) });
    assert.equal(r.statusCode, 202, r.body);
    id = r.json().server.id;
  });
  after(async () => rig?.app.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, minor: number, payload?: object) =>
    rig.app.inject({
      method,
      url: `/compute/v2.1/servers/${id}${path}`,
      headers: { ...rig.demo, ...v(minor), ...(payload ? json : {}) },
      ...(payload ? { payload } : {}),
    });

  it('keeps tags given at create (2.52), shows them from 2.26, replaces and edits them', async () => {
    const early = await boot(rig, { name: 'early', tags: ['x'] }, { ...rig.demo, ...v(51) });
    assert.equal(early.statusCode, 400);
    assert.match(early.json().badRequest.message, /'tags' was unexpected/);
    assert.deepEqual((await show(rig, id, { ...rig.demo, ...v(26) })).json().server.tags, ['a', 'b']);
    assert.equal((await call('GET', '/tags', 25)).statusCode, 404, 'no tags route before 2.26');
    assert.deepEqual((await call('PUT', '/tags', 26, { tags: ['c'] })).json(), { tags: ['c'] });
    assert.equal((await call('PUT', '/tags/d', 26)).statusCode, 201);
    assert.equal((await call('PUT', '/tags/d', 26)).statusCode, 204, 'a tag it has already');
    assert.deepEqual((await call('GET', '/tags', 26)).json(), { tags: ['c', 'd'] });
    assert.equal((await call('DELETE', '/tags/c', 26)).statusCode, 204);
    assert.equal((await call('GET', '/tags/c', 26)).statusCode, 404);
    const bad = await call('PUT', '/tags', 26, { tags: ['a/b'] });
    assert.equal(bad.statusCode, 400);
    assert.equal((await call('DELETE', '/tags', 26)).statusCode, 204);
    assert.deepEqual((await call('GET', '/tags', 26)).json(), { tags: [] });
  });

  it('gives a noVNC console of an ACTIVE server; other types are unavailable, bad ones refused', async () => {
    const novnc = { remote_console: { protocol: 'vnc', type: 'novnc' } };
    assert.equal((await call('POST', '/remote-consoles', 5, novnc)).statusCode, 404, 'before 2.6');
    assert.equal((await call('POST', '/remote-consoles', 6, novnc)).statusCode, 409, 'still building');
    rig.clock.now += 1000;
    const r = await call('POST', '/remote-consoles', 6, novnc);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().remote_console.type, 'novnc');
    assert.match(r.json().remote_console.url, /\/vnc_lite\.html\?path=%3Ftoken%3D[0-9a-f-]{36}$/);
    const spice = await call('POST', '/remote-consoles', 6, {
      remote_console: { protocol: 'spice', type: 'spice-html5' },
    });
    assert.equal(spice.statusCode, 400);
    assert.equal(spice.json().badRequest.message, 'Unavailable console type spice-html5.');
    const mks = { remote_console: { protocol: 'mks', type: 'webmks' } };
    assert.match((await call('POST', '/remote-consoles', 6, mks)).json().badRequest.message, /protocol/);
    assert.equal((await call('POST', '/remote-consoles', 8, mks)).statusCode, 400);
    const mismatch = { remote_console: { protocol: 'vnc', type: 'serial' } };
    assert.match((await call('POST', '/remote-consoles', 6, mismatch)).json().badRequest.message, /type/);
  });

  it('attaches an interface without a network to the project’s one network, or says it cannot choose', async () => {
    const r = await call('POST', '/os-interface', 2, { interfaceAttachment: {} });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().interfaceAttachment.net_id, NETWORK_ID);
    rig.ports.defaultNetworkId = undefined;
    const ambiguous = await call('POST', '/os-interface', 2, { interfaceAttachment: {} });
    assert.equal(ambiguous.statusCode, 409);
    assert.match(ambiguous.json().conflictingRequest.message, /Multiple possible networks found/);
    rig.ports.defaultNetworkId = NETWORK_ID;
  });

  it('answers only the reservation id when asked for it; refuses a value that is no boolean', async () => {
    const r = await boot(rig, { name: 'reserved', return_reservation_id: 'True' });
    assert.equal(r.statusCode, 202, r.body);
    assert.match(r.json().reservation_id, /^r-[0-9a-z]{8}$/);
    assert.equal(r.json().server, undefined);
    const plain = await boot(rig, { name: 'plain', return_reservation_id: false });
    assert.ok(plain.json().server.id);
    const uuid = await boot(rig, {
      name: 'bad',
      return_reservation_id: '5e3a8f46-0a53-4ec1-9bb8-1fd1e0a1d1a0',
    });
    assert.equal(uuid.statusCode, 400);
    assert.match(uuid.json().badRequest.message, /return_reservation_id/);
  });
});
