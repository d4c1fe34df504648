import { isAdmin } from '../../auth/identity.js';
import { engineAlive } from '../../engine/runtime/liveness.js';
import type { ServiceRecord } from '../../store/contract.js';
import type { JsonObject } from '../../util/json.js';
import type { ApiDeps } from '../deps.js';
import { HttpError } from '../errors.js';
import type { Api } from '../context.js';

/** Heat's datetime columns as its JSON serializer prints them (isoformat, whole seconds, no zone). */
function heatDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * One engine as Heat's format_service shows it. Hearth's engines have no numeric row id: the
 * engine id stands for it. `report_interval` is the heartbeat's, in seconds as Heat's.
 */
export function serviceJSON(s: ServiceRecord, up: boolean, reportIntervalMs: number): JsonObject {
  return {
    id: s.engineId,
    binary: 'heat-engine',
    engine_id: s.engineId,
    host: s.host,
    hostname: s.host,
    topic: 'engine',
    report_interval: Math.max(1, Math.round(reportIntervalMs / 1000)),
    created_at: heatDateTime(s.startedAt),
    updated_at: heatDateTime(s.heartbeatAt),
    // Hearth removes a dead engine's row (`hearth manage service clean`) rather than marking it.
    deleted_at: null,
    status: up ? 'up' : 'down',
  };
}

/**
 * `GET /services` (`openstack orchestration service list`): the engines registered in the store,
 * up while their heartbeat is fresh. Admin only, as Heat's policy `service:index` (PROJECT_ADMIN).
 */
export function registerServiceRoutes(app: Api, deps: ApiDeps): void {
  const { store, clock, settings } = deps.engine.deps;
  app.get('/services', { schema: { tags: ['services'] } }, async (request) => {
    if (!isAdmin(request.identity)) {
      throw new HttpError(403, 'Forbidden', 'Listing the engines needs the admin role');
    }
    const services = await store.read((tx) => tx.services.list());
    const now = clock.now();
    const interval = settings.heartbeatIntervalMs ?? 1000;
    return {
      services: services.map((s) =>
        serviceJSON(s, engineAlive(s, now, settings.engineDeadAfterMs), interval),
      ),
    };
  });
}
