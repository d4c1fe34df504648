import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import { type Body, findOwned, isAdmin, missing, save } from './common.js';
import { KIND, type Network, type Router } from './model.js';
import { renderNetwork } from './networks.js';

/**
 * Neutron's agents and the L3 and DHCP agent schedulers (`agent`, `l3_agent_scheduler` and
 * `dhcp_agent_scheduler` extensions): the sandbox has two L3 agents and two DHCP agents, fixed.
 * Admin only, as Neutron's default policy. A router's agents are kept in the router's private
 * `_l3_agents`, a network's in its `_dhcp_agents` (networks are not scheduled on their own: only
 * where they are added).
 */

const AGENTS: readonly Body[] = [
  agent('a0d1c6e0-0000-4000-8000-000000000001', 'L3 agent', 'neutron-l3-agent', 'sandbox-network-1'),
  agent('a0d1c6e0-0000-4000-8000-000000000002', 'L3 agent', 'neutron-l3-agent', 'sandbox-network-2'),
  agent('a0d1c6e0-0000-4000-8000-000000000003', 'DHCP agent', 'neutron-dhcp-agent', 'sandbox-network-1'),
  agent('a0d1c6e0-0000-4000-8000-000000000004', 'DHCP agent', 'neutron-dhcp-agent', 'sandbox-network-2'),
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
const dhcpAgentsOf = (network: Network): string[] => network._dhcp_agents ?? [];

/** A DHCP agent (Neutron answers 404 InvalidDHCPAgent for another kind). */
function findDhcpAgent(id: string): Body {
  const found = findAgent(id);
  if (found.agent_type !== 'DHCP agent')
    throw new ApiError(404, `Agent ${id} is not a valid DHCP Agent or has been disabled`, 'InvalidDHCPAgent');
  return found;
}

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

  registerDhcpScheduler(app, ctx);
}

function registerDhcpScheduler(app: FastifyInstance, ctx: SandboxContext): void {
  const network = (id: string) => {
    const found = ctx.state.get<Network>(KIND.network, id);
    if (!found) throw missing('Network', id);
    return found;
  };

  app.get<{ Params: { id: string } }>('/v2.0/networks/:id/dhcp-agents', async (request) => {
    adminOnly(request, 'get_dhcp-agents');
    const hosting = dhcpAgentsOf(network(request.params.id));
    return { agents: AGENTS.filter((a) => hosting.includes(a.id as string)) };
  });

  app.get<{ Params: { id: string } }>('/v2.0/agents/:id/dhcp-networks', async (request) => {
    adminOnly(request, 'get_dhcp-networks');
    const target = findDhcpAgent(request.params.id);
    const hosted = ctx.state
      .list<Network>(KIND.network)
      .filter((n) => dhcpAgentsOf(n).includes(target.id as string));
    return { networks: hosted.map((n) => renderNetwork(ctx, n)) };
  });

  app.post<{ Params: { id: string } }>('/v2.0/agents/:id/dhcp-networks', async (request, reply) => {
    adminOnly(request, 'create_dhcp-network');
    const target = findDhcpAgent(request.params.id);
    const networkId = (request.body as Body | null)?.network_id;
    if (typeof networkId !== 'string') throw missing('Network', String(networkId));
    ctx.state.transaction(() => {
      const found = network(networkId);
      const hosting = dhcpAgentsOf(found);
      if (hosting.includes(target.id as string)) {
        throw new ApiError(
          409,
          `The network ${found.id} has been already hosted by the DHCP Agent ${target.id as string}.`,
          'NetworkHostedByDHCPAgent',
        );
      }
      save(ctx, KIND.network, { ...found, _dhcp_agents: [...hosting, target.id as string] }, false);
    });
    return reply.code(201).send(null);
  });

  app.delete<{ Params: { id: string; network: string } }>(
    '/v2.0/agents/:id/dhcp-networks/:network',
    async (request, reply) => {
      adminOnly(request, 'delete_dhcp-network');
      const target = findDhcpAgent(request.params.id);
      ctx.state.transaction(() => {
        const found = network(request.params.network);
        const hosting = dhcpAgentsOf(found);
        if (!hosting.includes(target.id as string)) {
          throw new ApiError(
            409,
            `The network ${found.id} is not hosted by the DHCP agent ${target.id as string}.`,
            'NetworkNotHostedByDhcpAgent',
          );
        }
        save(ctx, KIND.network, { ...found, _dhcp_agents: hosting.filter((a) => a !== target.id) }, false);
      });
      return reply.code(204).send();
    },
  );
}
