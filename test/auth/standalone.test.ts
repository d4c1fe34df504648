import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  checkToken,
  createProject,
  createToken,
  createUser,
  deleteProject,
  listTokens,
  revokeTokens,
  setUserEnabled,
  tokenState,
} from '../../src/auth/index.js';
import type { Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';

// The verdict on a standalone token (what the API answers) and the state listings show agree,
// judged at a given time.
describe('standalone tokens: checkToken and tokenState', () => {
  let store: Store;
  const NOW = Date.parse('2026-01-01T00:00:00Z');
  const verdict = async (token: string, at = NOW) => {
    const check = await checkToken(store, token, at);
    return 'identity' in check ? `${check.identity.userName}@${check.identity.projectId}` : check.rejected;
  };
  const state = async (id: string, at = NOW) =>
    tokenState(
      (await listTokens(store, {})).find((t) => t.id === id)!,
      at,
    );

  before(async () => {
    store = await openStore(':memory:');
    await createProject(store, 'p');
    await createUser(store, 'p', 'u', ['member']);
  });
  after(() => store.close());

  it('a token lives its ttl (3600 s by default), or for ever with null', async () => {
    const byDefault = await createToken(store, 'p', 'u', { now: NOW });
    const short = await createToken(store, 'p', 'u', { now: NOW, ttlSeconds: 10 });
    const forever = await createToken(store, 'p', 'u', { now: NOW, ttlSeconds: null });
    assert.equal(byDefault.expiresAt, NOW + 3600_000);
    const project = byDefault.user.projectId;
    assert.equal(await verdict(short.token, NOW + 9_999), `u@${project}`);
    assert.equal(await state(short.id, NOW + 9_999), 'active');
    assert.equal(await verdict(short.token, NOW + 10_000), 'The token is unknown or has expired');
    assert.equal(await state(short.id, NOW + 10_000), 'expired');
    assert.equal(forever.expiresAt, null);
    assert.equal(await verdict(forever.token, NOW + 10 * 365 * 86_400_000), `u@${project}`);
  });

  it('revoked comes before expired, and a disabled user after both', async () => {
    const made = await createToken(store, 'p', 'u', { now: NOW, ttlSeconds: 10 });
    await setUserEnabled(store, 'p', 'u', false, NOW);
    assert.equal(await verdict(made.token), 'The user of this token is disabled');
    assert.equal(await state(made.id), 'user disabled');
    assert.equal(await state(made.id, NOW + 20_000), 'expired');
    await revokeTokens(store, [made.id], NOW);
    assert.equal(await verdict(made.token), 'The token has been revoked');
    assert.equal(await state(made.id, NOW + 20_000), 'revoked');
    await setUserEnabled(store, 'p', 'u', true, NOW);
  });

  it('a disabled user stays disabled since its first disabling; a deleted project refuses its tokens', async () => {
    const first = await setUserEnabled(store, 'p', 'u', false, NOW);
    const again = await setUserEnabled(store, 'p', 'u', false, NOW + 5000);
    assert.equal(again.disabledAt, first.disabledAt);
    await setUserEnabled(store, 'p', 'u', true, NOW);
    const made = await createToken(store, 'p', 'u', { now: NOW, ttlSeconds: null });
    await deleteProject(store, 'p');
    assert.equal(await verdict(made.token), 'The token is unknown or has expired');
  });
});
