/** Who a request acts for: the project whose stacks it may see, and the roles it holds there. */
export interface Identity {
  projectId: string;
  userId: string;
  userName: string;
  roles: string[];
}

/** The role that may act across projects (e.g. list every project's stacks with global_tenant). */
export const ADMIN_ROLE = 'admin';

export function isAdmin(identity: Identity): boolean {
  return identity.roles.includes(ADMIN_ROLE);
}

/** Bad or missing credentials: the API answers 401. */
export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}

/** The service that checks credentials cannot be asked now (Keystone down): the API answers 503. */
export class AuthenticationUnavailableError extends Error {
  override readonly name = 'AuthenticationUnavailableError';
}
