import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ProjectRecord, Store, Tx, UserRecord } from '../store/contract.js';
import type { Identity } from './identity.js';

/**
 * Standalone identity: projects, users and API tokens kept in Hearth's own store, for a deployment
 * without Keystone. A token is shown once when made; the store keeps only its SHA-256 (tokens are
 * 256 random bits, so a fast hash is enough: there is nothing to brute-force).
 */

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

/** A name or state the request cannot be made with (the CLI prints it; nothing is written). */
export class IdentityError extends Error {
  override readonly name = 'IdentityError';
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function checkName(kind: string, name: string): void {
  if (!NAME.test(name)) {
    throw new IdentityError(
      `invalid ${kind} name "${name}": 1 to 64 letters, digits, _, ., @ or -, starting with a letter or digit`,
    );
  }
}

/** The project named (by id or name), or an IdentityError. */
export async function projectOf(tx: Tx, projectIdOrName: string): Promise<ProjectRecord> {
  const project = await tx.auth.findProject(projectIdOrName);
  if (!project) throw new IdentityError(`project "${projectIdOrName}" not found`);
  return project;
}

/** The user named (by id or name) in a project named (by id or name), or an IdentityError. */
export async function userOf(
  tx: Tx,
  projectIdOrName: string,
  userIdOrName: string,
): Promise<{ project: ProjectRecord; user: UserRecord }> {
  const project = await projectOf(tx, projectIdOrName);
  const user = await tx.auth.findUser(project.id, userIdOrName);
  if (!user) throw new IdentityError(`user "${userIdOrName}" not found in project "${project.name}"`);
  return { project, user };
}

export async function createProject(store: Store, name: string, now = Date.now()): Promise<ProjectRecord> {
  checkName('project', name);
  return store.tx(async (tx) => {
    if (await tx.auth.findProject(name)) throw new IdentityError(`project "${name}" already exists`);
    const project = { id: randomUUID().replaceAll('-', ''), name, createdAt: new Date(now).toISOString() };
    await tx.auth.insertProject(project);
    return project;
  });
}

export async function createUser(
  store: Store,
  projectIdOrName: string,
  name: string,
  roles: readonly string[],
  now = Date.now(),
): Promise<UserRecord> {
  checkName('user', name);
  for (const role of roles) checkName('role', role);
  return store.tx(async (tx) => {
    const project = await projectOf(tx, projectIdOrName);
    if (await tx.auth.findUser(project.id, name)) {
      throw new IdentityError(`user "${name}" already exists in project "${project.name}"`);
    }
    const user = {
      id: randomUUID().replaceAll('-', ''),
      name,
      projectId: project.id,
      roles: [...new Set(roles)],
      createdAt: new Date(now).toISOString(),
      disabledAt: null,
    };
    await tx.auth.insertUser(user);
    return user;
  });
}

/** Keystone's default token lifetime (`[token] expiration`), and `token_expiration`'s. */
export const DEFAULT_TOKEN_EXPIRATION = 3600;

/**
 * Makes an API token for a user; the returned secret is not kept anywhere. It lives `ttlSeconds`
 * (default DEFAULT_TOKEN_EXPIRATION), or for ever with null (until revoked).
 */
export async function createToken(
  store: Store,
  projectIdOrName: string,
  userIdOrName: string,
  options: { ttlSeconds?: number | null; now?: number } = {},
): Promise<{ token: string; id: string; expiresAt: number | null; user: UserRecord }> {
  const now = options.now ?? Date.now();
  const token = `hth_${randomBytes(32).toString('base64url')}`;
  const ttl = options.ttlSeconds === undefined ? DEFAULT_TOKEN_EXPIRATION : options.ttlSeconds;
  const expiresAt = ttl === null ? null : now + ttl * 1000;
  return store.tx(async (tx) => {
    const { user } = await userOf(tx, projectIdOrName, userIdOrName);
    const id = randomUUID();
    await tx.auth.insertToken({
      id,
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt,
      createdAt: new Date(now).toISOString(),
      revokedAt: null,
    });
    return { token, id, expiresAt, user };
  });
}

/** A token's identity, or why it is refused (the API answers 401 with that message). */
export type StandaloneCheck = { identity: Identity } | { rejected: string };

export const UNKNOWN_TOKEN = 'The token is unknown or has expired';

/**
 * Who an API token stands for, judged on the store's rows as they are now: one query, asked on
 * every request and never cached, so a revocation, a disabled or deleted user or a deleted
 * project is refused by every process sharing the store from its next request on.
 */
export async function checkToken(store: Store, token: string, now = Date.now()): Promise<StandaloneCheck> {
  const found = await store.tx((tx) => tx.auth.findToken(hashToken(token)));
  if (!found) return { rejected: UNKNOWN_TOKEN };
  if (found.token.revokedAt !== null) return { rejected: 'The token has been revoked' };
  if (found.token.expiresAt !== null && found.token.expiresAt <= now) return { rejected: UNKNOWN_TOKEN };
  if (found.user.disabledAt !== null) return { rejected: 'The user of this token is disabled' };
  return {
    identity: {
      projectId: found.user.projectId,
      userId: found.user.id,
      userName: found.user.name,
      roles: found.user.roles,
    },
  };
}

/** The identity an API token stands for, or undefined when it is refused. */
export async function verifyToken(
  store: Store,
  token: string,
  now = Date.now(),
): Promise<Identity | undefined> {
  const check = await checkToken(store, token, now);
  return 'identity' in check ? check.identity : undefined;
}

/**
 * Gives a project the cloud (a name in clouds.yaml) its stacks' cloud calls use, or takes it away
 * (null): the project's own credentials, so the cloud keeps projects apart.
 */
export async function setProjectCloud(
  store: Store,
  projectIdOrName: string,
  cloud: string | null,
): Promise<ProjectRecord> {
  if (cloud !== null && !/^[^\s]{1,255}$/.test(cloud)) {
    throw new IdentityError(`invalid cloud name "${cloud}": 1 to 255 characters, no spaces`);
  }
  return store.tx(async (tx) => {
    const project = await tx.auth.findProject(projectIdOrName);
    if (!project) throw new IdentityError(`project "${projectIdOrName}" not found`);
    await tx.auth.setProjectCloud(project.id, cloud);
    return project;
  });
}
