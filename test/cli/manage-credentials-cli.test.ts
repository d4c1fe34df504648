import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkToken } from '../../src/auth/index.js';
import type { Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { stack } from '../store/fixtures.js';
import { workdir } from './helpers.js';

// `hearth manage project|user|token list/delete/disable/enable/revoke` through the real command,
// checked against what the API's token check (checkToken) answers on the same state file.
describe('hearth manage: the lifecycle of standalone credentials', () => {
  const w = workdir({});
  const run = (args: string[]) => w.run(['manage', ...args]);
  const json = <T = Record<string, unknown>>(args: string[]): T => {
    const r = run([...args, '-f', 'json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  const ok = (args: string[]) => {
    const r = run(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const fails = (args: string[], message: RegExp): void => {
    const r = run(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  };
  const newToken = (project: string, user: string) =>
    json<{ token: string; id: string }>(['token', 'create', '--project', project, '--user', user]);
  type Row = { id: string; project: string; user: string; expires_at: string; state: string };
  const tokens = (...filter: string[]) => json<Row[]>(['token', 'list', ...filter]);
  const stateOf = (id: string) => tokens().find((t) => t.id === id)?.state;

  let store: Store;
  const verdict = async (token: string) => {
    const check = await checkToken(store, token);
    return 'identity' in check ? 'accepted' : check.rejected;
  };
  let alpha: { id: string };

  before(async () => {
    alpha = json(['project', 'create', 'alpha']);
    json(['project', 'create', 'beta']);
    for (const [name, project] of [
      ['ann', 'alpha'],
      ['bob', 'alpha'],
      ['cat', 'beta'],
    ]) {
      json(['user', 'create', name!, '--project', project!]);
    }
    store = await openStore(w.db);
  });
  after(() => store.close());

  it('lists projects and users (all, or one project’s), with whether each user is enabled', () => {
    const projects = json<{ name: string; id: string }[]>(['project', 'list']);
    assert.deepEqual(
      projects.map((p) => p.name),
      ['alpha', 'beta'],
    );
    const users = json<{ name: string; project: string; enabled: boolean }[]>(['user', 'list']);
    assert.deepEqual(
      users.map((u) => `${u.project}/${u.name}/${u.enabled}`),
      ['alpha/ann/true', 'alpha/bob/true', 'beta/cat/true'],
    );
    assert.deepEqual(
      json<{ name: string }[]>(['user', 'list', '--project', 'beta']).map((u) => u.name),
      ['cat'],
    );
    assert.match(ok(['project', 'list']), /\| id +\| name +\| created_at +\|/);
    fails(['user', 'list', '--project', 'nowhere'], /project "nowhere" not found/);
  });

  it('lists tokens by project and user with their state, never their secret', async () => {
    const made = newToken('alpha', 'ann');
    const never = json<{ id: string }>([
      'token',
      'create',
      '--project',
      'beta',
      '--user',
      'cat',
      '--no-expiry',
    ]);
    const row = tokens('--project', 'alpha', '--user', 'ann').find((t) => t.id === made.id);
    assert.deepEqual(Object.keys(row ?? {}), ['id', 'project', 'user', 'created_at', 'expires_at', 'state']);
    assert.equal(row?.project, 'alpha');
    assert.equal(row?.user, 'ann');
    assert.equal(row?.state, 'active');
    assert.equal(tokens('--project', 'beta').find((t) => t.id === never.id)?.expires_at, 'never');
    assert.ok(tokens('--project', 'beta').every((t) => t.project === 'beta'));
    for (const format of ['table', 'json', 'yaml', 'value']) {
      const out = ok(['token', 'list', '-f', format]);
      assert.ok(out.includes(made.id), format);
      assert.ok(!out.includes(made.token) && !out.includes(made.token.slice(4)), `${format} shows a secret`);
      assert.doesNotMatch(out, /[0-9a-f]{64}/, `${format} shows a hash`);
    }
    fails(['token', 'list', '--user', 'ann'], /a user is named within its project: give the project too/);
    assert.equal(await verdict(made.token), 'accepted');
  });

  it('revokes tokens by id: refused from then on, and listed as revoked', async () => {
    const [one, two, other] = [newToken('alpha', 'ann'), newToken('alpha', 'ann'), newToken('alpha', 'ann')];
    const revoked = json<Row[]>(['token', 'revoke', one.id, two.id]);
    assert.deepEqual(
      revoked.map((t) => `${t.id} ${t.state}`),
      [`${one.id} revoked`, `${two.id} revoked`],
    );
    assert.equal(await verdict(one.token), 'The token has been revoked');
    assert.equal(await verdict(two.token), 'The token has been revoked');
    assert.equal(await verdict(other.token), 'accepted');
    assert.equal(stateOf(one.id), 'revoked');
    assert.equal(stateOf(other.id), 'active');
    // Revoking again changes nothing; an unknown id revokes nothing at all.
    ok(['token', 'revoke', one.id]);
    fails(['token', 'revoke', other.id, 'no-such-token'], /token not found: no-such-token/);
    assert.equal(await verdict(other.token), 'accepted');
  });

  it('revokes every token of one user with --project and --user', async () => {
    const [a1, a2, b1] = [newToken('alpha', 'ann'), newToken('alpha', 'ann'), newToken('alpha', 'bob')];
    const listed = json<Row[]>(['token', 'revoke', '--project', 'alpha', '--user', 'ann']);
    assert.ok(listed.length >= 2 && listed.every((t) => t.user === 'ann' && t.state === 'revoked'));
    assert.equal(await verdict(a1.token), 'The token has been revoked');
    assert.equal(await verdict(a2.token), 'The token has been revoked');
    assert.equal(await verdict(b1.token), 'accepted');
    fails(['token', 'revoke', '--user', 'ann'], /--project and --user go together/);
    fails(['token', 'revoke'], /give the ids of the tokens to revoke, or --project and --user/);
    fails(['token', 'revoke', a1.id, '--project', 'alpha', '--user', 'ann'], /not both/);
    fails(
      ['token', 'revoke', '--project', 'alpha', '--user', 'zed'],
      /user "zed" not found in project "alpha"/,
    );
  });

  it('disables a user (its tokens refused) and enables it again (they work again)', async () => {
    const made = newToken('alpha', 'bob');
    const disabled = json<{ enabled: boolean; disabled_at: string }>(['user', 'disable', 'alpha', 'bob']);
    assert.equal(disabled.enabled, false);
    assert.ok(Number.isFinite(Date.parse(disabled.disabled_at)));
    assert.equal(await verdict(made.token), 'The user of this token is disabled');
    assert.equal(stateOf(made.id), 'user disabled');
    assert.equal(json<{ enabled: boolean }[]>(['user', 'list', '--project', 'alpha'])[1]?.enabled, false);
    const enabled = json<{ enabled: boolean; disabled_at: null }>(['user', 'enable', alpha.id, 'bob']);
    assert.deepEqual([enabled.enabled, enabled.disabled_at], [true, null]);
    assert.equal(await verdict(made.token), 'accepted');
    fails(['user', 'disable', 'alpha', 'cat'], /user "cat" not found in project "alpha"/);
  });

  it('deletes a user: its tokens are refused and gone from the list; its name is free again', async () => {
    json(['user', 'create', 'dan', '--project', 'alpha']);
    const made = newToken('alpha', 'dan');
    assert.equal(ok(['user', 'delete', 'alpha', 'dan']), '');
    assert.equal(await verdict(made.token), 'The token is unknown or has expired');
    assert.equal(stateOf(made.id), undefined);
    fails(['user', 'delete', 'alpha', 'dan'], /user "dan" not found in project "alpha"/);
    json(['user', 'create', 'dan', '--project', 'alpha']);
    assert.equal(await verdict(made.token), 'The token is unknown or has expired', 'not the new dan’s');
  });

  it('refuses to delete a project while it owns a stack, nested ones included; then deletes it', async () => {
    json(['project', 'create', 'gamma']);
    const gamma = json<{ id: string; name: string }[]>(['project', 'list']).find((p) => p.name === 'gamma')!;
    json(['user', 'create', 'eve', '--project', 'gamma']);
    const made = newToken('gamma', 'eve');
    const parent = stack({ projectId: gamma.id, name: 'app' });
    const child = stack({ projectId: gamma.id, name: 'app-child', parentId: parent.id, rootId: parent.id });
    await store.tx(async (tx) => {
      await tx.stacks.insert(parent);
      await tx.stacks.insert(child);
      await tx.stacks.insert(
        stack({ projectId: gamma.id, name: 'gone', deletedAt: '2024-05-02T00:00:00.000Z' }),
      );
    });
    fails(
      ['project', 'delete', 'gamma'],
      /project "gamma" still owns 2 stacks \(nested stacks included\): delete them first/,
    );
    // The parent's row deleted while its nested stack is not: still refused.
    await store.tx((tx) => tx.stacks.update(parent.id, null, { deletedAt: '2024-05-02T00:00:00.000Z' }));
    fails(['project', 'delete', gamma.id], /still owns 1 stack \(nested/);
    assert.equal(await verdict(made.token), 'accepted', 'a refused delete changes nothing');
    await store.tx((tx) => tx.stacks.update(child.id, null, { deletedAt: '2024-05-02T00:00:00.000Z' }));
    assert.equal(ok(['project', 'delete', 'gamma']), '');
    assert.equal(await verdict(made.token), 'The token is unknown or has expired');
    assert.ok(!json<{ name: string }[]>(['project', 'list']).some((p) => p.name === 'gamma'));
    assert.ok(!json<{ project: string }[]>(['user', 'list']).some((u) => u.project === 'gamma'));
    assert.deepEqual(
      tokens().filter((t) => t.project === 'gamma'),
      [],
    );
    fails(['project', 'delete', 'gamma'], /project "gamma" not found/);
  });
});
