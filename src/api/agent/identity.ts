import type { FastifyRequest } from 'fastify';
import {
  AuthenticationError,
  type AgentServer,
  type Identity,
  STACK_USER_ROLE,
} from '../../auth/identity.js';
import { currentRow } from '../../engine/core/rows.js';
import { authToken } from '../authenticator.js';
import type { ApiDeps } from '../deps.js';
import { HttpError } from '../errors.js';
import { agentAccess, isAgentToken } from './access.js';
import { softwareFor } from './software.js';

/**
 * An agent token (hagt_) in X-Auth-Token on the Heat API: what the POLL_SERVER_HEAT transport and
 * a deployment's HEAT_SIGNAL use. Its identity is the project's stack user for one server.
 */
export async function agentIdentity(deps: ApiDeps, request: FastifyRequest): Promise<Identity | undefined> {
  const token = authToken(request.headers);
  if (!isAgentToken(token)) return undefined;
  const access = await agentAccess(deps, token);
  if (!access) {
    throw new AuthenticationError(
      'The agent credential is not valid: its server was deleted or replaced, or its transport changed',
    );
  }
  const { target, row } = access;
  return {
    projectId: target.projectId,
    userId: `agent:${target.stackId}/${target.resourceName}`,
    userName: `agent:${target.resourceName}`,
    roles: [STACK_USER_ROLE],
    agentServer: { stackId: target.stackId, resourceName: target.resourceName, serverId: row.physicalId },
  };
}

/** Whether the resource the URL names is a deployment (of the agent's project) to the agent's server. */
async function deploymentOfServer(
  deps: ApiDeps,
  projectId: string,
  stackId: string,
  resourceName: string,
  server: AgentServer,
): Promise<boolean> {
  if (server.serverId === null) return false;
  const row = currentRow(
    await deps.engine.deps.store.read((tx) => tx.resources.findByName(stackId, resourceName)),
  );
  if (!row?.physicalId) return false;
  const deployment = await softwareFor(deps.engine, projectId).getDeployment(row.physicalId);
  return deployment?.serverId === server.serverId;
}

/**
 * An agent token reads its server's metadata and signals the deployments to its server, and does
 * nothing else (Heat's stack user policy).
 */
export async function refuseBeyondAgent(
  deps: ApiDeps,
  request: FastifyRequest,
  identity: Identity & { agentServer: AgentServer },
): Promise<void> {
  const server = identity.agentServer;
  const params = request.params as { stack_id?: string; resource_name?: string };
  const url = request.routeOptions.url ?? '';
  const { stack_id: stackId, resource_name: resourceName } = params;
  if (stackId !== undefined && resourceName !== undefined) {
    if (
      request.method === 'GET' &&
      url.endsWith('/resources/:resource_name/metadata') &&
      stackId === server.stackId &&
      resourceName === server.resourceName
    )
      return;
    if (
      request.method === 'POST' &&
      url.endsWith('/resources/:resource_name/signal') &&
      (await deploymentOfServer(deps, identity.projectId, stackId, resourceName, server))
    )
      return;
  }
  throw new HttpError(
    403,
    'Forbidden',
    "An agent credential may only read its server's metadata and signal the deployments to its server",
  );
}
