import type { FastifyInstance } from 'fastify';
import type { SandboxContext, ServiceModule } from './app.js';
import { ApiError } from './errors.js';

/**
 * The sandbox's own routes, for tests and demos: read and change the noise knobs at run time, and
 * read which identity made each call (`GET /admin/calls?since=SEQ`).
 * Out-of-band actions on objects (delete a server, set it to ERROR...) are registered by the
 * service that owns the object, under `/admin` too (see `adminActions`).
 */

/** An out-of-band action of a service module: `POST /admin/<kind>/<id>/<action>` with a JSON body. */
export interface AdminAction {
  kind: string;
  action: string;
  run(ctx: SandboxContext, id: string, body: Record<string, unknown>): unknown;
}

export function adminService(actions: readonly AdminAction[]): ServiceModule {
  return {
    name: 'admin',
    prefix: '/admin',
    authenticated: false,
    noisy: false,
    register(app: FastifyInstance, ctx: SandboxContext) {
      app.get('/noise', async () => ctx.noise());
      app.get('/calls', async (request) => {
        const since = (request.query as Record<string, string | undefined>).since ?? '0';
        if (!/^\d+$/.test(since)) throw new ApiError(400, `since: not a sequence number: ${since}`);
        return { calls: ctx.calls.since(Number(since)), last: ctx.calls.last };
      });
      app.put('/noise', async (request) => {
        try {
          return ctx.setNoise(request.body ?? {});
        } catch (error) {
          throw new ApiError(400, (error as Error).message);
        }
      });
      app.post<{ Params: { kind: string; id: string; action: string } }>(
        '/:kind/:id/:action',
        async (request) => {
          const { kind, id, action } = request.params;
          const found = actions.find((a) => a.kind === kind && a.action === action);
          if (!found) {
            const known = actions.map((a) => `${a.kind}/${a.action}`).join(', ');
            throw new ApiError(404, `no admin action ${kind}/${action} (known: ${known || 'none'})`);
          }
          const body = request.body;
          const params =
            typeof body === 'object' && body !== null && !Array.isArray(body)
              ? (body as Record<string, unknown>)
              : {};
          return found.run(ctx, id, params) ?? { ok: true };
        },
      );
    },
  };
}
