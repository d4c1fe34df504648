import { createHash, randomUUID } from 'node:crypto';
import type { SandboxObject, SandboxState } from '../state.js';

/**
 * Keystone's objects as the sandbox stores them: projects, users with their role assignments,
 * application credentials, tokens and trusts; and the seeded identities.
 */

export const DEFAULT_DOMAIN = { id: 'default', name: 'Default' };

export type Project = SandboxObject & {
  name: string;
  /** Absent in state files written before projects could be disabled: enabled. */
  enabled?: boolean;
  description?: string;
};
export type User = SandboxObject & {
  name: string;
  passwordHash: string;
  /** The project the user is seeded in (its default project, scoped to when none is asked). */
  projectId: string;
  /** Its roles on `projectId` (state files before `assignments` hold only these). */
  roles: string[];
  /** Role names by project id, `projectId`'s included. */
  assignments?: Record<string, string[]>;
  enabled?: boolean;
};
export type AppCredential = SandboxObject & {
  name: string;
  secretHash: string;
  userId: string;
  projectId: string;
};
export type Token = SandboxObject & {
  /** The user the token speaks for: the trustor of an impersonating trust. */
  userId: string;
  projectId: string;
  methods: string[];
  issuedAt: number;
  expiresAt: number;
  /** The trust it was scoped with (its roles are the trust's), if any. */
  trustId?: string;
};
export type Trust = SandboxObject & {
  trustor_user_id: string;
  trustee_user_id: string;
  project_id: string;
  impersonation: boolean;
  /** Role names. */
  roles: string[];
  expires_at: string | null;
  remaining_uses: number | null;
};

/** The roles the sandbox knows (Keystone's defaults, and `service` for service users). */
export const ROLES = ['admin', 'member', 'reader', 'service'] as const;

export const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
export const newId = () => randomUUID().replace(/-/g, '');
export const roleId = (name: string) => hash(`role/${name}`).slice(0, 32);
export const roleRef = (name: string) => ({ id: roleId(name), name });
/** A role name from a role's id or name, or undefined when the sandbox has no such role. */
export const findRole = (idOrName: string): string | undefined =>
  ROLES.find((r) => r === idOrName || roleId(r) === idOrName);

export const enabled = (o: { enabled?: boolean } | undefined): boolean =>
  o !== undefined && o.enabled !== false;

/** The user's roles on a project (none: the user is not a member). */
export function rolesOn(user: User, projectId: string): string[] {
  return user.assignments?.[projectId] ?? (projectId === user.projectId ? user.roles : []);
}

/** Grants a role on a project (stored; idempotent). */
export function assignRole(state: SandboxState, user: User, projectId: string, role: string): User {
  const assignments = { ...(user.assignments ?? { [user.projectId]: user.roles }) };
  const roles = assignments[projectId] ?? [];
  if (!roles.includes(role)) assignments[projectId] = [...roles, role];
  return state.put<User>('user', null, { ...user, assignments, roles: assignments[user.projectId] ?? [] });
}

export function findUserByName(state: SandboxState, name: string): User | undefined {
  return state.list<User>('user', { equal: { name: [name] } })[0];
}
export function findProjectByName(state: SandboxState, name: string): Project | undefined {
  return state.list<Project>('project', { equal: { name: [name] } })[0];
}

/** A user in a project of its own (or the named one), password = name; nothing when it exists. */
export function seedUser(state: SandboxState, name: string, roles: string[], projectName = name): void {
  if (findUserByName(state, name)) return;
  const project =
    findProjectByName(state, projectName) ??
    state.put<Project>('project', null, { id: newId(), name: projectName, enabled: true });
  state.put<User>('user', null, {
    id: newId(),
    name,
    passwordHash: hash(name),
    projectId: project.id,
    roles,
    assignments: { [project.id]: roles },
    enabled: true,
  });
}

/**
 * The sandbox's users, each password = name: `admin` (project admin, role admin), `demo` and each
 * of `users` (a project of the same name, roles member and reader), and Hearth's service user
 * `hearth` (project service, role service), as a Heat deployment's service user.
 */
export function seedIdentity(state: SandboxState, users: readonly string[] = []): void {
  state.transaction(() => {
    seedUser(state, 'admin', ['admin', 'member', 'reader']);
    for (const name of ['demo', ...users]) seedUser(state, name, ['member', 'reader']);
    seedUser(state, 'hearth', ['service'], 'service');
  });
}

/** A trust that can still be used: not deleted and not expired. */
export function liveTrust(state: SandboxState, id: string, now: number): Trust | undefined {
  const trust = state.get<Trust>('trust', id);
  if (!trust || (trust.expires_at !== null && Date.parse(trust.expires_at) <= now)) return undefined;
  return trust;
}
