import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import { type CliResult, hearth } from './helpers.js';
import { type ServeProcess, startServe } from './serve-process.js';

// Two real `hearth serve --auth standalone` processes on one PostgreSQL database: what
// `hearth manage` changes about credentials (a revoked token, a disabled user, a deleted project)
// holds on both within seconds. The ceiling is generous; the test asserts that it happened.

const CEILING_MS = 15_000;
const TEMPLATE = JSON.stringify({
  heat_template_version: '2018-08-31',
  resources: { r: { type: 'OS::Heat::None' } },
});

describe(
  'credentials changed by hearth manage, on two API servers sharing PostgreSQL',
  await postgresSuiteOptions(),
  () => {
    let db: string;
    const servers: ServeProcess[] = [];
    let project: string;

    const manage = (args: string[]): CliResult => hearth(['--db', db, 'manage', ...args]);
    const json = <T = Record<string, unknown>>(args: string[]): T => {
      const r = manage([...args, '-f', 'json']);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout) as T;
    };
    const newToken = (user: string) =>
      json<{ token: string; id: string }>(['token', 'create', '--project', 'acme', '--user', user]);

    async function call(
      server: ServeProcess,
      token: string,
      method = 'GET',
      path = '/stacks',
      body?: unknown,
    ) {
      const res = await fetch(`${server.url}/v1/${project}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          'x-auth-token': token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        redirect: 'manual',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, text, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    }
    const statusOn = async (server: ServeProcess, token: string) => (await call(server, token)).status;

    /** Polls until every server answers `token` with `status`; fails past the ceiling. */
    async function untilBoth(token: string, status: number, what: string): Promise<void> {
      const deadline = Date.now() + CEILING_MS;
      let seen: number[] = [];
      for (;;) {
        seen = await Promise.all(servers.map((s) => statusOn(s, token)));
        if (seen.every((s) => s === status)) return;
        if (Date.now() > deadline)
          assert.fail(`${what}: after ${CEILING_MS} ms the servers answer ${seen.join(', ')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    before(async () => {
      db = await freshSchemaUrl();
      project = json<{ id: string }>(['project', 'create', 'acme']).id;
      json(['user', 'create', 'ann', '--project', 'acme']);
      json(['user', 'create', 'bob', '--project', 'acme']);
      for (let i = 0; i < 2; i++) {
        servers.push(await startServe(['--db', db, 'serve', '--auth', 'standalone', '--port', '0']));
      }
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await dropSchemas();
    });

    it('a revoked token is refused by both servers; another token of the same user still works', async () => {
      const [revoked, kept] = [newToken('ann'), newToken('ann')];
      for (const server of servers) {
        assert.equal(await statusOn(server, revoked.token), 200);
        assert.equal(await statusOn(server, kept.token), 200);
      }
      assert.equal(manage(['token', 'revoke', revoked.id]).code, 0);
      await untilBoth(revoked.token, 401, 'revoked token');
      const refused = await call(servers[1]!, revoked.token);
      assert.match(refused.text, /The token has been revoked/);
      assert.ok(!refused.text.includes(revoked.token));
      for (const server of servers) assert.equal(await statusOn(server, kept.token), 200);
    });

    it('a disabled user’s tokens are refused by both servers, and accepted again once it is enabled', async () => {
      const bob = newToken('bob');
      await untilBoth(bob.token, 200, 'a new token');
      assert.equal(manage(['user', 'disable', 'acme', 'bob']).code, 0);
      await untilBoth(bob.token, 401, 'disabled user');
      assert.match((await call(servers[0]!, bob.token)).text, /The user of this token is disabled/);
      assert.equal(manage(['user', 'enable', 'acme', 'bob']).code, 0);
      await untilBoth(bob.token, 200, 'enabled again');
    });

    it('a project is not deleted while it owns a stack; once deleted, its tokens are refused by both', async () => {
      const ann = newToken('ann');
      const created = await call(servers[0]!, ann.token, 'POST', '/stacks', {
        stack_name: 'app',
        template: TEMPLATE,
      });
      assert.equal(created.status, 201, created.text);
      const id = (created.body as { stack: { id: string } }).stack.id;
      const refused = manage(['project', 'delete', 'acme']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /project "acme" still owns 1 stack/);
      await untilBoth(ann.token, 200, 'after a refused delete');

      // Deleted through the other server; its workers (or the first's) run the delete.
      const deleting = await call(servers[1]!, ann.token, 'DELETE', `/stacks/app/${id}`);
      assert.equal(deleting.status, 204, deleting.text);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const shown = await call(servers[1]!, ann.token, 'GET', `/stacks/app/${id}`);
        const status = (shown.body as { stack?: { stack_status?: string } } | undefined)?.stack?.stack_status;
        if (shown.status === 404 || status === 'DELETE_COMPLETE') break;
        if (Date.now() > deadline)
          assert.fail(`the stack was not deleted within 60 s: ${shown.status} ${status}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const deleted = manage(['project', 'delete', 'acme']);
      assert.equal(deleted.code, 0, deleted.stderr);
      await untilBoth(ann.token, 401, 'deleted project');
    });
  },
);
