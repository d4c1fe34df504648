import type { ProjectRecord, Store, TokenListing, UserRecord } from '../store/contract.js';
import { IdentityError, projectOf, userOf } from './standalone.js';

/**
 * The lifecycle of standalone credentials after they are made: listing, disabling and deleting
 * users, deleting projects, revoking tokens. Each change is one transaction; the API judges every
 * request's token on the rows as they are (`checkToken`), so a change here holds for every process
 * sharing the store from its next request on.
 */

export type TokenState = 'active' | 'expired' | 'revoked' | 'user disabled';

/** Why a token would be refused now, or `active`: in the order `checkToken` judges. */
export function tokenState(token: TokenListing, now = Date.now()): TokenState {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt !== null && token.expiresAt <= now) return 'expired';
  if (token.userDisabled) return 'user disabled';
  return 'active';
}

export function listProjects(store: Store): Promise<ProjectRecord[]> {
  return store.tx((tx) => tx.auth.listProjects());
}

/** The users of one project (by id or name), or of every project, each with its project's name. */
export function listUsers(
  store: Store,
  projectIdOrName?: string,
): Promise<(UserRecord & { projectName: string })[]> {
  return store.tx(async (tx) => {
    const projects = new Map((await tx.auth.listProjects()).map((p) => [p.id, p.name]));
    const projectId = projectIdOrName === undefined ? undefined : (await projectOf(tx, projectIdOrName)).id;
    const users = await tx.auth.listUsers(projectId);
    return users.map((u) => ({ ...u, projectName: projects.get(u.projectId) ?? u.projectId }));
  });
}

/** Disables a user (its tokens are refused while it is) or enables it again. */
export function setUserEnabled(
  store: Store,
  projectIdOrName: string,
  userIdOrName: string,
  enabled: boolean,
  now = Date.now(),
): Promise<UserRecord> {
  return store.tx(async (tx) => {
    const { user } = await userOf(tx, projectIdOrName, userIdOrName);
    // Disabling a disabled user keeps when it was first disabled.
    const disabledAt = enabled ? null : (user.disabledAt ?? new Date(now).toISOString());
    await tx.auth.setUserDisabled(user.id, disabledAt);
    return { ...user, disabledAt };
  });
}

/** Deletes a user and its tokens. */
export function deleteUser(store: Store, projectIdOrName: string, userIdOrName: string): Promise<UserRecord> {
  return store.tx(async (tx) => {
    const { user } = await userOf(tx, projectIdOrName, userIdOrName);
    await tx.auth.deleteUser(user.id);
    return user;
  });
}

/**
 * Deletes a project, its users and their tokens; refused while the project owns a stack that is
 * not deleted (nested stacks included), whose resources would be left without an owner.
 */
export function deleteProject(store: Store, projectIdOrName: string): Promise<ProjectRecord> {
  return store.tx(async (tx) => {
    const project = await projectOf(tx, projectIdOrName);
    const stacks = await tx.stacks.count({ projectId: project.id });
    if (stacks > 0) {
      throw new IdentityError(
        `project "${project.name}" still owns ${stacks} stack${stacks === 1 ? '' : 's'} ` +
          '(nested stacks included): delete them first',
      );
    }
    await tx.auth.deleteProject(project.id);
    return project;
  });
}

/** Tokens of a project, or of one of its users (`user` needs `project`), or every token. */
export function listTokens(
  store: Store,
  filter: { project?: string; user?: string },
): Promise<TokenListing[]> {
  return store.tx(async (tx) => {
    if (filter.user !== undefined) {
      if (filter.project === undefined)
        throw new IdentityError('a user is named within its project: give the project too');
      const { user } = await userOf(tx, filter.project, filter.user);
      return tx.auth.listTokens({ userId: user.id });
    }
    if (filter.project === undefined) return tx.auth.listTokens({});
    return tx.auth.listTokens({ projectId: (await projectOf(tx, filter.project)).id });
  });
}

/**
 * Revokes tokens by id: all of them or, when one is unknown, none. Returns them as they are now
 * (revoking a revoked token changes nothing).
 */
export function revokeTokens(
  store: Store,
  ids: readonly string[],
  now = Date.now(),
): Promise<TokenListing[]> {
  return store.tx(async (tx) => {
    const unique = [...new Set(ids)];
    const unknown: string[] = [];
    for (const id of unique) if (!(await tx.auth.getToken(id))) unknown.push(id);
    if (unknown.length > 0) {
      throw new IdentityError(`token${unknown.length === 1 ? '' : 's'} not found: ${unknown.join(', ')}`);
    }
    await tx.auth.revokeTokens({ ids: unique }, new Date(now).toISOString());
    const revoked: TokenListing[] = [];
    for (const id of unique) revoked.push((await tx.auth.getToken(id))!);
    return revoked;
  });
}

/** Revokes every token of a user; returns the user's tokens as they are now. */
export function revokeUserTokens(
  store: Store,
  projectIdOrName: string,
  userIdOrName: string,
  now = Date.now(),
): Promise<TokenListing[]> {
  return store.tx(async (tx) => {
    const { user } = await userOf(tx, projectIdOrName, userIdOrName);
    await tx.auth.revokeTokens({ userId: user.id }, new Date(now).toISOString());
    return tx.auth.listTokens({ userId: user.id });
  });
}
