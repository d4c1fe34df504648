import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import { type Body, findOwned, isAdmin, missing, save } from './common.js';
import { KIND, type Router } from './model.js';

/**
 * Neutron's agents and the L3 agent scheduler (`agent` and `l3_agent_scheduler` extensions):
 * the sandbox has two L3 agents and a DHCP agent, fixed. Admin only, as Neutron's default
 * policy. A router's agents are kept in the router's private `_l3_agents`.
 */

const AGENTS: readonly Body[] = [
  agent('a0d1c6e0-0000-4000-8000-000000000001', 'L3 agent', 'neutron-l3-agent', 'sandbox-network-1'),
  agent('a0d1c6e0-0000-4000-8000-000000000002', 'L3 agent', 'neutron-l3-agent', 'sandbox-network-2'),
  agent('a0d1c6e0-0000-4000-8000-000000000003', 'DHCP agent', 'neutron-dhcp-agent', 'sandbox-network-1'),
];

function agent(id: string, type: string, binary: string, host: string): Body {
  return {
    id,
    agent_type: type,
    binary,
    host,
    topic: type === 'L3 agent' ? 'l3_agent' : 'dhcp_agent',
    admin_state_up: true,
    alive: true,
    availability_zone: 'nova',
    description: null,
    configurations: {},
    created_at: '2024-01-01T00:00:00Z',
    started_at: '2024-01-01T00:00:00Z',
    heartbeat_timestamp: '2024-01-01T00:00:00Z',
  };
}

function adminOnly(request: FastifyRequest, rule: string): void {
  if (!isAdmin(request))
    throw new ApiError(403, `(rule:${rule}) is disallowed by policy`, 'PolicyNotAuthorized');
}

function findAgent(id: string): Body {
  const found = AGENTS.find((a) => a.id === id);
  if (!found) throw new ApiError(404, `Agent ${id} could not be found.`, 'AgentNotFound');
  return found;
}

const agentsOf = (router: Router): string[] => router._l3_agents ?? [];

export function registerAgents(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v2.0/agents', async (request) => {
    adminOnly(request, 'get_agent');
    return { agents: AGENTS };
  });
  app.get<{ Params: { id: string } }>('/v2.0/agents/:id', async (request) => {
    adminOnly(request, 'get_agent');
    return { agent: findAgent(request.params.id) };
  });

  const router = (request: FastifyRequest, id: string) =>
    findOwned<Router>(ctx, request, KIND.router, 'Router', id);

  app.get<{ Params: { id: string } }>('/v2.0/routers/:id/l3-agents', async (request) => {
    adminOnly(request, 'get_l3-agents');
    const hosted = agentsOf(router(request, request.params.id));
    return { agents: AGENTS.filter((a) => hosted.includes(a.id as string)) };
  });

  app.post<{ Params: { id: string } }>('/v2.0/agents/:id/l3-routers', async (request, reply) => {
    adminOnly(request, 'create_l3-router');
    const target = findAgent(request.params.id);
    if (target.agent_type !== 'L3 agent') {
      throw new ApiError(404, `Agent ${target.id} is not a L3 Agent or has been disabled`, 'InvalidL3Agent');
    }
    const routerId = (request.body as Body | null)?.router_id;
    if (typeof routerId !== 'string') throw missing('Router', String(routerId));
    ctx.state.transaction(() => {
      const found = router(request, routerId);
      const hosted = agentsOf(found);
      if (hosted.includes(target.id as string)) return;
      // As Neutron: a router that is not HA is hosted by one agent.
      if (!found.ha && hosted.length > 0) {
        throw new ApiError(
          409,
          `The router ${found.id} has been already hosted by the L3 Agent ${hosted[0]}.`,
          'RouterHostedByL3Agent',
        );
      }
      save(ctx, KIND.router, { ...found, _l3_agents: [...hosted, target.id as string] }, false);
    });
    return reply.code(201).send(null);
  });

  app.delete<{ Params: { id: string; router: string } }>(
    '/v2.0/agents/:id/l3-routers/:router',
    async (request, reply) => {
      adminOnly(request, 'delete_l3-router');
      const target = findAgent(request.params.id);
      ctx.state.transaction(() => {
        const found = router(request, request.params.router);
        const hosted = agentsOf(found);
        if (!hosted.includes(target.id as string)) {
          throw new ApiError(
            404,
            `The router ${found.id} is not hosted by L3 agent ${target.id}.`,
            'RouterNotHostedByL3Agent',
          );
        }
        save(ctx, KIND.router, { ...found, _l3_agents: hosted.filter((a) => a !== target.id) }, false);
      });
      return reply.code(204).send();
    },
  );
}
