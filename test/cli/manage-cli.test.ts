import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { hashToken, verifyToken } from '../../src/auth/index.js';
import type { Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { workdir } from './helpers.js';

// `hearth manage project|user|token create` through the real command, on one state file.
describe('hearth manage: standalone projects, users and tokens', () => {
  const w = workdir({});
  const json = (args: string[]): Record<string, unknown> => {
    const r = w.run(['manage', ...args, '-f', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  const fails = (args: string[], message: RegExp, code = 1): void => {
    const r = w.run(['manage', ...args]);
    assert.equal(r.code, code, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  };
  let alpha: Record<string, unknown>;
  let alice: Record<string, unknown>;

  before(() => {
    alpha = json(['project', 'create', 'alpha']);
    json(['project', 'create', 'beta']);
    alice = json(['user', 'create', 'alice', '--project', 'alpha', '--role', 'admin', '--role', 'member']);
  });

  it('creates a project: its id (what API URLs carry) and name, in table, json and value formats', () => {
    assert.match(alpha.id as string, /^[0-9a-f]{32}$/);
    assert.equal(alpha.name, 'alpha');
    const table = w.run(['manage', 'project', 'create', 'gamma']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /\| id +\| [0-9a-f]{32} +\|/);
    assert.match(table.stdout, /\| name +\| gamma +\|/);
    const value = w.run(['manage', 'project', 'create', 'delta', '-f', 'value']);
    assert.match(value.stdout, /^[0-9a-f]{32}\ndelta\n$/);
  });

  it('refuses a project name taken or malformed', () => {
    fails(['project', 'create', 'alpha'], /project "alpha" already exists/);
    fails(['project', 'create', 'two words'], /invalid project name "two words"/);
  });

  it('creates a user in a project named by name or id, with repeatable roles', () => {
    assert.match(alice.id as string, /^[0-9a-f]{32}$/);
    assert.equal(alice.project_id, alpha.id);
    assert.equal(alice.roles, 'admin,member');
    const bob = json(['user', 'create', 'bob', '--project', alpha.id as string]);
    assert.equal(bob.project_id, alpha.id);
    assert.equal(bob.roles, '');
  });

  it('refuses a user in an unknown project, twice in one project, or with a bad role name', () => {
    fails(['user', 'create', 'carol', '--project', 'nowhere'], /project "nowhere" not found/);
    fails(
      ['user', 'create', 'alice', '--project', 'alpha'],
      /user "alice" already exists in project "alpha"/,
    );
    fails(
      ['user', 'create', 'dave', '--project', 'alpha', '--role', 'bad role'],
      /invalid role name "bad role"/,
    );
    fails(['user', 'create', 'erin'], /required option '--project/, 2);
  });

  it('makes a token shown once: its user and project, living token_expiration (3600 s) by default', () => {
    const before = Date.now();
    const made = json(['token', 'create', '--project', 'alpha', '--user', 'alice']);
    assert.match(made.token as string, /^hth_[A-Za-z0-9_-]{43}$/);
    assert.match(made.id as string, /^[0-9a-f-]{36}$/);
    assert.equal(made.project_id, alpha.id);
    assert.equal(made.user_id, alice.id);
    const expires = Date.parse(made.expires_at as string);
    assert.ok(expires >= before + 3600_000 && expires <= Date.now() + 3600_000, made.expires_at as string);
    const again = json(['token', 'create', '--project', alpha.id as string, '--user', alice.id as string]);
    assert.notEqual(again.token, made.token);
  });

  it('takes the default lifetime from token_expiration, --ttl for one token, none with --no-expiry', () => {
    const lifetime = (args: string[], env: Record<string, string> = {}) => {
      const before = Date.now();
      const r = w.run(
        ['manage', 'token', 'create', '--project', 'alpha', '--user', 'alice', ...args, '-f', 'json'],
        env,
      );
      assert.equal(r.code, 0, r.stderr);
      const expiresAt = (JSON.parse(r.stdout) as { expires_at: string | null }).expires_at;
      return expiresAt === null
        ? null
        : { from: Date.parse(expiresAt) - Date.now(), to: Date.parse(expiresAt) - before };
    };
    const within = (got: ReturnType<typeof lifetime>, seconds: number) =>
      assert.ok(
        got !== null && got.from <= seconds * 1000 && got.to >= seconds * 1000,
        `${JSON.stringify(got)} vs ${seconds} s`,
      );
    within(lifetime([], { HEARTH_TOKEN_EXPIRATION: '120' }), 120);
    within(lifetime(['--ttl', '90']), 90);
    within(lifetime(['--ttl', '90'], { HEARTH_TOKEN_EXPIRATION: '120' }), 90);
    within(lifetime(['--expires-in', '45']), 45);
    assert.equal(lifetime(['--no-expiry']), null);
  });

  it('refuses a bad lifetime, an unknown user, or a user of another project', () => {
    for (const bad of ['0', 'soon', '-5']) {
      fails(
        ['token', 'create', '--project', 'alpha', '--user', 'alice', `--ttl=${bad}`],
        new RegExp(`--ttl must be a positive number of seconds, got "${bad}"`),
      );
    }
    fails(
      ['token', 'create', '--project', 'alpha', '--user', 'alice', '--ttl', '60', '--no-expiry'],
      /--ttl and --no-expiry contradict each other/,
    );
    fails(
      ['token', 'create', '--project', 'alpha', '--user', 'zed'],
      /user "zed" not found in project "alpha"/,
    );
    json(['user', 'create', 'bea', '--project', 'beta']);
    fails(
      ['token', 'create', '--project', 'alpha', '--user', 'bea'],
      /user "bea" not found in project "alpha"/,
    );
  });

  describe('the state file', () => {
    let store: Store;
    let token: string;
    before(async () => {
      token = json(['token', 'create', '--project', 'alpha', '--user', 'alice']).token as string;
      store = await openStore(w.db);
    });
    after(() => store.close());

    it('keeps only the token’s hash: the token verifies to its user, and is nowhere in the files', async () => {
      const identity = await verifyToken(store, token);
      assert.deepEqual(identity, {
        projectId: alpha.id,
        userId: alice.id,
        userName: 'alice',
        roles: ['admin', 'member'],
      });
      const found = await store.tx((tx) => tx.auth.findToken(hashToken(token)));
      assert.equal(found?.user.id, alice.id);
      for (const file of [w.db, `${w.db}-wal`]) {
        if (!existsSync(file)) continue;
        const bytes = readFileSync(file);
        assert.equal(bytes.indexOf(token), -1, `${file} holds the token`);
        assert.equal(bytes.indexOf(token.slice(4)), -1, `${file} holds the token's secret part`);
      }
    });
  });
});
