import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import type { SandboxState } from '../state.js';
import { type Body, object, unauthorized } from './common.js';
import {
  type AppCredential,
  enabled,
  hash,
  liveTrust,
  type Project,
  rolesOn,
  type Trust,
  type User,
} from './model.js';

/** What `POST /v3/auth/tokens` authenticates: by password, application credential or token. */

export interface Authenticated {
  /** Whom the token speaks for (the trustor, through an impersonating trust). */
  userId: string;
  projectId: string;
  methods: string[];
  trustId?: string;
}

function findUser(state: SandboxState, user: Body): User | undefined {
  const users = state.list<User>('user');
  if (typeof user.id === 'string') return users.find((u) => u.id === user.id);
  return typeof user.name === 'string' ? users.find((u) => u.name === user.name) : undefined;
}

export function authenticate(ctx: SandboxContext, auth: Body): Authenticated {
  const identity = object(auth.identity);
  const methods = Array.isArray(identity?.methods) ? (identity.methods as unknown[]).map(String) : [];
  let user: User | undefined;
  let projectId: string | undefined;
  if (methods.includes('password')) {
    const given = object(object(identity?.password)?.user);
    user = given ? findUser(ctx.state, given) : undefined;
    if (!user || typeof given?.password !== 'string' || hash(given.password) !== user.passwordHash)
      throw unauthorized();
  } else if (methods.includes('application_credential')) {
    const given = object(identity?.application_credential);
    const credential =
      typeof given?.id === 'string'
        ? ctx.state.get<AppCredential>('app_credential', given.id)
        : ctx.state.list<AppCredential>('app_credential').find((c) => c.name === given?.name);
    if (!credential || typeof given?.secret !== 'string' || hash(given.secret) !== credential.secretHash) {
      throw unauthorized();
    }
    user = ctx.state.get<User>('user', credential.userId);
    projectId = credential.projectId;
  } else if (methods.includes('token')) {
    const given = object(identity?.token);
    const caller = typeof given?.id === 'string' ? ctx.caller(given.id) : undefined;
    // Keystone refuses to make a token from a trust-scoped one (no re-delegation here).
    if (caller?.trustId) throw new ApiError(403, 'A trust-scoped token cannot be used to get a new token.');
    user = caller ? ctx.state.get<User>('user', caller.userId) : undefined;
  } else {
    throw new ApiError(400, `Unsupported authentication method: ${methods.join(', ') || 'none'}`);
  }
  if (!user || !enabled(user)) throw unauthorized();

  const scope = object(auth.scope);
  const trustScope = object(scope?.['OS-TRUST:trust']);
  if (trustScope) return { ...trustScoped(ctx, user, trustScope), methods };
  const projectScope = object(scope?.project);
  if (projectScope && projectId === undefined) {
    const projects = ctx.state.list<Project>('project');
    const project =
      typeof projectScope.id === 'string'
        ? projects.find((p) => p.id === projectScope.id)
        : projects.find((p) => p.name === projectScope.name);
    // A user can scope to a project it has a role on.
    if (!project || !enabled(project) || rolesOn(user, project.id).length === 0) throw unauthorized();
    projectId = project.id;
  }
  return { userId: user.id, projectId: projectId ?? user.projectId, methods };
}

/**
 * A trust-scoped token for the trust's trustee: it speaks for the trustor when the trust
 * impersonates, on the trust's project, with the trust's roles. As Keystone: a trust gone,
 * expired or used up is a 401; a caller that is not the trustee, or a trustor disabled or no
 * longer holding the roles, a 403. Each token made uses one of `remaining_uses`.
 */
function trustScoped(ctx: SandboxContext, trustee: User, scope: Body): Omit<Authenticated, 'methods'> {
  if (typeof scope.id !== 'string') throw new ApiError(400, 'Expecting to find id in OS-TRUST:trust');
  const trust = liveTrust(ctx.state, scope.id, ctx.now());
  if (!trust || trust.remaining_uses === 0) throw unauthorized();
  if (trust.trustee_user_id !== trustee.id) throw new ApiError(403, 'User is not a trustee.');
  const trustor = ctx.state.get<User>('user', trust.trustor_user_id);
  if (!trustor || !enabled(trustor)) throw new ApiError(403, 'Trustor is disabled.');
  const held = rolesOn(trustor, trust.project_id);
  if (!trust.roles.every((r) => held.includes(r))) {
    throw new ApiError(403, 'Trustee has no delegated roles.');
  }
  if (trust.remaining_uses !== null) {
    ctx.state.put<Trust>('trust', trust.project_id, { ...trust, remaining_uses: trust.remaining_uses - 1 });
  }
  return {
    userId: trust.impersonation ? trust.trustor_user_id : trustee.id,
    projectId: trust.project_id,
    trustId: trust.id,
  };
}
