import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Command } from 'commander';
import { readUsers, registerSandboxCommands } from '../../src/cli/commands/sandbox.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { caller, passwordAuth, userId } from './keystone-helpers.js';
import { login } from './support.js';

const scoped = (name: string, project: string, password = name) => ({
  auth: {
    identity: passwordAuth(name, password),
    scope: { project: { name: project, domain: { name: 'Default' } } },
  },
});

describe('sandbox identities: seeded users, the service user, and the Keystone admin API', () => {
  let app: FastifyInstance;
  const call = () => caller(app);
  before(async () => {
    ({ app } = createSandbox({ users: ['alice', 'bob'] }));
    await app.ready();
  });
  after(() => app.close());

  it('seeds each extra user in its own project with roles member and reader, and no other project', async () => {
    for (const name of ['alice', 'bob']) {
      const r = await call()('POST', '/identity/v3/auth/tokens', undefined, scoped(name, name));
      assert.equal(r.statusCode, 201, r.body);
      assert.equal(r.json().token.project.name, name);
      assert.deepEqual(
        r
          .json()
          .token.roles.map((x: { name: string }) => x.name)
          .sort(),
        ['member', 'reader'],
      );
    }
    const other = await call()('POST', '/identity/v3/auth/tokens', undefined, scoped('alice', 'bob'));
    assert.equal(other.statusCode, 401);
  });

  it('seeds the service user hearth (project service, role service), which can validate a user token', async () => {
    const r = await call()('POST', '/identity/v3/auth/tokens', undefined, scoped('hearth', 'service'));
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual(
      r.json().token.roles.map((x: { name: string }) => x.name),
      ['service'],
    );
    const service = r.headers['x-subject-token'] as string;
    const alice = await login(app, 'alice');
    const check = await app.inject({
      method: 'GET',
      url: '/identity/v3/auth/tokens?nocatalog',
      headers: { 'x-auth-token': service, 'x-subject-token': alice.token },
    });
    assert.equal(check.statusCode, 200, check.body);
    assert.equal(check.json().token.user.name, 'alice');
    assert.equal(check.json().token.project.id, alice.projectId);
    assert.equal(check.json().token.catalog, undefined);
    // As Keystone's policy: another plain user may not validate it, nor anyone without a token.
    const bob = await login(app, 'bob');
    const byBob = await app.inject({
      method: 'GET',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-auth-token': bob.token, 'x-subject-token': alice.token },
    });
    assert.equal(byBob.statusCode, 403, byBob.body);
    const anonymous = await app.inject({
      method: 'GET',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-subject-token': alice.token },
    });
    assert.equal(anonymous.statusCode, 401);
    const revokeByBob = await app.inject({
      method: 'DELETE',
      url: '/identity/v3/auth/tokens',
      headers: { 'x-auth-token': bob.token, 'x-subject-token': alice.token },
    });
    assert.equal(revokeByBob.statusCode, 403);
  });

  it('refuses the admin API to a non-admin with 403', async () => {
    const { token } = await login(app, 'alice');
    for (const [method, url, payload] of [
      ['POST', '/identity/v3/projects', { project: { name: 'x' } }],
      ['GET', '/identity/v3/projects', undefined],
      ['POST', '/identity/v3/users', { user: { name: 'x' } }],
      ['GET', '/identity/v3/users', undefined],
    ] as const) {
      const r = await call()(method, url, token, payload);
      assert.equal(r.statusCode, 403, `${method} ${url}: ${r.body}`);
      assert.equal(r.json().error.code, 403);
    }
    assert.equal((await call()('GET', '/identity/v3/projects')).statusCode, 401);
  });

  it('creates a project and a user, grants a role, and the user logs in there', async () => {
    const { token: admin } = await login(app, 'admin');
    const project = await call()('POST', '/identity/v3/projects', admin, { project: { name: 'team' } });
    assert.equal(project.statusCode, 201, project.body);
    const projectId = project.json().project.id as string;
    assert.equal(project.json().project.enabled, true);
    const dup = await call()('POST', '/identity/v3/projects', admin, { project: { name: 'team' } });
    assert.equal(dup.statusCode, 409);
    const user = await call()('POST', '/identity/v3/users', admin, {
      user: { name: 'carol', password: 'secret', default_project_id: projectId },
    });
    assert.equal(user.statusCode, 201, user.body);
    const carolId = user.json().user.id as string;
    assert.equal(user.json().user.default_project_id, projectId);
    // A default project grants nothing until a role is assigned.
    assert.equal(
      (await call()('POST', '/identity/v3/auth/tokens', undefined, scoped('carol', 'team', 'secret')))
        .statusCode,
      401,
    );
    const unknownRole = await call()(
      'PUT',
      `/identity/v3/projects/${projectId}/users/${carolId}/roles/wizard`,
      admin,
    );
    assert.equal(unknownRole.statusCode, 404);
    const member = (await call()('GET', '/identity/v3/roles?name=member', admin)).json().roles[0]
      .id as string;
    const grant = await call()(
      'PUT',
      `/identity/v3/projects/${projectId}/users/${carolId}/roles/${member}`,
      admin,
    );
    assert.equal(grant.statusCode, 204, grant.body);
    const r = await call()('POST', '/identity/v3/auth/tokens', undefined, scoped('carol', 'team', 'secret'));
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual(
      r.json().token.roles.map((x: { name: string }) => x.name),
      ['member'],
    );
    assert.equal((await call()('GET', '/identity/v3/projects?name=team', admin)).json().projects.length, 1);
    // Granted a role on demo too, carol may scope to either.
    const demoProject = (await login(app, 'demo')).projectId;
    await call()('PUT', `/identity/v3/projects/${demoProject}/users/${carolId}/roles/reader`, admin);
    const mine = await call()('GET', '/identity/v3/auth/projects', r.headers['x-subject-token'] as string);
    assert.deepEqual(
      mine
        .json()
        .projects.map((p: { name: string }) => p.name)
        .sort(),
      ['demo', 'team'],
    );
    const there = await call()(
      'POST',
      '/identity/v3/auth/tokens',
      undefined,
      scoped('carol', 'demo', 'secret'),
    );
    assert.deepEqual(
      there.json().token.roles.map((x: { name: string }) => x.name),
      ['reader'],
    );
    assert.equal(
      (await call()('GET', `/identity/v3/projects/${projectId}`, r.headers['x-subject-token'] as string))
        .statusCode,
      200,
    );
  });

  it('stops a disabled user from logging in and its tokens from working, until enabled again', async () => {
    const { token: admin } = await login(app, 'admin');
    const bobId = await userId(app, admin, 'bob');
    const { token } = await login(app, 'bob');
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 200);
    const off = await call()('PATCH', `/identity/v3/users/${bobId}`, admin, { user: { enabled: false } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().user.enabled, false);
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 401);
    assert.equal(
      (await call()('POST', '/identity/v3/auth/tokens', undefined, scoped('bob', 'bob'))).statusCode,
      401,
    );
    await call()('PATCH', `/identity/v3/users/${bobId}`, admin, { user: { enabled: true } });
    assert.equal((await call()('GET', '/compute/v2.1/servers', token)).statusCode, 200);
    const bad = await call()('PATCH', `/identity/v3/users/${bobId}`, admin, { user: { enabled: 'no' } });
    assert.equal(bad.statusCode, 400);
  });

  it('deletes a user (its tokens stop working) and a project', async () => {
    const { token: admin } = await login(app, 'admin');
    const user = await call()('POST', '/identity/v3/users', admin, { user: { name: 'dave', password: 'd' } });
    const daveId = user.json().user.id as string;
    const demoProject = (await login(app, 'demo')).projectId;
    await call()('PUT', `/identity/v3/projects/${demoProject}/users/${daveId}/roles/member`, admin);
    const r = await call()('POST', '/identity/v3/auth/tokens', undefined, scoped('dave', 'demo', 'd'));
    assert.equal(r.statusCode, 201, r.body);
    const token = r.headers['x-subject-token'] as string;
    assert.equal((await call()('DELETE', `/identity/v3/users/${daveId}`, admin)).statusCode, 204);
    assert.equal((await call()('GET', '/network/v2.0/networks', token)).statusCode, 401);
    assert.equal((await call()('GET', `/identity/v3/users/${daveId}`, admin)).statusCode, 404);
    assert.equal((await call()('DELETE', `/identity/v3/users/${daveId}`, admin)).statusCode, 404);

    const project = await call()('POST', '/identity/v3/projects', admin, { project: { name: 'gone' } });
    const id = project.json().project.id as string;
    assert.equal((await call()('DELETE', `/identity/v3/projects/${id}`, admin)).statusCode, 204);
    assert.equal((await call()('GET', `/identity/v3/projects/${id}`, admin)).statusCode, 404);
  });

  it('answers malformed admin requests with 400, not a crash', async () => {
    const { token: admin } = await login(app, 'admin');
    for (const [url, payload] of [
      ['/identity/v3/users', {}],
      ['/identity/v3/users', { user: { name: '' } }],
      ['/identity/v3/users', { user: { name: 'eve', password: 5 } }],
      ['/identity/v3/projects', { project: 'x' }],
      ['/identity/v3/projects', { project: { name: 'p', enabled: 'yes' } }],
    ] as const) {
      const r = await call()('POST', url, admin, payload);
      assert.equal(r.statusCode, 400, `${url} ${JSON.stringify(payload)}: ${r.body}`);
    }
  });
});

describe('hearth sandbox serve --print-env', () => {
  it('prints export lines a shell evals, and exits', () => {
    const command = [
      process.execPath,
      ...hearthNodeArgs(),
      'sandbox',
      'serve',
      '--port',
      '8799',
      '--print-env',
    ]
      .map((word) => `'${word}'`)
      .join(' ');
    const r = spawnSync('bash', ['-c', `eval "$(${command})" && echo "$OS_AUTH_URL $OS_PROJECT_NAME"`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'http://127.0.0.1:8799/identity/v3 demo\n');
  });
});

describe('hearth sandbox serve --users', () => {
  it('reads a comma-separated list and refuses a blank or odd name', () => {
    assert.deepEqual(readUsers('alice, bob,alice'), ['alice', 'bob']);
    assert.deepEqual(readUsers(undefined), []);
    assert.throws(() => readUsers('alice,,bob'), /--users: not a user name/);
    assert.throws(() => readUsers('a b'), /--users/);
  });

  it('seeds the named users in the served cloud', async () => {
    const program = new Command().exitOverride();
    let printed = '';
    const listening = new Promise<string>((resolve) =>
      registerSandboxCommands(program, (text) => {
        printed += text;
        resolve(/listening on (\S+)/.exec(text)![1]!);
      }),
    );
    const before = process.listeners('SIGTERM');
    const served = program.parseAsync([
      'node',
      'hearth',
      'sandbox',
      'serve',
      '--port',
      '0',
      '--users',
      'alice',
    ]);
    const url = await listening;
    try {
      const r = await fetch(`${url}/identity/v3/auth/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          auth: {
            identity: passwordAuth('alice'),
            scope: { project: { name: 'alice', domain: { name: 'Default' } } },
          },
        }),
      });
      assert.equal(r.status, 201, await r.text());
      assert.match(printed, /alice\/alice, hearth\/hearth/);
      // The banner's export lines, pasted into a shell, set the client's variables.
      const pasted = printed.split('\n').filter((line) => line.startsWith('export '));
      const shell = spawnSync('bash', ['-c', `${pasted.join('\n')}\necho "$OS_AUTH_URL $OS_USERNAME"`], {
        encoding: 'utf8',
      });
      assert.equal(shell.stdout, `${url}/identity/v3 demo\n`);
    } finally {
      // Only the command's own handler: the test runner's (if any) must not run.
      const stop = process.listeners('SIGTERM').find((l) => !before.includes(l));
      assert.ok(stop, 'serve listens for SIGTERM');
      stop('SIGTERM');
      await served;
    }
  });
});
