import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Identity } from '../auth/identity.js';
import { isAdmin } from '../auth/identity.js';
import type { ApiDeps } from './deps.js';
import { classify, heatErrorBody, HttpError } from './errors.js';
import { registerMetrics } from './metrics.js';
import { registerActionRoutes } from './routes/actions.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerStackRoutes } from './routes/stacks.js';
import type { Base } from './views/common.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for; set for every route under /v1/{project_id}. */
    identity: Identity;
  }
}

export type Api = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface ServerOptions {
  /** A pino logger for requests, or false for none (tests). */
  logger?: FastifyBaseLogger | false;
}

/** The project part of the URLs the client used, so links in bodies lead back to this server. */
export function baseOf(request: FastifyRequest): Base {
  const { project_id: project } = request.params as { project_id: string };
  return { project: `${request.protocol}://${request.host}/v1/${project}` };
}

/**
 * The Heat-compatible API: every route under `/v1/{project_id}` authenticates the request and
 * checks that the token's project is the URL's (an admin may name another). Errors of any kind
 * answer with Heat's error body.
 */
export async function buildServer(deps: ApiDeps, options: ServerOptions = {}): Promise<Api> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: deps.limits.max_json_body_size,
    genReqId: (req) => {
      const given = req.headers['x-openstack-request-id'];
      return typeof given === 'string' && /^req-[0-9a-f-]{36}$/.test(given) ? given : `req-${randomUUID()}`;
    },
    ignoreTrailingSlash: true,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(swagger, {
    openapi: {
      info: { title: 'Hearth orchestration API (Heat v1 compatible)', version: '1.0' },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' } },
      },
      security: [{ token: [] }],
    },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-openstack-request-id', request.id);
  });

  app.setErrorHandler(async (err, request, reply) => {
    const { status, type, message, internal } = classify(err);
    if (internal) request.log.error({ err }, 'request failed');
    else request.log.info({ status, type }, message);
    return reply.status(status).send(heatErrorBody(status, type, message));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const status = 404;
    return reply
      .status(status)
      .send(
        heatErrorBody(status, 'HTTPNotFound', `No route for ${request.method} ${request.url.split('?')[0]}`),
      );
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // Operations' routes: outside /v1/{project_id}, without authentication.
  registerHealthRoutes(app, deps);
  registerMetrics(app, deps);

  await app.register(
    async (scoped) => {
      scoped.decorateRequest('identity', null as unknown as Identity);
      scoped.addHook('onRequest', async (request) => {
        const { project_id: project } = request.params as { project_id: string };
        const identity = await deps.authenticator.authenticate(request.headers, project);
        if (identity.projectId !== project && !isAdmin(identity)) {
          throw new HttpError(403, 'Forbidden', `The token does not grant access to project ${project}`);
        }
        // An admin naming another project acts in it.
        request.identity = identity.projectId === project ? identity : { ...identity, projectId: project };
      });
      registerStackRoutes(scoped as unknown as Api, deps);
      registerActionRoutes(scoped as unknown as Api, deps);
    },
    { prefix: '/v1/:project_id' },
  );

  return app;
}
