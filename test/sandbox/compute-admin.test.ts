import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boot, computeRig, show, status } from './compute-fakes.js';

describe('sandbox compute: quotas and admin actions', () => {
  it('counts instances, cores and ram (not deleted servers) and answers 403 with Nova’s message', async () => {
    const rig = await computeRig({ noise: { bootDelayMs: 0, quotas: { instances: 2, cores: 3 } } });
    try {
      const first = (await boot(rig, { name: 'a', flavorRef: '3' })).json().server.id; // 2 vcpus
      const cores = await boot(rig, { name: 'b', flavorRef: '3' });
      assert.equal(cores.statusCode, 403);
      assert.equal(
        cores.json().forbidden.message,
        'Quota exceeded for cores: Requested 2, but already used 2 of 3 cores',
      );
      assert.equal((await boot(rig, { name: 'b' })).statusCode, 202);
      const instances = await boot(rig, { name: 'c' });
      assert.equal(
        instances.json().forbidden.message,
        'Quota exceeded for instances: Requested 1, but already used 2 of 2 instances',
      );
      await rig.app.inject({ method: 'DELETE', url: `/compute/v2.1/servers/${first}`, headers: rig.demo });
      assert.equal((await boot(rig, { name: 'c' })).statusCode, 202);
      const limits = await rig.app.inject({ method: 'GET', url: '/compute/v2.1/limits', headers: rig.demo });
      assert.equal(limits.json().limits.absolute.maxTotalInstances, 2);
      assert.equal(limits.json().limits.absolute.totalInstancesUsed, 2);
      await rig.app.inject({ method: 'PUT', url: '/admin/noise', payload: { quotas: { ram: 600 } } });
      rig.ctx.setNoise({ quotas: { instances: -1, cores: -1 } });
      assert.match(
        (await boot(rig, { name: 'd' })).json().forbidden.message,
        /Quota exceeded for ram: Requested 512, but already used 1024 of 600 ram/,
      );
    } finally {
      await rig.app.close();
    }
  });

  it('deletes a server out of band, sets ERROR with a fault, and sets a status', async () => {
    const rig = await computeRig({ noise: { bootDelayMs: 0 } });
    try {
      const a = (await boot(rig, { name: 'a' })).json().server.id;
      const b = (await boot(rig, { name: 'b' })).json().server.id;
      const err = await rig.app.inject({
        method: 'POST',
        url: `/admin/server/${a}/error`,
        payload: { message: 'disk on fire' },
      });
      assert.equal(err.statusCode, 200, err.body);
      const errored = (await show(rig, a)).json().server;
      assert.equal(errored.status, 'ERROR');
      assert.equal(errored.fault.message, 'disk on fire');
      const set = await rig.app.inject({
        method: 'POST',
        url: `/admin/server/${a}/status`,
        payload: { status: 'shutoff' },
      });
      assert.equal(set.statusCode, 200);
      assert.equal(await status(rig, a), 'SHUTOFF');
      assert.equal(
        (
          await rig.app.inject({
            method: 'POST',
            url: `/admin/server/${a}/status`,
            payload: { status: 'WEIRD' },
          })
        ).statusCode,
        400,
      );
      const del = await rig.app.inject({ method: 'POST', url: `/admin/server/${b}/delete` });
      assert.equal(del.statusCode, 200);
      assert.equal((await show(rig, b)).statusCode, 404);
      assert.ok(rig.ports.calls.includes(`unbindAll ${b}`));
      assert.equal(
        (await rig.app.inject({ method: 'POST', url: `/admin/server/${b}/delete` })).statusCode,
        404,
      );
    } finally {
      await rig.app.close();
    }
  });
});
