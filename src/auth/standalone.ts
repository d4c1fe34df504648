import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ProjectRecord, Store, UserRecord } from '../store/contract.js';
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
    const project = await tx.auth.findProject(projectIdOrName);
    if (!project) throw new IdentityError(`project "${projectIdOrName}" not found`);
    if (await tx.auth.findUser(project.id, name)) {
      throw new IdentityError(`user "${name}" already exists in project "${project.name}"`);
    }
    const user = {
      id: randomUUID().replaceAll('-', ''),
      name,
      projectId: project.id,
      roles: [...new Set(roles)],
      createdAt: new Date(now).toISOString(),
    };
    await tx.auth.insertUser(user);
    return user;
  });
}

/** Makes an API token for a user; the returned secret is not kept anywhere. */
export async function createToken(
  store: Store,
  projectIdOrName: string,
  userIdOrName: string,
  options: { ttlSeconds?: number; now?: number } = {},
): Promise<{ token: string; id: string; expiresAt: number | null; user: UserRecord }> {
  const now = options.now ?? Date.now();
  const token = `hth_${randomBytes(32).toString('base64url')}`;
  const expiresAt = options.ttlSeconds === undefined ? null : now + options.ttlSeconds * 1000;
  return store.tx(async (tx) => {
    const project = await tx.auth.findProject(projectIdOrName);
    if (!project) throw new IdentityError(`project "${projectIdOrName}" not found`);
    const user = await tx.auth.findUser(project.id, userIdOrName);
    if (!user) throw new IdentityError(`user "${userIdOrName}" not found in project "${project.name}"`);
    const id = randomUUID();
    await tx.auth.insertToken({
      id,
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt,
      createdAt: new Date(now).toISOString(),
    });
    return { token, id, expiresAt, user };
  });
}

/** The identity an API token stands for, or undefined when it is unknown or expired. */
export async function verifyToken(
  store: Store,
  token: string,
  now = Date.now(),
): Promise<Identity | undefined> {
  const found = await store.tx((tx) => tx.auth.findToken(hashToken(token)));
  if (!found) return undefined;
  if (found.token.expiresAt !== null && found.token.expiresAt <= now) return undefined;
  return {
    projectId: found.user.projectId,
    userId: found.user.id,
    userName: found.user.name,
    roles: found.user.roles,
  };
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
