import { type AgentTarget, agentRowOf, AGENT_TOKEN_PREFIX } from '../../auth/agent-credentials.js';
import type { Engine } from '../../engine/engine.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import type { ApiDeps } from '../deps.js';

/**
 * What an agent token (hagt_, auth/agent-credentials.ts) gives access to: its server resource's
 * row, while that row still holds the token's nonce. One indexed read (the resource's rows by
 * stack and name) and the stack's row.
 */
export interface AgentAccess {
  target: AgentTarget;
  stack: StackRecord;
  row: ResourceRecord;
}

export const isAgentToken = (token: string | undefined): token is string =>
  token?.startsWith(AGENT_TOKEN_PREFIX) === true;

/** The access a signed target still has; undefined: revoked (row gone, replaced, transport changed). */
export async function agentAccessOf(engine: Engine, target: AgentTarget): Promise<AgentAccess | undefined> {
  const [stack, rows] = await engine.deps.store.read(
    async (tx) =>
      [
        await tx.stacks.get(target.stackId),
        await tx.resources.findByName(target.stackId, target.resourceName),
      ] as const,
  );
  if (!stack || stack.deletedAt || stack.projectId !== target.projectId) return undefined;
  const row = agentRowOf(target, rows);
  return row ? { target, stack, row } : undefined;
}

/** The access of a whole token; undefined when it is not valid (forged, or revoked). */
export async function agentAccess(deps: ApiDeps, token: string): Promise<AgentAccess | undefined> {
  const target = deps.agentSigner?.verify(token);
  return target ? agentAccessOf(deps.engine, target) : undefined;
}
