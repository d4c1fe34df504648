import type { FastifyInstance } from 'fastify';
import type { AdminAction } from '../admin.js';
import type { ServiceModule } from '../app.js';
import { ApiError, notFound } from '../errors.js';
import type { JsonObject } from '../../util/json.js';
import type { AgentRecord } from './agent.js';
import { chooseTransport } from './collectors.js';
import type { GuestAgents } from './supervisor.js';

/**
 * The agents' admin routes: `GET /admin/agents` (what each agent did; no credentials shown),
 * `POST /admin/agents` {server_id, os_collect_config} (a DeployedServer's guest), and the
 * out-of-band `POST /admin/servers/<id>/stop-agent`.
 */

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function agentView(record: AgentRecord) {
  return {
    server_id: record.serverId,
    source: record.source,
    region: record.region,
    transport: chooseTransport(record.occ) ?? null,
    status: record.status,
    active_at: iso(record.activeAt),
    last_poll_at: iso(record.lastPollAt),
    last_error: record.lastError,
    configs: Object.entries(record.configs).map(([id, run]) => ({
      config_id: id,
      name: run.name,
      group: run.group,
      deploy_action: run.action,
      deploy_resource_name: run.resourceName,
      deployment_id: run.deploymentId,
      runs: run.runs,
      status_code: run.statusCode,
      signal: run.signal,
      signal_transport: run.signalTransport,
      signal_attempts: run.signalAttempts,
      signal_error: run.signalError,
    })),
  };
}

export function agentAdminService(agents: GuestAgents): ServiceModule {
  return {
    name: 'admin',
    prefix: '/admin/agents',
    authenticated: false,
    noisy: false,
    register(app: FastifyInstance) {
      app.get('/', async () => ({ agents: agents.list().map(agentView) }));
      app.post('/', async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const serverId = body.server_id;
        const occ = body.os_collect_config;
        if (typeof serverId !== 'string' || serverId === '')
          throw new ApiError(400, 'server_id: a string is required');
        if (typeof occ !== 'object' || occ === null || Array.isArray(occ)) {
          throw new ApiError(
            400,
            'os_collect_config: an object is required (the os_collect_config attribute)',
          );
        }
        try {
          const record = agents.register(serverId, occ as JsonObject);
          return reply.code(201).send({ agent: agentView(record) });
        } catch (error) {
          throw new ApiError(400, (error as Error).message);
        }
      });
    },
  };
}

/** `POST /admin/servers/<id>/stop-agent` (`server` is accepted too, as the other server actions). */
export function agentAdminActions(agents: GuestAgents): AdminAction[] {
  const stop = (id: string) => {
    if (!agents.stop(id)) throw notFound('Agent of server', id);
    return { server_id: id, status: 'stopped' };
  };
  return [
    { kind: 'servers', action: 'stop-agent', run: (_ctx, id) => stop(id) },
    { kind: 'server', action: 'stop-agent', run: (_ctx, id) => stop(id) },
  ];
}
