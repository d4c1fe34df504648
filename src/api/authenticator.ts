import { AuthenticationError, type Identity } from '../auth/identity.js';
import type { TokenCheck } from '../auth/keystone.js';
import { checkToken } from '../auth/standalone.js';
import type { AuthMode } from '../config/options.js';
import type { Store } from '../store/contract.js';

/** How the API learns who a request acts for. */
export interface Authenticator {
  readonly mode: AuthMode;
  /**
   * The identity of a request from its headers and the project named in its URL (undefined for
   * routes outside a project). Throws AuthenticationError for missing or bad credentials.
   */
  authenticate(
    headers: Readonly<Record<string, string | string[] | undefined>>,
    urlProject?: string,
  ): Promise<Identity>;
}

function header(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function authToken(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  const token = header(headers, 'x-auth-token');
  return token === undefined || token === '' ? undefined : token;
}

/**
 * Tokens made by `hearth manage token create`, checked against their hashes in the store. Nothing
 * is cached: each request reads its token, user and project (one indexed query), so a revoked
 * token, a disabled or deleted user and a deleted project are refused by every API process from
 * their next request. A cache added here would have to expire within seconds to keep that.
 */
export function standaloneAuthenticator(store: Store, now: () => number = Date.now): Authenticator {
  return {
    mode: 'standalone',
    async authenticate(headers) {
      const token = authToken(headers);
      if (token === undefined)
        throw new AuthenticationError('Authentication required: send an X-Auth-Token header');
      const check = await checkToken(store, token, now());
      if ('rejected' in check) throw new AuthenticationError(check.rejected);
      return check.identity;
    },
  };
}

/**
 * Keystone's tokens, validated by Keystone (through the client's short cache). Keystone being
 * unreachable surfaces as AuthenticationUnavailableError (503), not as a refused token.
 */
export function keystoneAuthenticator(keystone: {
  validate(token: string): Promise<TokenCheck>;
}): Authenticator {
  return {
    mode: 'keystone',
    async authenticate(headers) {
      const token = authToken(headers);
      if (token === undefined)
        throw new AuthenticationError('Authentication required: send an X-Auth-Token header');
      const check = await keystone.validate(token);
      if ('rejected' in check) throw new AuthenticationError(check.rejected);
      return check.identity;
    },
  };
}

/**
 * Heat's noauth flavor: the project is the one in the URL, the user and roles come from the
 * X-User-Id / X-Roles headers when sent (admin otherwise). For trusted loopback use only.
 */
export function noauthAuthenticator(): Authenticator {
  return {
    mode: 'noauth',
    async authenticate(headers, urlProject) {
      const roles = header(headers, 'x-roles');
      const user = header(headers, 'x-user-id') ?? header(headers, 'x-user') ?? 'noauth';
      return {
        projectId: urlProject ?? header(headers, 'x-project-id') ?? 'admin',
        userId: user,
        userName: user,
        roles: roles
          ? roles
              .split(',')
              .map((r) => r.trim())
              .filter((r) => r !== '')
          : ['admin'],
      };
    },
  };
}
