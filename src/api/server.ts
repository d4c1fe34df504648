import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { AuthenticationError, type Identity, isAdmin, STACK_USER_ROLE } from '../auth/identity.js';
import { SIGNAL_TOKEN_PREFIX, type SignalTarget } from '../auth/signal-tokens.js';
import { authToken } from './authenticator.js';
import { agentIdentity, refuseBeyondAgent } from './agent/identity.js';
import { registerAgentRoutes } from './routes/agent.js';
import { registerAgentMessagingRoutes } from './routes/agent-messaging.js';
import { bodyTooLarge, registerJsonBodyParser } from './body-limits.js';
import type { Api } from './context.js';
import type { ApiDeps } from './deps.js';
import { classify, heatErrorBody, HttpError } from './errors.js';
import { registerMetrics } from './metrics.js';
import { ProjectRateLimiter, writeRateLimitHook } from './rate-limit.js';
import { registerActionRoutes } from './routes/actions.js';
import { registerDriftRoutes } from './routes/drift.js';
import { registerSnapshotRoutes } from './routes/snapshots.js';
import { registerSoftwareRoutes } from './routes/software.js';
import { registerSignalUrlRoute } from './routes/signal-url.js';
import { registerPresignedUrlRoutes } from './routes/presigned-urls.js';
import { registerCatalogRoutes } from './routes/catalog.js';
import { registerPreviewRoutes } from './routes/previews.js';
import { registerEventRoutes } from './routes/events.js';
import { registerOutputRoutes } from './routes/outputs.js';
import { registerResourceRoutes } from './routes/resources.js';
import { registerResourceSummaryRoutes } from './routes/resource-summary.js';
import { registerStackDocumentRoutes } from './routes/stack-documents.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerStackRoutes } from './routes/stacks.js';
import { registerServiceRoutes } from './routes/services.js';
import { registerVersionRoutes } from './routes/versions.js';
import { consoleDir, registerConsoleLogin, registerConsoleRoutes } from './routes/console.js';
import { registerWatchRoutes } from './routes/watch.js';
import { registerValidateRoutes } from './routes/validate.js';

export interface ServerOptions {
  /** A pino logger for requests, or false for none (tests). */
  logger?: FastifyBaseLogger | false;
  /** Monotonic time in ms for the write rate limit (tests stop it); performance.now by default. */
  now?: () => number;
}

/** The identity of a signal token in X-Auth-Token, if the request carries a valid one. */
function signalIdentity(deps: ApiDeps, request: FastifyRequest): Identity | undefined {
  const token = authToken(request.headers);
  if (!deps.signer || !token?.startsWith(SIGNAL_TOKEN_PREFIX)) return undefined;
  const target = deps.signer.verify(token);
  if (!target) throw new AuthenticationError('The signal token is not valid');
  return {
    projectId: target.projectId,
    userId: `signal:${target.stackId}/${target.resourceName}`,
    userName: `signal:${target.resourceName}`,
    roles: [STACK_USER_ROLE],
    signalTarget: target,
  };
}

/** A signal token signals its resource and does nothing else (Heat's stack user policy). */
function refuseBeyondSignal(request: FastifyRequest, target: SignalTarget): void {
  const params = request.params as { stack_id?: string; resource_name?: string };
  const allowed =
    request.method === 'POST' &&
    request.routeOptions.url?.endsWith('/resources/:resource_name/signal') === true &&
    params.stack_id === target.stackId &&
    params.resource_name === target.resourceName;
  if (!allowed)
    throw new HttpError(403, 'Forbidden', 'A signal token may only signal the resource it was made for');
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
    routerOptions: {
      ignoreTrailingSlash: true,
      // Signal tokens travel in a path segment (alarm URLs); resource names may be long too.
      maxParamLength: 2048,
    },
    // Errors the framework finds before routing (a malformed URL) answer in Heat's body too.
    frameworkErrors: (err, _request, reply) => {
      const { status, type, message } = classify(err);
      // Before routing the onSend hook below does not run, and Fastify adds a charset to a JSON
      // type unless the body is bytes.
      void (reply as FastifyReply)
        .status(status)
        .type('application/json')
        .send(Buffer.from(JSON.stringify(heatErrorBody(status, type, message))));
    },
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
  // Heat's JSON answers say exactly `application/json` (strict clients compare it); Fastify's
  // add `; charset=utf-8`, which JSON needs not (it is UTF-8 by definition).
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && /^application\/json\s*;/.test(type))
      reply.header('content-type', 'application/json');
    return payload;
  });

  registerJsonBodyParser(app, deps.limits.max_json_body_depth);

  app.setErrorHandler(async (err, request, reply) => {
    const { status, type, message, internal } = classify(
      bodyTooLarge(err, request, deps.limits.max_json_body_size) ?? err,
    );
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
  registerSignalUrlRoute(app, deps);
  await registerPresignedUrlRoutes(app, deps);
  // What servers' agents call: outside /v1/{project_id}, each with its own credential check.
  registerAgentRoutes(app, deps);
  await registerAgentMessagingRoutes(app, deps);
  // Operations' routes: outside /v1/{project_id}, without authentication.
  registerHealthRoutes(app, deps);
  registerMetrics(app, deps);
  registerVersionRoutes(app);
  // The web console's static files (the page only calls the API below).
  registerConsoleRoutes(app, consoleDir());
  registerConsoleLogin(app, deps);

  await app.register(
    async (scoped) => {
      scoped.decorateRequest('identity', null as unknown as Identity);
      scoped.addHook('onRequest', async (request) => {
        const { project_id: project } = request.params as { project_id: string };
        const identity =
          signalIdentity(deps, request) ??
          (await agentIdentity(deps, request)) ??
          (await deps.authenticator.authenticate(request.headers, project));
        if (identity.signalTarget) refuseBeyondSignal(request, identity.signalTarget);
        if (identity.agentServer)
          await refuseBeyondAgent(deps, request, { ...identity, agentServer: identity.agentServer });
        if (identity.projectId !== project && !isAdmin(identity)) {
          throw new HttpError(403, 'Forbidden', `The token does not grant access to project ${project}`);
        }
        // An admin naming another project acts in it.
        request.identity = identity.projectId === project ? identity : { ...identity, projectId: project };
      });
      const { api_write_rate_limit: rate, api_write_rate_burst: burst } = deps.limits;
      if (rate > 0) {
        // After authentication: only a project's own callers spend its budget.
        const limiter = new ProjectRateLimiter(rate, burst || rate, options.now);
        scoped.addHook('onRequest', writeRateLimitHook(limiter));
      }
      registerStackRoutes(scoped as unknown as Api, deps);
      registerResourceRoutes(scoped as unknown as Api, deps);
      registerResourceSummaryRoutes(scoped as unknown as Api, deps);
      registerEventRoutes(scoped as unknown as Api, deps);
      registerOutputRoutes(scoped as unknown as Api, deps);
      registerStackDocumentRoutes(scoped as unknown as Api, deps);
      registerActionRoutes(scoped as unknown as Api, deps);
      registerDriftRoutes(scoped as unknown as Api, deps);
      registerSnapshotRoutes(scoped as unknown as Api, deps);
      registerPreviewRoutes(scoped as unknown as Api, deps);
      registerValidateRoutes(scoped as unknown as Api, deps);
      registerCatalogRoutes(scoped as unknown as Api, deps);
      registerServiceRoutes(scoped as unknown as Api, deps);
      registerSoftwareRoutes(scoped as unknown as Api, deps);
      registerWatchRoutes(scoped as unknown as Api, deps);
    },
    { prefix: '/v1/:project_id' },
  );

  return app;
}
