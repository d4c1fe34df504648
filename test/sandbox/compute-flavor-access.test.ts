import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { computeRig, type ComputeRig } from './compute-fakes.js';
import { login } from './support.js';

describe('sandbox compute: flavor access (os-flavor-access)', () => {
  let rig: ComputeRig;
  let demoProject: string;
  before(async () => {
    rig = await computeRig();
    demoProject = (await login(rig.app, 'demo')).projectId;
  });
  after(() => rig.app.close());
  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    rig.app.inject({ method, url: `/compute/v2.1${url}`, headers, ...(payload ? { payload } : {}) });

  it('shares a private flavor with a project, which then sees it, and takes it back', async () => {
    const made = await call('POST', '/flavors', rig.admin, {
      flavor: { name: 'private', ram: 512, vcpus: 1, disk: 1, id: 'p1', 'os-flavor-access:is_public': false },
    });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal((await call('GET', '/flavors/p1', rig.demo)).statusCode, 404);
    assert.deepEqual((await call('GET', '/flavors/p1/os-flavor-access', rig.admin)).json(), {
      flavor_access: [],
    });

    const add = await call('POST', '/flavors/p1/action', rig.admin, {
      addTenantAccess: { tenant: demoProject },
    });
    assert.equal(add.statusCode, 200, add.body);
    assert.deepEqual(add.json(), { flavor_access: [{ flavor_id: 'p1', tenant_id: demoProject }] });
    assert.equal((await call('GET', '/flavors/p1', rig.demo)).statusCode, 200);
    const listed = (await call('GET', '/flavors', rig.demo)).json().flavors.map((f: { id: string }) => f.id);
    assert.ok(listed.includes('p1'));
    const twice = await call('POST', '/flavors/p1/action', rig.admin, {
      addTenantAccess: { tenant: demoProject },
    });
    assert.equal(twice.statusCode, 409);

    const remove = await call('POST', '/flavors/p1/action', rig.admin, {
      removeTenantAccess: { tenant: demoProject },
    });
    assert.deepEqual(remove.json(), { flavor_access: [] });
    assert.equal((await call('GET', '/flavors/p1', rig.demo)).statusCode, 404);
    const gone = await call('POST', '/flavors/p1/action', rig.admin, {
      removeTenantAccess: { tenant: demoProject },
    });
    assert.equal(gone.statusCode, 404);
  });

  it('has no access list for a public flavor, and lets only admins change access', async () => {
    assert.equal((await call('GET', '/flavors/1/os-flavor-access', rig.admin)).statusCode, 404);
    const add = await call('POST', '/flavors/1/action', rig.admin, {
      addTenantAccess: { tenant: demoProject },
    });
    assert.equal(add.statusCode, 409);
    assert.match(add.json().conflictingRequest.message, /public flavor/);
    const denied = await call('POST', '/flavors/1/action', rig.demo, {
      addTenantAccess: { tenant: demoProject },
    });
    assert.equal(denied.statusCode, 403);
  });
});
