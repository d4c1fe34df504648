import type { SignalTarget } from './signal-tokens.js';

/** Who a request acts for: the project whose stacks it may see, and the roles it holds there. */
export interface Identity {
  projectId: string;
  userId: string;
  userName: string;
  roles: string[];
  /** Set for a signal token: the one resource it may signal, and nothing else. */
  signalTarget?: SignalTarget;
  /** Set for a server agent's token: the server whose metadata it reads and deployments it signals. */
  agentServer?: AgentServer;
}

/** The server resource an agent token (hagt_) belongs to, and its physical id. */
export interface AgentServer {
  stackId: string;
  resourceName: string;
  serverId: string | null;
}

/** The role of a signal token's identity (Heat's stack user role). */
export const STACK_USER_ROLE = 'heat_stack_user';

/** The role that may act across projects (e.g. list every project's stacks with global_tenant). */
export const ADMIN_ROLE = 'admin';

export function isAdmin(identity: Identity): boolean {
  return identity.roles.includes(ADMIN_ROLE);
}

/** Bad or missing credentials: the API answers 401. */
export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}

/** The service that checks credentials cannot be asked now (Keystone down): the API answers 503. */
export class AuthenticationUnavailableError extends Error {
  override readonly name = 'AuthenticationUnavailableError';
}
