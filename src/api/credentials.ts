import type { SecretBox } from '../auth/deployment-key.js';
import type { Identity } from '../auth/identity.js';
import type { KeystoneTrusts } from '../auth/trusts.js';
import { type CredentialSource, DEPLOYMENT, type StackOwner } from '../engine/core/deps.js';
import type { StackCredentials } from '../store/contract.js';
import { authToken } from './authenticator.js';
import type { ApiDeps, TrustMaker } from './deps.js';

// `hearth serve` names the trust maker's type here (the CLI imports no other API module).
export type { TrustMaker } from './deps.js';

/**
 * Whose credentials a stack created through the API acts with, by the server's auth mode: keystone,
 * a trust from the requesting user (made with the request's own token, as Heat does); standalone,
 * the project's own cloud; noauth (loopback, development), the configured cloud.
 */

type Headers = Readonly<Record<string, string | string[] | undefined>>;

export function newStackCredentials(
  deps: ApiDeps,
  identity: Identity,
  headers: Headers,
): StackCredentials | CredentialSource {
  switch (deps.authenticator.mode) {
    case 'noauth':
      return DEPLOYMENT;
    case 'standalone':
      return { kind: 'project' };
    case 'keystone': {
      const token = authToken(headers);
      // `hearth serve` always has a trust maker; without one (an API built for tests) the stack
      // acts as its project would in standalone mode.
      return deps.trusts && token !== undefined ? deps.trusts(identity, token) : { kind: 'project' };
    }
  }
}

/** Whose cloud a validate or a preview looks things up in: no trust is made for a check. */
export function checkingOwner(deps: ApiDeps, identity: Identity): StackOwner {
  const credentials: StackCredentials =
    deps.authenticator.mode === 'noauth' ? DEPLOYMENT : { kind: 'project' };
  return { projectId: identity.projectId, credentials };
}

/** The trust maker of `hearth serve --auth keystone`: trusts sealed with the deployment key. */
export function keystoneTrustMaker(trusts: KeystoneTrusts, box: SecretBox): TrustMaker {
  return (identity, token) => ({
    async obtain() {
      const id = await trusts.create(token, identity);
      return { kind: 'trust', sealedTrustId: box.seal(id, identity.projectId), trustorId: identity.userId };
    },
    async discard(credentials) {
      if (credentials.kind !== 'trust') return;
      await trusts.delete(box.open(credentials.sealedTrustId, identity.projectId));
    },
  });
}
