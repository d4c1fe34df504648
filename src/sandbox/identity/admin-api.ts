import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import { type Body, isAdmin, object, requireAdmin, requireCaller } from './common.js';
import {
  assignRole,
  DEFAULT_DOMAIN,
  findProjectByName,
  findRole,
  findUserByName,
  hash,
  newId,
  type Project,
  ROLES,
  roleRef,
  type Trust,
  type User,
} from './model.js';

/**
 * Keystone's admin API, as far as tests need it: projects, users (a disabled or deleted one can no
 * longer log in and its tokens stop working) and role assignments on projects; roles are fixed.
 */

const notFound = (what: string, id: string) => new ApiError(404, `Could not find ${what}: ${id}.`);
const conflict = (what: string, name: string) =>
  new ApiError(
    409,
    `Conflict occurred attempting to store ${what} - it is not permitted to have two ${what}s with the same name in the same domain : ${name}.`,
  );

function required(body: unknown, key: string): Body {
  const found = object(object(body)?.[key]);
  if (!found) throw new ApiError(400, `Expecting to find ${key} in request body.`);
  return found;
}
function name(given: Body): string {
  if (typeof given.name !== 'string' || given.name.trim() === '' || given.name.length > 255) {
    throw new ApiError(400, "Invalid input for field 'name': a non-empty string of at most 255 characters.");
  }
  return given.name;
}
function optionalBoolean(given: Body, key: string): boolean | undefined {
  if (given[key] === undefined) return undefined;
  if (typeof given[key] !== 'boolean')
    throw new ApiError(400, `Invalid input for field '${key}': not a boolean.`);
  return given[key];
}

const base = (ctx: SandboxContext, request: FastifyRequest) => `${ctx.baseUrl(request)}/identity/v3`;

function projectView(ctx: SandboxContext, request: FastifyRequest, p: Project) {
  return {
    id: p.id,
    name: p.name,
    description: p.description ?? '',
    domain_id: DEFAULT_DOMAIN.id,
    parent_id: DEFAULT_DOMAIN.id,
    enabled: p.enabled !== false,
    is_domain: false,
    tags: [],
    options: {},
    links: { self: `${base(ctx, request)}/projects/${p.id}` },
  };
}
function userView(ctx: SandboxContext, request: FastifyRequest, u: User) {
  return {
    id: u.id,
    name: u.name,
    domain_id: DEFAULT_DOMAIN.id,
    enabled: u.enabled !== false,
    ...(u.projectId ? { default_project_id: u.projectId } : {}),
    password_expires_at: null,
    options: {},
    links: { self: `${base(ctx, request)}/users/${u.id}` },
  };
}

type Id = { Params: { id: string } };
type Assignment = { Params: { project: string; user: string; role: string } };

function registerProjects(app: FastifyInstance, ctx: SandboxContext): void {
  const project = (id: string) => ctx.state.get<Project>('project', id) ?? projectNotFound(id);
  const projectNotFound = (id: string): never => {
    throw notFound('project', id);
  };
  app.post('/v3/projects', async (request, reply) => {
    requireAdmin(ctx, request, 'create_project');
    const given = required(request.body, 'project');
    const projectName = name(given);
    if (findProjectByName(ctx.state, projectName)) throw conflict('project', projectName);
    const created = ctx.state.put<Project>('project', null, {
      id: newId(),
      name: projectName,
      enabled: optionalBoolean(given, 'enabled') ?? true,
      ...(typeof given.description === 'string' ? { description: given.description } : {}),
    });
    return reply.code(201).send({ project: projectView(ctx, request, created) });
  });
  app.get('/v3/projects', async (request) => {
    requireAdmin(ctx, request, 'list_projects');
    const wanted = (request.query as Record<string, string | undefined>).name;
    const projects = ctx.state
      .list<Project>('project')
      .filter((p) => wanted === undefined || p.name === wanted);
    return {
      projects: projects.map((p) => projectView(ctx, request, p)),
      links: { self: `${base(ctx, request)}/projects`, previous: null, next: null },
    };
  });
  app.get<Id>('/v3/projects/:id', async (request) => {
    const caller = requireCaller(ctx, request);
    if (!isAdmin(caller) && caller.projectId !== request.params.id) requireAdmin(ctx, request, 'get_project');
    return { project: projectView(ctx, request, project(request.params.id)) };
  });
  app.delete<Id>('/v3/projects/:id', async (request, reply) => {
    requireAdmin(ctx, request, 'delete_project');
    ctx.state.delete('project', project(request.params.id).id);
    return reply.code(204).send();
  });
}

function registerUsers(app: FastifyInstance, ctx: SandboxContext): void {
  const user = (id: string): User => {
    const found = ctx.state.get<User>('user', id);
    if (!found) throw notFound('user', id);
    return found;
  };
  app.post('/v3/users', async (request, reply) => {
    requireAdmin(ctx, request, 'create_user');
    const given = required(request.body, 'user');
    const userName = name(given);
    if (findUserByName(ctx.state, userName)) throw conflict('user', userName);
    const projectId = given.default_project_id;
    if (projectId !== undefined && (typeof projectId !== 'string' || !ctx.state.get('project', projectId))) {
      throw notFound('project', String(projectId));
    }
    if (given.password !== undefined && typeof given.password !== 'string') {
      throw new ApiError(400, "Invalid input for field 'password': not a string.");
    }
    // As Keystone: a default project grants no role; PUT a role assignment for that.
    const created = ctx.state.put<User>('user', null, {
      id: newId(),
      name: userName,
      // No password: the user cannot log in with one.
      passwordHash: typeof given.password === 'string' ? hash(given.password) : '',
      projectId: projectId ?? '',
      roles: [],
      assignments: {},
      enabled: optionalBoolean(given, 'enabled') ?? true,
    });
    return reply.code(201).send({ user: userView(ctx, request, created) });
  });
  app.get('/v3/users', async (request) => {
    requireAdmin(ctx, request, 'list_users');
    const wanted = (request.query as Record<string, string | undefined>).name;
    const users = ctx.state.list<User>('user').filter((u) => wanted === undefined || u.name === wanted);
    return {
      users: users.map((u) => userView(ctx, request, u)),
      links: { self: `${base(ctx, request)}/users`, previous: null, next: null },
    };
  });
  app.get<Id>('/v3/users/:id', async (request) => {
    const caller = requireCaller(ctx, request);
    if (caller.userId !== request.params.id) requireAdmin(ctx, request, 'get_user');
    return { user: userView(ctx, request, user(request.params.id)) };
  });
  app.patch<Id>('/v3/users/:id', async (request) => {
    requireAdmin(ctx, request, 'update_user');
    const given = required(request.body, 'user');
    const found = user(request.params.id);
    const isEnabled = optionalBoolean(given, 'enabled');
    if (given.password !== undefined && typeof given.password !== 'string') {
      throw new ApiError(400, "Invalid input for field 'password': not a string.");
    }
    const updated = ctx.state.put<User>('user', null, {
      ...found,
      ...(isEnabled !== undefined ? { enabled: isEnabled } : {}),
      ...(typeof given.password === 'string' ? { passwordHash: hash(given.password) } : {}),
    });
    return { user: userView(ctx, request, updated) };
  });
  app.delete<Id>('/v3/users/:id', async (request, reply) => {
    requireAdmin(ctx, request, 'delete_user');
    const found = user(request.params.id);
    ctx.state.transaction(() => {
      ctx.state.delete('user', found.id);
      // Keystone deletes the trusts a deleted user is party to.
      for (const t of ctx.state.list<Trust>('trust')) {
        if (t.trustor_user_id === found.id || t.trustee_user_id === found.id) ctx.state.delete('trust', t.id);
      }
    });
    return reply.code(204).send();
  });
}

function registerRoles(app: FastifyInstance, ctx: SandboxContext): void {
  const roleView = (request: FastifyRequest, role: string) => ({
    ...roleRef(role),
    domain_id: null,
    description: null,
    options: {},
    links: { self: `${base(ctx, request)}/roles/${roleRef(role).id}` },
  });
  app.get('/v3/roles', async (request) => {
    requireCaller(ctx, request);
    const wanted = (request.query as Record<string, string | undefined>).name;
    return {
      roles: ROLES.filter((r) => wanted === undefined || r === wanted).map((r) => roleView(request, r)),
    };
  });
  app.get<Id>('/v3/roles/:id', async (request) => {
    requireCaller(ctx, request);
    const role = findRole(request.params.id);
    if (!role) throw notFound('role', request.params.id);
    return { role: roleView(request, role) };
  });
  /** The assignment's user, project and role (each a 404 when unknown; a role by id or name). */
  const assignment = ({ project, user, role }: Assignment['Params']) => {
    const found = ctx.state.get<User>('user', user);
    if (!found) throw notFound('user', user);
    if (!ctx.state.get('project', project)) throw notFound('project', project);
    const roleName = findRole(role);
    if (!roleName) throw notFound('role', role);
    return { found, roleName };
  };
  app.put<Assignment>('/v3/projects/:project/users/:user/roles/:role', async (request, reply) => {
    requireAdmin(ctx, request, 'create_grant');
    const { found, roleName } = assignment(request.params);
    assignRole(ctx.state, found, request.params.project, roleName);
    return reply.code(204).send();
  });
  app.delete<Assignment>('/v3/projects/:project/users/:user/roles/:role', async (request, reply) => {
    requireAdmin(ctx, request, 'revoke_grant');
    const { found, roleName } = assignment(request.params);
    const assignments = { ...(found.assignments ?? { [found.projectId]: found.roles }) };
    const roles = assignments[request.params.project] ?? [];
    if (!roles.includes(roleName)) throw notFound('role assignment', `${roleName} of ${found.id}`);
    assignments[request.params.project] = roles.filter((r) => r !== roleName);
    ctx.state.put<User>('user', null, { ...found, assignments, roles: assignments[found.projectId] ?? [] });
    return reply.code(204).send();
  });
}

/** The one domain, Default: clients look it up by id or name (`--project-domain Default`). */
function registerDomains(app: FastifyInstance, ctx: SandboxContext): void {
  const view = (request: FastifyRequest) => ({
    ...DEFAULT_DOMAIN,
    description: 'The default domain',
    enabled: true,
    tags: [],
    options: {},
    links: { self: `${base(ctx, request)}/domains/${DEFAULT_DOMAIN.id}` },
  });
  app.get('/v3/domains', async (request) => {
    requireAdmin(ctx, request, 'list_domains');
    const query = request.query as Record<string, string | undefined>;
    const wanted = query.name === undefined || query.name === DEFAULT_DOMAIN.name;
    return {
      domains: wanted ? [view(request)] : [],
      links: { self: `${base(ctx, request)}/domains`, previous: null, next: null },
    };
  });
  // Every project is in it, so any caller may read it (Keystone: a token's own domain).
  app.get<Id>('/v3/domains/:id', async (request) => {
    requireCaller(ctx, request);
    if (request.params.id !== DEFAULT_DOMAIN.id) throw notFound('domain', request.params.id);
    return { domain: view(request) };
  });
}

export function registerIdentityAdmin(app: FastifyInstance, ctx: SandboxContext): void {
  registerDomains(app, ctx);
  registerProjects(app, ctx);
  registerUsers(app, ctx);
  registerRoles(app, ctx);
}
