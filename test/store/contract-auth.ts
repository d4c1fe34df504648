import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProjectRecord, Store, TokenRecord, UserRecord } from '../../src/store/contract.js';
import { T0, withStore } from './fixtures.js';

const T1 = '2024-05-01T13:00:00.000Z';
const T2 = '2024-05-01T14:00:00.000Z';

function project(id: string, name = id): ProjectRecord {
  return { id, name, createdAt: T0 };
}

function user(id: string, projectId: string, overrides: Partial<UserRecord> = {}): UserRecord {
  return { id, name: id, projectId, roles: ['member'], createdAt: T0, disabledAt: null, ...overrides };
}

function token(id: string, userId: string, overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    id,
    tokenHash: `hash-${id}`,
    userId,
    expiresAt: null,
    createdAt: T0,
    revokedAt: null,
    ...overrides,
  };
}

/** Projects p1 (users u1, u2) and p2 (user u3); tokens k1, k2 of u1, k3 of u2, k4 of u3. */
async function seed(store: Store): Promise<void> {
  await store.tx(async (tx) => {
    await tx.auth.insertProject(project('p2', 'beta'));
    await tx.auth.insertProject(project('p1', 'alpha'));
    await tx.auth.insertUser(user('u2', 'p1', { name: 'zoe' }));
    await tx.auth.insertUser(user('u1', 'p1', { name: 'ann', roles: ['admin', 'member'] }));
    await tx.auth.insertUser(user('u3', 'p2', { name: 'bob' }));
    await tx.auth.insertToken(token('k1', 'u1', { expiresAt: 1_700_000_000_000 }));
    await tx.auth.insertToken(token('k2', 'u1', { createdAt: T1 }));
    await tx.auth.insertToken(token('k3', 'u2', { createdAt: T2 }));
    await tx.auth.insertToken(token('k4', 'u3'));
  });
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

export function authContract(open: () => Promise<Store>): void {
  describe('auth (standalone projects, users, tokens)', () => {
    it('finds a token by hash with its user, state fields round-tripped, in one read', () =>
      withStore(open, async (store) => {
        await seed(store);
        const found = await store.tx((tx) => tx.auth.findToken('hash-k1'));
        assert.deepEqual(found, {
          token: token('k1', 'u1', { expiresAt: 1_700_000_000_000 }),
          user: user('u1', 'p1', { name: 'ann', roles: ['admin', 'member'] }),
        });
        assert.equal(await store.tx((tx) => tx.auth.findToken('hash-none')), undefined);
      }));

    it('lists projects by name and users by project name then name', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.deepEqual(
          (await store.tx((tx) => tx.auth.listProjects())).map((p) => p.name),
          ['alpha', 'beta'],
        );
        assert.deepEqual(
          (await store.tx((tx) => tx.auth.listUsers())).map((u) => u.name),
          ['ann', 'zoe', 'bob'],
        );
        assert.deepEqual(ids(await store.tx((tx) => tx.auth.listUsers('p2'))), ['u3']);
        assert.deepEqual(await store.tx((tx) => tx.auth.listUsers('nowhere')), []);
      }));

    it('disables and enables a user: what findToken returns follows', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.equal(await store.tx((tx) => tx.auth.setUserDisabled('u1', T1)), true);
        assert.equal((await store.tx((tx) => tx.auth.findToken('hash-k1')))?.user.disabledAt, T1);
        assert.equal((await store.tx((tx) => tx.auth.findUser('p1', 'ann')))?.disabledAt, T1);
        const listed = await store.tx((tx) => tx.auth.listTokens({ userId: 'u1' }));
        assert.deepEqual(
          listed.map((t) => t.userDisabled),
          [true, true],
        );
        assert.equal(await store.tx((tx) => tx.auth.setUserDisabled('u1', null)), true);
        assert.equal((await store.tx((tx) => tx.auth.findToken('hash-k1')))?.user.disabledAt, null);
        assert.equal(await store.tx((tx) => tx.auth.setUserDisabled('nobody', T1)), false);
      }));

    it('lists tokens oldest first, by project or user, with names and state but never the hash', () =>
      withStore(open, async (store) => {
        await seed(store);
        const all = await store.tx((tx) => tx.auth.listTokens({}));
        // k1 and k4 were made at T0 (the id breaks the tie), k2 at T1, k3 at T2.
        assert.deepEqual(ids(all), ['k1', 'k4', 'k2', 'k3']);
        assert.deepEqual(all[0], {
          id: 'k1',
          userId: 'u1',
          expiresAt: 1_700_000_000_000,
          createdAt: T0,
          revokedAt: null,
          userName: 'ann',
          projectId: 'p1',
          projectName: 'alpha',
          userDisabled: false,
        });
        for (const t of all) assert.ok(!('tokenHash' in t) && !JSON.stringify(t).includes('hash-'));
        assert.deepEqual(ids(await store.tx((tx) => tx.auth.listTokens({ projectId: 'p1' }))), [
          'k1',
          'k2',
          'k3',
        ]);
        assert.deepEqual(ids(await store.tx((tx) => tx.auth.listTokens({ userId: 'u1' }))), ['k1', 'k2']);
        assert.deepEqual(
          ids(await store.tx((tx) => tx.auth.listTokens({ projectId: 'p2', userId: 'u1' }))),
          [],
        );
        assert.equal((await store.tx((tx) => tx.auth.getToken('k3')))?.userName, 'zoe');
        assert.equal(await store.tx((tx) => tx.auth.getToken('nope')), undefined);
      }));

    it('revokes tokens by id once: the first revocation time stays, unknown ids are ignored', () =>
      withStore(open, async (store) => {
        await seed(store);
        const first = await store.tx((tx) => tx.auth.revokeTokens({ ids: ['k2', 'k1', 'nope'] }, T1));
        assert.deepEqual(first, ['k1', 'k2']);
        assert.deepEqual(await store.tx((tx) => tx.auth.revokeTokens({ ids: ['k1', 'k3'] }, T2)), ['k3']);
        assert.deepEqual(await store.tx((tx) => tx.auth.revokeTokens({ ids: [] }, T2)), []);
        const revoked = await store.tx((tx) => tx.auth.listTokens({}));
        assert.deepEqual(Object.fromEntries(revoked.map((t) => [t.id, t.revokedAt])), {
          k1: T1,
          k2: T1,
          k3: T2,
          k4: null,
        });
        assert.equal((await store.tx((tx) => tx.auth.findToken('hash-k1')))?.token.revokedAt, T1);
      }));

    it('revokes every token of one user and no other', () =>
      withStore(open, async (store) => {
        await seed(store);
        await store.tx((tx) => tx.auth.revokeTokens({ ids: ['k1'] }, T1));
        assert.deepEqual(await store.tx((tx) => tx.auth.revokeTokens({ userId: 'u1' }, T2)), ['k2']);
        const states = await store.tx((tx) => tx.auth.listTokens({}));
        assert.deepEqual(Object.fromEntries(states.map((t) => [t.id, t.revokedAt])), {
          k1: T1,
          k2: T2,
          k3: null,
          k4: null,
        });
      }));

    it('deletes a user with its tokens, and nothing of another user', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.equal(await store.tx((tx) => tx.auth.deleteUser('u1')), true);
        assert.equal(await store.tx((tx) => tx.auth.findToken('hash-k1')), undefined);
        assert.equal(await store.tx((tx) => tx.auth.findUser('p1', 'ann')), undefined);
        assert.deepEqual(ids(await store.tx((tx) => tx.auth.listTokens({}))).sort(), ['k3', 'k4']);
        assert.equal(await store.tx((tx) => tx.auth.deleteUser('u1')), false);
        // The name is free again; the new user's tokens are its own.
        await store.tx((tx) => tx.auth.insertUser(user('u9', 'p1', { name: 'ann' })));
        assert.deepEqual(await store.tx((tx) => tx.auth.listTokens({ userId: 'u9' })), []);
      }));

    it('deletes a project with its users and their tokens, and nothing of another project', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.equal(await store.tx((tx) => tx.auth.deleteProject('p1')), true);
        assert.equal(await store.tx((tx) => tx.auth.findProject('alpha')), undefined);
        assert.deepEqual(ids(await store.tx((tx) => tx.auth.listUsers())), ['u3']);
        assert.deepEqual(ids(await store.tx((tx) => tx.auth.listTokens({}))), ['k4']);
        for (const hash of ['hash-k1', 'hash-k2', 'hash-k3'])
          assert.equal(await store.tx((tx) => tx.auth.findToken(hash)), undefined, hash);
        assert.equal((await store.tx((tx) => tx.auth.findToken('hash-k4')))?.user.id, 'u3');
        assert.equal(await store.tx((tx) => tx.auth.deleteProject('p1')), false);
      }));

    it('finds no token whose user or project is gone, even if its row is left', () =>
      withStore(open, async (store) => {
        await store.tx(async (tx) => {
          await tx.auth.insertProject(project('p1'));
          await tx.auth.insertUser(user('u1', 'p1'));
          await tx.auth.insertUser(user('orphan', 'no-such-project'));
          await tx.auth.insertToken(token('k1', 'u1'));
          await tx.auth.insertToken(token('k2', 'orphan'));
          await tx.auth.insertToken(token('k3', 'no-such-user'));
        });
        assert.equal((await store.tx((tx) => tx.auth.findToken('hash-k1')))?.token.id, 'k1');
        assert.equal(await store.tx((tx) => tx.auth.findToken('hash-k2')), undefined);
        assert.equal(await store.tx((tx) => tx.auth.findToken('hash-k3')), undefined);
      }));
  });
}
