import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { CallLog } from '../../src/sandbox/calls.js';
import { createSandbox, type CallRecord } from '../../src/sandbox/index.js';
import { caller, trustLogin, userId } from './keystone-helpers.js';
import { login } from './support.js';

describe('sandbox calls log (GET /admin/calls)', () => {
  let app: FastifyInstance;
  const call = () => caller(app);
  const calls = async (since: number): Promise<CallRecord[]> => {
    const r = await call()('GET', `/admin/calls?since=${since}`);
    assert.equal(r.statusCode, 200, r.body);
    return r.json().calls as CallRecord[];
  };
  const last = async () => (await call()('GET', '/admin/calls?since=0')).json().last as number;

  before(async () => {
    ({ app } = createSandbox({ users: ['alice'] }));
    await app.ready();
  });
  after(() => app.close());

  it('records each call with the user, project and trust of its token', async () => {
    const admin = (await login(app, 'admin')).token;
    const aliceId = await userId(app, admin, 'alice');
    const alice = await login(app, 'alice');
    const trust = await call()('POST', '/identity/v3/OS-TRUST/trusts', alice.token, {
      trust: {
        trustor_user_id: aliceId,
        trustee_user_id: await userId(app, admin, 'hearth'),
        project_id: alice.projectId,
        impersonation: true,
        roles: [{ name: 'member' }],
      },
    });
    const trustId = trust.json().trust.id as string;
    const { token } = await trustLogin(app, 'hearth', trustId);
    const from = await last();

    await call()('GET', '/compute/v2.1/servers?limit=5', alice.token);
    await call()('POST', '/network/v2.0/networks', token, { network: { name: 'n' } });
    await call()('GET', '/volume/v3/x/volumes');
    const seen = await calls(from);
    assert.deepEqual(
      seen.map((c) => [c.method, c.service, c.path, c.status]),
      [
        ['GET', 'compute', '/compute/v2.1/servers', 200],
        ['POST', 'network', '/network/v2.0/networks', 201],
        ['GET', 'volume', '/volume/v3/x/volumes', 401],
      ],
    );
    assert.deepEqual(
      seen.map((c) => [c.user_id, c.user_name, c.project_id, c.trust_id]),
      [
        [aliceId, 'alice', alice.projectId, null],
        [aliceId, 'alice', alice.projectId, trustId],
        [null, null, null, null],
      ],
    );
    assert.ok(seen.every((c, i) => c.seq === from + 1 + i && !Number.isNaN(Date.parse(c.at))));
    assert.deepEqual(await calls(from + 2), [seen[2]]);
  });

  it('records Keystone calls too (a login as the user who logged in), not its own /admin reads', async () => {
    const from = await last();
    await login(app, 'alice');
    await calls(0);
    const seen = await calls(from);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.service, 'identity');
    assert.equal(seen[0]!.path, '/identity/v3/auth/tokens');
    assert.equal(seen[0]!.user_name, 'alice');
  });

  it('records a call the noise failed, with its caller', async () => {
    const alice = await login(app, 'alice');
    await call()('PUT', '/admin/noise', undefined, { serverErrorRate: 1 });
    const from = await last();
    try {
      assert.equal((await call()('GET', '/compute/v2.1/servers', alice.token)).statusCode, 503);
    } finally {
      await call()('PUT', '/admin/noise', undefined, { serverErrorRate: 0 });
    }
    const [failed] = await calls(from);
    assert.equal(failed!.status, 503);
    assert.equal(failed!.user_name, 'alice');
  });

  it('records a call to an unknown route, and holds each call once its answer is out (over HTTP)', async () => {
    const from = await last();
    await call()('GET', '/compute/v2.1/no-such-thing', (await login(app, 'alice')).token);
    const [unknown] = (await calls(from)).filter((c) => c.service === 'compute');
    assert.equal(unknown!.status, 404);
    assert.equal(unknown!.user_name, 'alice');

    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { token } = await login(app, 'alice');
    for (let i = 0; i < 10; i++) {
      const since = await last();
      const r = await fetch(`${url}/network/v2.0/networks?i=${i}`, { headers: { 'x-auth-token': token } });
      assert.equal(r.status, 200);
      const seen = (await (await fetch(`${url}/admin/calls?since=${since}`)).json()) as {
        calls: CallRecord[];
      };
      assert.deepEqual(
        seen.calls.map((c) => [c.path, c.user_name]),
        [['/network/v2.0/networks', 'alice']],
      );
    }
  });

  it('refuses a since that is not a number', async () => {
    const r = await call()('GET', '/admin/calls?since=yesterday');
    assert.equal(r.statusCode, 400);
  });
});

describe('CallLog', () => {
  it('keeps only the latest calls, oldest first', () => {
    const log = new CallLog(3);
    const entry = {
      at: '',
      method: 'GET',
      service: 'compute',
      status: 200,
      user_id: null,
      user_name: null,
      project_id: null,
      trust_id: null,
    } as const;
    for (let i = 1; i <= 5; i++) log.record({ ...entry, path: `/${i}` });
    assert.deepEqual(
      log.since(0).map((c) => [c.seq, c.path]),
      [
        [3, '/3'],
        [4, '/4'],
        [5, '/5'],
      ],
    );
    assert.deepEqual(
      log.since(4).map((c) => c.seq),
      [5],
    );
    assert.deepEqual(log.since(5), []);
    assert.equal(log.last, 5);
  });
});
