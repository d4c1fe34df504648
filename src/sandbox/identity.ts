import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from './app.js';
import { ApiError } from './errors.js';
import { registerIdentityAdmin } from './identity/admin-api.js';
import { authenticate } from './identity/authenticate.js';
import { forbidden, object, requireCaller } from './identity/common.js';
import {
  type AppCredential,
  enabled,
  findUserByName,
  hash,
  newId,
  type Project,
  rolesOn,
  type Token,
  type User,
} from './identity/model.js';
import { catalogEntries, liveToken, tokenBody } from './identity/tokens.js';
import { registerTrusts } from './identity/trusts.js';

/**
 * Keystone v3, as much as clients and Hearth need: version discovery, tokens by password, token or
 * application credential (scoped to a project or a trust), token validation and revocation, the
 * service catalog pointing at the sandbox's other APIs, the admin API for projects, users and role
 * assignments, and OS-TRUST. Users and projects are seeded (`seedIdentity`).
 */

export { DEFAULT_DOMAIN, seedIdentity } from './identity/model.js';
export { tokenResolver } from './identity/tokens.js';

const TOKEN_LIFETIME_MS = 12 * 3600_000;

/** Creates an application credential for a user (its secret is returned once). */
export function createAppCredential(state: SandboxContext['state'], userName: string, name: string) {
  const user = findUserByName(state, userName);
  if (!user) throw new Error(`no user ${userName}`);
  const secret = randomBytes(24).toString('base64url');
  const credential = state.put<AppCredential>('app_credential', user.projectId, {
    id: newId(),
    name,
    secretHash: hash(secret),
    userId: user.id,
    projectId: user.projectId,
  });
  return { id: credential.id, secret };
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

const wantsCatalog = (request: FastifyRequest) =>
  (request.query as Record<string, string | undefined>).nocatalog === undefined;

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
    const { userId, projectId, methods, trustId } = authenticate(ctx, auth);
    const now = ctx.now();
    const token = ctx.state.put<Token>('token', projectId, {
      id: randomBytes(32).toString('base64url'),
      userId,
      projectId,
      methods,
      issuedAt: now,
      expiresAt: now + TOKEN_LIFETIME_MS,
      ...(trustId ? { trustId } : {}),
    });
    const live = liveToken(ctx.state, token.id, now);
    // A project disabled or a role gone between the checks and here: no usable token.
    if (!live) throw new ApiError(401, 'The request you have made requires authentication.');
    // The calls log shows who logged in.
    request.caller = ctx.caller(token.id)!;
    return reply
      .code(201)
      .header('X-Subject-Token', token.id)
      .send(tokenBody(ctx, request, live, wantsCatalog(request)));
  });

  /**
   * The X-Subject-Token a caller validates or revokes: as Keystone's policy, a service user (role
   * service, e.g. hearth), an admin, or the token's own user.
   */
  const subject = (request: FastifyRequest, action: string) => {
    const caller = requireCaller(ctx, request);
    const id = request.headers['x-subject-token'];
    const live = typeof id === 'string' ? liveToken(ctx.state, id, ctx.now()) : undefined;
    if (!live) throw new ApiError(404, 'Could not find token.');
    const allowed =
      ['admin', 'service'].some((r) => caller.roles.includes(r)) || caller.userId === live.user.id;
    if (!allowed) throw forbidden(`identity:${action}`);
    return live;
  };
  app.get('/v3/auth/tokens', async (request, reply) => {
    const live = subject(request, 'validate_token');
    return reply
      .header('X-Subject-Token', live.token.id)
      .send(tokenBody(ctx, request, live, wantsCatalog(request)));
  });
  app.delete('/v3/auth/tokens', async (request, reply) => {
    ctx.state.delete('token', subject(request, 'revoke_token').token.id);
    return reply.code(204).send();
  });
  app.get('/v3/auth/catalog', async (request) => {
    const caller = requireCaller(ctx, request);
    return {
      catalog: catalogEntries(base(request), caller.projectId),
      links: { self: `${base(request)}/identity/v3/auth/catalog` },
    };
  });
  // The projects the token's user may scope to (a trust-scoped token: the trust's only).
  app.get('/v3/auth/projects', async (request) => {
    const caller = requireCaller(ctx, request);
    const user = ctx.state.get<User>('user', caller.userId)!;
    const projects = ctx.state
      .list<Project>('project')
      .filter((p) => (caller.trustId ? p.id === caller.projectId : rolesOn(user, p.id).length > 0));
    return {
      projects: projects.map((p) => ({ id: p.id, name: p.name, domain_id: 'default', enabled: enabled(p) })),
      links: { self: `${base(request)}/identity/v3/auth/projects`, previous: null, next: null },
    };
  });
  registerIdentityAdmin(app, ctx);
  registerTrusts(app, ctx);
}

export const identityService: ServiceModule = {
  name: 'identity',
  prefix: '/identity',
  authenticated: false,
  noisy: false,
  register,
};
