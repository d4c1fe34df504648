import { engineAlive } from '../../engine/runtime/liveness.js';
import type { ApiDeps } from '../deps.js';
import { heatErrorBody } from '../errors.js';
import type { Api } from '../context.js';

/** A store that has not answered by then is reported down (rather than leaving the prober waiting). */
const STORE_TIMEOUT_MS = 5000;

/**
 * `GET /healthz`, for load balancers and probes (no authentication; Heat has no such route): 200
 * when a (read) transaction on the store succeeds, 503 with Heat's error body when it fails or hangs.
 */
export function registerHealthRoutes(app: Api, deps: ApiDeps): void {
  const { store, clock, settings } = deps.engine.deps;

  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const services = await Promise.race([
        store.read((tx) => tx.services.list()),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer in ${STORE_TIMEOUT_MS} ms`)),
            STORE_TIMEOUT_MS,
          );
        }),
      ]);
      const now = clock.now();
      const engines = services.filter((s) => engineAlive(s, now, settings.engineDeadAfterMs)).length;
      return { status: 'ok', store: 'ok', engines };
    } catch (err) {
      request.log.error({ err }, 'health check: the store did not answer');
      const status = 503;
      return reply
        .status(status)
        .send(
          heatErrorBody(
            status,
            'ServiceUnavailable',
            'The store is not answering; the error is in the server log.',
          ),
        );
    } finally {
      clearTimeout(timer);
    }
  });
}
