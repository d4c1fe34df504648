import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { caller, passwordAuth, trustLogin, userId } from './keystone-helpers.js';
import { login } from './support.js';

/** OS-TRUST: alice delegates to Hearth's service user, which then acts as alice. */

describe('sandbox Keystone trusts', () => {
  let app: FastifyInstance;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const call = () => caller(app);
  const ids: Record<string, string> = {};
  let alice: { token: string; projectId: string };

  before(async () => {
    ({ app } = createSandbox({ users: ['alice', 'bob'], now: () => clock }));
    await app.ready();
    const admin = (await login(app, 'admin')).token;
    for (const name of ['alice', 'bob', 'hearth', 'admin']) ids[name] = await userId(app, admin, name);
    alice = await login(app, 'alice');
  });
  after(() => app.close());

  const trustBody = (fields: Record<string, unknown> = {}) => ({
    trust: {
      trustor_user_id: ids.alice,
      trustee_user_id: ids.hearth,
      project_id: alice.projectId,
      impersonation: true,
      roles: [{ name: 'member' }],
      ...fields,
    },
  });
  const createTrust = async (fields: Record<string, unknown> = {}) => {
    const r = await call()('POST', '/identity/v3/OS-TRUST/trusts', alice.token, trustBody(fields));
    assert.equal(r.statusCode, 201, r.body);
    return r.json().trust as Record<string, unknown> & { id: string };
  };

  it('creates a trust as Keystone answers it', async () => {
    const trust = await createTrust({ remaining_uses: 5 });
    assert.equal(trust.trustor_user_id, ids.alice);
    assert.equal(trust.trustee_user_id, ids.hearth);
    assert.equal(trust.project_id, alice.projectId);
    assert.equal(trust.impersonation, true);
    assert.equal(trust.expires_at, null);
    assert.equal(trust.remaining_uses, 5);
    assert.deepEqual(
      (trust.roles as { name: string }[]).map((r) => r.name),
      ['member'],
    );
    assert.match(
      (trust.links as { self: string }).self,
      new RegExp(`/identity/v3/OS-TRUST/trusts/${trust.id}$`),
    );
    assert.ok(trust.roles_links);
  });

  it('lets only the trustor create a trust, with roles it holds on the project', async () => {
    const bob = await login(app, 'bob');
    const notTrustor = await call()('POST', '/identity/v3/OS-TRUST/trusts', bob.token, trustBody());
    assert.equal(notTrustor.statusCode, 403, notTrustor.body);
    // Keystone's answer for a role the trustor does not hold: RoleNotFound.
    const notHeld = await call()(
      'POST',
      '/identity/v3/OS-TRUST/trusts',
      alice.token,
      trustBody({ roles: [{ name: 'admin' }] }),
    );
    assert.equal(notHeld.statusCode, 404, notHeld.body);
    const otherProject = await call()(
      'POST',
      '/identity/v3/OS-TRUST/trusts',
      alice.token,
      trustBody({ project_id: bob.projectId }),
    );
    assert.equal(otherProject.statusCode, 404, otherProject.body);
    for (const fields of [
      { roles: [] },
      { roles: 'member' },
      { impersonation: 'yes' },
      { expires_at: 'soon' },
      { remaining_uses: 0 },
    ]) {
      const r = await call()('POST', '/identity/v3/OS-TRUST/trusts', alice.token, trustBody(fields));
      assert.ok([400, 403].includes(r.statusCode), `${JSON.stringify(fields)}: ${r.statusCode} ${r.body}`);
      assert.ok(r.json().error.message);
    }
    assert.equal((await call()('POST', '/identity/v3/OS-TRUST/trusts', alice.token, {})).statusCode, 400);
    assert.equal(
      (await call()('POST', '/identity/v3/OS-TRUST/trusts', undefined, trustBody())).statusCode,
      401,
    );
  });

  it('gives the trustee an impersonating token: the trustor, on the trust project, with the trust roles', async () => {
    const trust = await createTrust();
    const { response, token } = await trustLogin(app, 'hearth', trust.id);
    const body = response.json().token;
    assert.equal(body.user.id, ids.alice);
    assert.equal(body.project.id, alice.projectId);
    assert.deepEqual(
      body.roles.map((r: { name: string }) => r.name),
      ['member'],
    );
    assert.deepEqual(body['OS-TRUST:trust'], {
      id: trust.id,
      impersonation: true,
      trustor_user: { id: ids.alice },
      trustee_user: { id: ids.hearth },
    });
    const volume = body.catalog.find((s: { type: string }) => s.type === 'volumev3');
    assert.match(volume.endpoints[0].url, new RegExp(`/volume/v3/${alice.projectId}$`));
    // What it creates is alice's.
    const net = await call()('POST', '/network/v2.0/networks', token, { network: { name: 'by-trust' } });
    assert.equal(net.statusCode, 201, net.body);
    assert.equal(net.json().network.project_id, alice.projectId);
    const seen = await call()('GET', '/network/v2.0/networks?name=by-trust', alice.token);
    assert.equal(seen.json().networks.length, 1);
  });

  it('gives a non-impersonating token the trustee as user, on the trust project', async () => {
    const trust = await createTrust({ impersonation: false });
    const { response } = await trustLogin(app, 'hearth', trust.id);
    assert.equal(response.json().token.user.id, ids.hearth);
    assert.equal(response.json().token.project.id, alice.projectId);
    assert.equal(response.json().token['OS-TRUST:trust'].impersonation, false);
  });

  it('accepts the trustee’s token as the credential, and refuses anyone else (403) or a re-scope (403)', async () => {
    const trust = await createTrust();
    const hearth = await call()('POST', '/identity/v3/auth/tokens', undefined, {
      auth: { identity: passwordAuth('hearth'), scope: { project: { name: 'service' } } },
    });
    const serviceToken = hearth.headers['x-subject-token'] as string;
    const byToken = await call()('POST', '/identity/v3/auth/tokens', undefined, {
      auth: {
        identity: { methods: ['token'], token: { id: serviceToken } },
        scope: { 'OS-TRUST:trust': { id: trust.id } },
      },
    });
    assert.equal(byToken.statusCode, 201, byToken.body);
    assert.equal(byToken.json().token.user.id, ids.alice);
    await trustLogin(app, 'bob', trust.id, 403);
    const rescope = await call()('POST', '/identity/v3/auth/tokens', undefined, {
      auth: {
        identity: { methods: ['token'], token: { id: byToken.headers['x-subject-token'] } },
        scope: { 'OS-TRUST:trust': { id: trust.id } },
      },
    });
    assert.equal(rescope.statusCode, 403, rescope.body);
    await trustLogin(app, 'hearth', 'no-such-trust', 401);
  });

  it('shows a trust to its trustor, its trustee and admins only, and lists by trustor or trustee', async () => {
    const trust = await createTrust();
    const hearth = (await trustLogin(app, 'hearth', trust.id)).token;
    const admin = (await login(app, 'admin')).token;
    const bob = (await login(app, 'bob')).token;
    for (const token of [alice.token, hearth, admin]) {
      const r = await call()('GET', `/identity/v3/OS-TRUST/trusts/${trust.id}`, token);
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.json().trust.id, trust.id);
    }
    assert.equal((await call()('GET', `/identity/v3/OS-TRUST/trusts/${trust.id}`, bob)).statusCode, 403);
    assert.equal((await call()('GET', '/identity/v3/OS-TRUST/trusts/nope', alice.token)).statusCode, 404);
    const mine = await call()(
      'GET',
      `/identity/v3/OS-TRUST/trusts?trustor_user_id=${ids.alice}`,
      alice.token,
    );
    assert.equal(mine.statusCode, 200, mine.body);
    assert.ok(mine.json().trusts.some((t: { id: string }) => t.id === trust.id));
    assert.ok(mine.json().trusts.every((t: { trustor_user_id: string }) => t.trustor_user_id === ids.alice));
    const asBob = await call()('GET', `/identity/v3/OS-TRUST/trusts?trustor_user_id=${ids.bob}`, bob);
    assert.deepEqual(asBob.json().trusts, []);
    assert.equal(
      (await call()('GET', `/identity/v3/OS-TRUST/trusts?trustor_user_id=${ids.alice}`, bob)).statusCode,
      403,
    );
    assert.equal((await call()('GET', '/identity/v3/OS-TRUST/trusts', bob)).statusCode, 403);
    const all = await call()('GET', `/identity/v3/OS-TRUST/trusts?trustee_user_id=${ids.hearth}`, admin);
    assert.ok(all.json().trusts.length >= 1);
  });

  it('deletes a trust (trustor through an impersonating token; not the trustee): its tokens then get 401', async () => {
    const trust = await createTrust();
    const { token } = await trustLogin(app, 'hearth', trust.id);
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 200);
    const other = await createTrust({ impersonation: false });
    const asTrustee = (await trustLogin(app, 'hearth', other.id)).token;
    assert.equal(
      (await call()('DELETE', `/identity/v3/OS-TRUST/trusts/${other.id}`, asTrustee)).statusCode,
      403,
    );

    assert.equal((await call()('DELETE', `/identity/v3/OS-TRUST/trusts/${trust.id}`, token)).statusCode, 204);
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 401);
    assert.equal(
      (await call()('GET', `/identity/v3/OS-TRUST/trusts/${trust.id}`, alice.token)).statusCode,
      404,
    );
    assert.equal(
      (await call()('DELETE', `/identity/v3/OS-TRUST/trusts/${trust.id}`, alice.token)).statusCode,
      404,
    );
    await trustLogin(app, 'hearth', trust.id, 401);
    const admin = (await login(app, 'admin')).token;
    assert.equal((await call()('DELETE', `/identity/v3/OS-TRUST/trusts/${other.id}`, admin)).statusCode, 204);
  });

  it('ends an expired trust and its tokens, and counts remaining_uses', async () => {
    const expiring = await createTrust({ expires_at: new Date(clock + 60_000).toISOString() });
    const { token } = await trustLogin(app, 'hearth', expiring.id);
    clock += 120_000;
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 401);
    await trustLogin(app, 'hearth', expiring.id, 401);
    const past = await call()(
      'POST',
      '/identity/v3/OS-TRUST/trusts',
      alice.token,
      trustBody({ expires_at: new Date(clock - 1000).toISOString() }),
    );
    assert.equal(past.statusCode, 400, past.body);

    const once = await createTrust({ remaining_uses: 1 });
    await trustLogin(app, 'hearth', once.id);
    await trustLogin(app, 'hearth', once.id, 401);
  });

  it('stops the tokens of a trust whose trustor is disabled (403 for new ones)', async () => {
    const trust = await createTrust();
    const { token } = await trustLogin(app, 'hearth', trust.id);
    const admin = (await login(app, 'admin')).token;
    await call()('PATCH', `/identity/v3/users/${ids.alice}`, admin, { user: { enabled: false } });
    try {
      assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 401);
      await trustLogin(app, 'hearth', trust.id, 403);
    } finally {
      await call()('PATCH', `/identity/v3/users/${ids.alice}`, admin, { user: { enabled: true } });
    }
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 200);
  });

  it('stops the tokens of a trust whose trustor loses a delegated role, and deletes the trusts of a deleted user', async () => {
    const trust = await createTrust();
    const { token } = await trustLogin(app, 'hearth', trust.id);
    const admin = (await login(app, 'admin')).token;
    const grant = `/identity/v3/projects/${alice.projectId}/users/${ids.alice}/roles/member`;
    assert.equal((await call()('DELETE', grant, admin)).statusCode, 204);
    try {
      assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 401);
      await trustLogin(app, 'hearth', trust.id, 403);
    } finally {
      assert.equal((await call()('PUT', grant, admin)).statusCode, 204);
    }
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 200);

    const made = await call()('POST', '/identity/v3/users', admin, { user: { name: 'erin', password: 'e' } });
    const erinId = made.json().user.id as string;
    await call()('PUT', `/identity/v3/projects/${alice.projectId}/users/${erinId}/roles/member`, admin);
    const erin = await call()('POST', '/identity/v3/auth/tokens', undefined, {
      auth: { identity: passwordAuth('erin', 'e'), scope: { project: { id: alice.projectId } } },
    });
    const erinTrust = await call()(
      'POST',
      '/identity/v3/OS-TRUST/trusts',
      erin.headers['x-subject-token'] as string,
      {
        trust: { ...trustBody().trust, trustor_user_id: erinId },
      },
    );
    assert.equal(erinTrust.statusCode, 201, erinTrust.body);
    assert.equal((await call()('DELETE', `/identity/v3/users/${erinId}`, admin)).statusCode, 204);
    const gone = await call()('GET', `/identity/v3/OS-TRUST/trusts/${erinTrust.json().trust.id}`, admin);
    assert.equal(gone.statusCode, 404);
  });
});
