import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { CallLog } from './calls.js';
import { ApiError, sendError, type ServiceName } from './errors.js';
import { type Noise, defaultNoise, happens, latency, mergeNoise, type Random } from './noise.js';
import type { SandboxState } from './state.js';

/**
 * The sandbox cloud's HTTP server: one port, one path prefix per OpenStack API (`/identity`,
 * `/compute/v2.1`, `/network`, `/volume/v3`, `/image`, `/object-store`, `/alarming`) plus `/admin` for the noise knobs and
 * out-of-band actions. Each API is a service module; this file authenticates their requests,
 * applies the noise, and answers errors in each API's own format.
 */

/** Who a request's token belongs to. */
export interface Caller {
  userId: string;
  projectId: string;
  roles: string[];
  userName?: string;
  /** The trust the token was scoped with (its roles are the trust's); null or absent: none. */
  trustId?: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** What the service modules share. */
export interface SandboxContext {
  readonly state: SandboxState;
  readonly random: Random;
  now(): number;
  noise(): Noise;
  setNoise(changes: unknown): Noise;
  /** The URL clients reach the sandbox at (for the catalog and links), from the request's Host. */
  baseUrl(request: FastifyRequest): string;
  /** Who holds `token`, or undefined when it is unknown or expired. */
  caller(token: string): Caller | undefined;
  /** Which identity made each call (`GET /admin/calls`). */
  readonly calls: CallLog;
}

export interface ServiceModule {
  readonly name: ServiceName;
  /** The path prefix its routes are under. */
  readonly prefix: string;
  /**
   * Whether its routes need a token (X-Auth-Token); a route registered with `{ config: { public:
   * true } }` (version discovery) does not.
   */
  readonly authenticated: boolean;
  /** Whether latency and injected failures apply to its routes. */
  readonly noisy: boolean;
  register(app: FastifyInstance, ctx: SandboxContext): void;
}

export interface SandboxOptions {
  state: SandboxState;
  services: readonly ServiceModule[];
  /** Initial noise settings (merged over the defaults, then over what the state file holds). */
  noise?: unknown;
  random?: Random;
  now?: () => number;
  /** The URL to advertise in the catalog; default: from each request's Host header. */
  publicUrl?: string;
  /** Resolves tokens (the identity module provides it). */
  tokens: (ctx: SandboxContext) => (token: string) => Caller | undefined;
}

const NOISE_SETTING = 'noise';

/** Logs a call with its caller: the one authentication found, else its token's holder (if any). */
function record(ctx: SandboxContext, service: ServiceName, request: FastifyRequest, status: number): void {
  let caller: Caller | null | undefined = request.caller;
  if (!caller) {
    // A call refused before its token was read (injected noise), or to a route that needs none.
    const token = request.headers['x-auth-token'];
    caller = typeof token === 'string' ? ctx.caller(token) : undefined;
  }
  ctx.calls.record({
    at: new Date(ctx.now()).toISOString(),
    method: request.method,
    service,
    path: request.url.split('?')[0]!,
    status,
    user_id: caller?.userId ?? null,
    user_name: caller?.userName ?? null,
    project_id: caller?.projectId ?? null,
    trust_id: caller?.trustId ?? null,
  });
}

export function buildSandbox(options: SandboxOptions): { app: FastifyInstance; ctx: SandboxContext } {
  const { state } = options;
  const stored = state.setting(NOISE_SETTING);
  let noise = mergeNoise(defaultNoise(), stored ? JSON.parse(stored) : {});
  if (options.noise !== undefined) noise = mergeNoise(noise, options.noise);
  state.setSetting(NOISE_SETTING, JSON.stringify(noise));

  let resolveToken: (token: string) => Caller | undefined = () => undefined;
  const ctx: SandboxContext = {
    state,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    noise: () => noise,
    setNoise(changes) {
      noise = mergeNoise(noise, changes);
      state.setSetting(NOISE_SETTING, JSON.stringify(noise));
      return noise;
    },
    baseUrl(request) {
      if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
      return `${request.protocol}://${request.headers.host ?? `${request.hostname}`}`;
    },
    caller: (token) => resolveToken(token),
    calls: new CallLog(),
  };
  resolveToken = options.tokens(ctx);

  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.decorateRequest('caller', null as unknown as Caller);
  // Clients send `Content-Type: application/json` with no body on some DELETEs and actions.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/openstack-images-v2.1-json-patch'],
    { parseAs: 'string' },
    (_req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ApiError(400, 'Malformed request body: not JSON'), undefined);
      }
    },
  );

  for (const service of options.services) registerService(app, ctx, service);
  return { app, ctx };
}

/**
 * Registers one API under its prefix (after `prefix`: a region's services are served again under
 * `/regions/NAME`, with a context whose state is that region's).
 */
export function registerService(
  app: FastifyInstance,
  ctx: SandboxContext,
  service: ServiceModule,
  prefix = '',
): void {
  void app.register(
    async (scope) => {
      scope.setErrorHandler((error: unknown, _request, reply) => {
        if (error instanceof ApiError) return sendError(reply, service.name, error);
        const status = (error as { statusCode?: number }).statusCode;
        const message = error instanceof Error ? error.message : String(error);
        if (status !== undefined && status >= 400 && status < 500) {
          return sendError(reply, service.name, new ApiError(status, message));
        }
        return sendError(reply, service.name, new ApiError(500, `Unexpected error: ${message}`));
      });
      scope.setNotFoundHandler((request, reply) =>
        sendError(reply, service.name, new ApiError(404, `No route ${request.method} ${request.url}`)),
      );
      if (service.noisy) {
        scope.addHook('onRequest', async () => {
          const n = ctx.noise();
          const wait = latency(n, ctx.random);
          if (wait > 0) await sleep(wait);
          if (happens(n.serverErrorRate, ctx.random)) {
            throw new ApiError(503, 'The service is unavailable (injected by the sandbox noise)');
          }
          if (happens(n.rateLimitRate, ctx.random)) {
            throw new ApiError(429, 'Rate limit exceeded (injected by the sandbox noise)', 'OverLimit', {
              'Retry-After': String(n.retryAfterSecs),
            });
          }
        });
      }
      if (service.authenticated) {
        scope.addHook('onRequest', async (request) => {
          if ((request.routeOptions.config as { public?: boolean }).public) return;
          const token = request.headers['x-auth-token'];
          const caller = typeof token === 'string' ? ctx.caller(token) : undefined;
          if (!caller) throw new ApiError(401, 'The request you have made requires authentication.');
          request.caller = caller;
        });
      }
      // Recorded as the answer is sent, not after: a client reading /admin/calls once it has
      // its answer finds the call there.
      if (service.name !== 'admin') {
        scope.addHook('onSend', async (request, reply, payload) => {
          record(ctx, service.name, request, reply.statusCode);
          return payload;
        });
      }
      service.register(scope, ctx);
    },
    { prefix: `${prefix}${service.prefix}` },
  );
}
