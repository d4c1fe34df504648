import { AGENT_TOKEN_PREFIX } from '../../auth/agent-credentials.js';
import { SIGNAL_TOKEN_PREFIX } from '../../auth/signal-tokens.js';
import { currentRow } from '../../engine/core/rows.js';
import type { Engine } from '../../engine/engine.js';
import { isPlainObject } from '../../util/json.js';
import type { ApiDeps } from '../deps.js';
import { type AgentAccess, agentAccess } from './access.js';
import { softwareFor } from './software.js';

/**
 * Who may use which queue of Hearth's Zaqar subset (routes/agent-messaging.ts). A server's agent
 * token (hagt_) reads its server's metadata queue (ZAQAR_MESSAGE) and posts to the signal queues
 * of the deployments to its server (ZAQAR_SIGNAL); a deployment's signal token (hsig_, what
 * ZAQAR_SIGNAL's deploy_password is) posts to that deployment's queue. Queues are never stored:
 * each is a name recorded in a row's data by the resource that handed it out.
 */

/** The holder of a valid token. */
export type MessagingCaller =
  | { kind: 'agent'; projectId: string; access: AgentAccess }
  | { kind: 'signal'; projectId: string; stackId: string; resourceName: string };

/** What a queue is to its caller: the server's metadata, or a deployment's signals. */
export type QueueRole =
  { kind: 'metadata'; access: AgentAccess } | { kind: 'signal'; stackId: string; resourceName: string };

/** The caller of a token; undefined: not a valid token (forged, revoked, or of another kind). */
export async function messagingCaller(
  deps: ApiDeps,
  token: string | undefined,
): Promise<MessagingCaller | undefined> {
  if (token?.startsWith(AGENT_TOKEN_PREFIX)) {
    const access = await agentAccess(deps, token);
    return access && { kind: 'agent', projectId: access.target.projectId, access };
  }
  if (token?.startsWith(SIGNAL_TOKEN_PREFIX)) {
    const target = deps.signer?.verify(token);
    return target && { kind: 'signal', ...target };
  }
  return undefined;
}

/**
 * Whether `queue` is the signal queue of deployment `resourceName` of a live stack of the project:
 * the name the deployment recorded in its row; `serverId`, when given, must be its server.
 */
async function isSignalQueue(
  engine: Engine,
  projectId: string,
  target: { stackId: string; resourceName: string },
  queue: string,
  serverId?: string | null,
): Promise<boolean> {
  const [stack, rows] = await engine.deps.store.read(
    async (tx) =>
      [
        await tx.stacks.get(target.stackId),
        await tx.resources.findByName(target.stackId, target.resourceName),
      ] as const,
  );
  if (!stack || stack.deletedAt || stack.projectId !== projectId) return false;
  const row = currentRow(rows);
  if (!row || row.data.signal_queue_id !== queue) return false;
  if (serverId === undefined) return true;
  if (!serverId || !row.physicalId) return false;
  const deployment = await softwareFor(engine, projectId).getDeployment(row.physicalId);
  return deployment?.serverId === serverId;
}

/** The deployments to a server that name `queue` in their derived inputs (candidates, checked after). */
async function deploymentsNaming(
  engine: Engine,
  projectId: string,
  serverId: string,
  queue: string,
): Promise<{ stackId: string; resourceName: string }[]> {
  const found: { stackId: string; resourceName: string }[] = [];
  for (const config of await softwareFor(engine, projectId).serverDeployments(serverId)) {
    const inputs = Array.isArray(config.inputs) ? config.inputs : [];
    const value = (name: string) => {
      const input = inputs.find((i) => isPlainObject(i) && i.name === name);
      return isPlainObject(input) && typeof input.value === 'string' ? input.value : undefined;
    };
    const stackPath = value('deploy_stack_id');
    const resourceName = value('deploy_resource_name');
    if (value('deploy_queue_id') !== queue || !stackPath || !resourceName) continue;
    found.push({ stackId: stackPath.slice(stackPath.lastIndexOf('/') + 1), resourceName });
  }
  return found;
}

/** What `queue` is to `caller`; undefined: none of its queues (another server's, another project's). */
export async function queueRole(
  deps: ApiDeps,
  caller: MessagingCaller,
  queue: string,
): Promise<QueueRole | undefined> {
  const { engine } = deps;
  if (caller.kind === 'signal') {
    return (await isSignalQueue(engine, caller.projectId, caller, queue))
      ? { kind: 'signal', stackId: caller.stackId, resourceName: caller.resourceName }
      : undefined;
  }
  const { access } = caller;
  if (access.row.data.agent_queue_id === queue) return { kind: 'metadata', access };
  const serverId = access.row.physicalId;
  if (!serverId) return undefined;
  for (const target of await deploymentsNaming(engine, caller.projectId, serverId, queue)) {
    if (await isSignalQueue(engine, caller.projectId, target, queue, serverId))
      return { kind: 'signal', ...target };
  }
  return undefined;
}
