import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, SandboxContext, ServiceModule } from './app.js';
import { ApiError } from './errors.js';
import type { SandboxObject, SandboxState } from './state.js';

/**
 * Keystone v3, as much as clients need to log in: version discovery, tokens by password, token or
 * application credential (scoped to a project), token validation and revocation, and the service
 * catalog pointing at the sandbox's other APIs. Users and projects are seeded (`seedIdentity`).
 */

export const DEFAULT_DOMAIN = { id: 'default', name: 'Default' };
const TOKEN_LIFETIME_MS = 12 * 3600_000;

interface Project extends SandboxObject {
  name: string;
}
interface User extends SandboxObject {
  name: string;
  passwordHash: string;
  projectId: string;
  roles: string[];
}
interface AppCredential extends SandboxObject {
  name: string;
  secretHash: string;
  userId: string;
  projectId: string;
}
interface Token extends SandboxObject {
  userId: string;
  projectId: string;
  methods: string[];
  issuedAt: number;
  expiresAt: number;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The sandbox's users: `admin` (password `admin`, project admin) and `demo` (password `demo`, project demo). */
export function seedIdentity(state: SandboxState): void {
  state.transaction(() => {
    for (const name of ['admin', 'demo']) {
      if (state.list<Project>('project').some((p) => p.name === name)) continue;
      const project = state.put<Project>('project', null, { id: randomUUID().replace(/-/g, ''), name });
      state.put<User>('user', null, {
        id: randomUUID().replace(/-/g, ''),
        name,
        passwordHash: hash(name),
        projectId: project.id,
        roles: name === 'admin' ? ['admin', 'member', 'reader'] : ['member', 'reader'],
      });
    }
  });
}

/** Creates an application credential for a user (its secret is returned once). */
export function createAppCredential(state: SandboxState, userName: string, name: string) {
  const user = state.list<User>('user').find((u) => u.name === userName);
  if (!user) throw new Error(`no user ${userName}`);
  const secret = randomBytes(24).toString('base64url');
  const credential = state.put<AppCredential>('app_credential', user.projectId, {
    id: randomUUID().replace(/-/g, ''),
    name,
    secretHash: hash(secret),
    userId: user.id,
    projectId: user.projectId,
  });
  return { id: credential.id, secret };
}

/** The token resolver buildSandbox needs. */
export function tokenResolver(ctx: SandboxContext): (token: string) => Caller | undefined {
  return (id) => {
    const token = ctx.state.get<Token>('token', id);
    if (!token || token.expiresAt <= ctx.now()) return undefined;
    const user = ctx.state.get<User>('user', token.userId);
    if (!user) return undefined;
    return { userId: user.id, projectId: token.projectId, roles: user.roles };
  };
}

/** The catalog's services: type, name and path under the sandbox's URL. */
function catalogEntries(base: string, projectId: string) {
  const services: [type: string, name: string, url: string][] = [
    ['identity', 'keystone', `${base}/identity`],
    ['compute', 'nova', `${base}/compute/v2.1`],
    ['network', 'neutron', `${base}/network`],
    ['volumev3', 'cinderv3', `${base}/volume/v3/${projectId}`],
    ['block-storage', 'cinder', `${base}/volume/v3/${projectId}`],
    ['image', 'glance', `${base}/image`],
  ];
  return services.map(([type, name, url]) => ({
    id: hash(type).slice(0, 32),
    type,
    name,
    endpoints: ['public', 'internal', 'admin'].map((iface) => ({
      id: hash(`${type}/${iface}`).slice(0, 32),
      interface: iface,
      region: 'RegionOne',
      region_id: 'RegionOne',
      url,
    })),
  }));
}

function versionDocument(base: string) {
  return {
    id: 'v3.14',
    status: 'stable',
    updated: '2020-04-07T00:00:00Z',
    links: [{ rel: 'self', href: `${base}/identity/v3/` }],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.identity-v3+json' }],
  };
}

type Body = Record<string, unknown>;
const object = (value: unknown): Body | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : undefined;

const unauthorized = () => new ApiError(401, 'The request you have made requires authentication.');

function findUser(state: SandboxState, user: Body): User | undefined {
  const users = state.list<User>('user');
  if (typeof user.id === 'string') return users.find((u) => u.id === user.id);
  return typeof user.name === 'string' ? users.find((u) => u.name === user.name) : undefined;
}

/** The user and project a token request authenticates, or a 401. */
function authenticate(ctx: SandboxContext, auth: Body): { user: User; projectId: string; methods: string[] } {
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
    user = caller ? ctx.state.get<User>('user', caller.userId) : undefined;
  } else {
    throw new ApiError(400, `Unsupported authentication method: ${methods.join(', ') || 'none'}`);
  }
  if (!user) throw unauthorized();
  const scope = object(object(auth.scope)?.project);
  if (scope && projectId === undefined) {
    const projects = ctx.state.list<Project>('project');
    const project =
      typeof scope.id === 'string'
        ? projects.find((p) => p.id === scope.id)
        : projects.find((p) => p.name === scope.name);
    // Each sandbox user is a member of its own project only.
    if (!project || project.id !== user.projectId) throw unauthorized();
    projectId = project.id;
  }
  return { user, projectId: projectId ?? user.projectId, methods };
}

function tokenBody(ctx: SandboxContext, request: FastifyRequest, token: Token, withCatalog: boolean) {
  const user = ctx.state.get<User>('user', token.userId)!;
  const project = ctx.state.get<Project>('project', token.projectId)!;
  return {
    token: {
      methods: token.methods,
      user: { id: user.id, name: user.name, domain: DEFAULT_DOMAIN, password_expires_at: null },
      project: { id: project.id, name: project.name, domain: DEFAULT_DOMAIN },
      roles: user.roles.map((name) => ({ id: hash(`role/${name}`).slice(0, 32), name })),
      is_domain: false,
      audit_ids: [hash(token.id).slice(0, 22)],
      issued_at: new Date(token.issuedAt).toISOString(),
      expires_at: new Date(token.expiresAt).toISOString(),
      ...(withCatalog ? { catalog: catalogEntries(ctx.baseUrl(request), project.id) } : {}),
    },
  };
}

function register(app: FastifyInstance, ctx: SandboxContext): void {
  const base = (request: FastifyRequest) => ctx.baseUrl(request);
  app.get('/', async (request, reply) =>
    reply.code(300).send({ versions: { values: [versionDocument(base(request))] } }),
  );
  app.get('/v3', async (request) => ({ version: versionDocument(base(request)) }));
  app.get('/v3/', async (request) => ({ version: versionDocument(base(request)) }));

  app.post('/v3/auth/tokens', async (request, reply) => {
    const auth = object(object(request.body)?.auth);
    if (!auth) throw new ApiError(400, 'Expecting to find auth in request body');
    const { user, projectId, methods } = authenticate(ctx, auth);
    const now = ctx.now();
    const token = ctx.state.put<Token>('token', projectId, {
      id: randomBytes(32).toString('base64url'),
      userId: user.id,
      projectId,
      methods,
      issuedAt: now,
      expiresAt: now + TOKEN_LIFETIME_MS,
    });
    const nocatalog = (request.query as Record<string, string | undefined>).nocatalog !== undefined;
    return reply
      .code(201)
      .header('X-Subject-Token', token.id)
      .send(tokenBody(ctx, request, token, !nocatalog));
  });

  const subject = (request: FastifyRequest) => {
    const id = request.headers['x-subject-token'];
    const token = typeof id === 'string' ? ctx.state.get<Token>('token', id) : undefined;
    if (!token || token.expiresAt <= ctx.now()) throw new ApiError(404, 'Could not find token.');
    return token;
  };
  app.get('/v3/auth/tokens', async (request, reply) => {
    const token = subject(request);
    const nocatalog = (request.query as Record<string, string | undefined>).nocatalog !== undefined;
    return reply.header('X-Subject-Token', token.id).send(tokenBody(ctx, request, token, !nocatalog));
  });
  app.delete('/v3/auth/tokens', async (request, reply) => {
    ctx.state.delete('token', subject(request).id);
    return reply.code(204).send();
  });
  app.get('/v3/auth/catalog', async (request) => {
    const caller = requireCaller(ctx, request);
    return {
      catalog: catalogEntries(base(request), caller.projectId),
      links: { self: `${base(request)}/identity/v3/auth/catalog` },
    };
  });
  app.get('/v3/auth/projects', async (request) => {
    const caller = requireCaller(ctx, request);
    const project = ctx.state.get<Project>('project', caller.projectId)!;
    return {
      projects: [{ id: project.id, name: project.name, domain_id: DEFAULT_DOMAIN.id, enabled: true }],
    };
  });
}

function requireCaller(ctx: SandboxContext, request: FastifyRequest): Caller {
  const token = request.headers['x-auth-token'];
  const caller = typeof token === 'string' ? ctx.caller(token) : undefined;
  if (!caller) throw unauthorized();
  return caller;
}

export const identityService: ServiceModule = {
  name: 'identity',
  prefix: '/identity',
  authenticated: false,
  noisy: false,
  register,
};
