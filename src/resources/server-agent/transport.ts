import { createHash } from 'node:crypto';
import type { JsonObject } from '../../util/json.js';
import { type AgentCredentials, type PluginContext, ResourceFailure } from '../contract.js';

/**
 * How a server's in-guest agent (os-collect-config) reaches Hearth: Heat's
 * software_config_transport, and the `os-collect-config` section of the server's metadata that
 * tells the agent where to poll and with what credential (Heat's
 * server_base._populate_deployments_metadata). Shared by OS::Nova::Server and
 * OS::Heat::DeployedServer. The credential (auth/agent-credentials.ts) is valid while the row's
 * data holds its nonce.
 */

export const TRANSPORTS = ['POLL_SERVER_CFN', 'POLL_SERVER_HEAT', 'POLL_TEMP_URL', 'ZAQAR_MESSAGE'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** What a server's row keeps of its agent (the token itself is derived, never stored). */
export interface AgentState extends JsonObject {
  agent_nonce: string;
  agent_transport: string;
  /** Bumped by each transport change: a new nonce, so the old credential is refused. */
  agent_generation: number;
}

/** The agent state of a row's data, when it has one (a SOFTWARE_CONFIG server). */
export function agentStateOf(data: Readonly<JsonObject>): AgentState | undefined {
  const { agent_nonce: nonce, agent_transport: transport, agent_generation: generation } = data;
  if (typeof nonce !== 'string' || typeof transport !== 'string') return undefined;
  return {
    agent_nonce: nonce,
    agent_transport: transport,
    agent_generation: typeof generation === 'number' ? generation : 0,
  };
}

/**
 * A nonce derived from the create's key, the transport and the generation: a create or update run
 * again after a crash computes the same one (the user_data it sent stays valid); a replacement (a
 * new key) or a transport change gets another.
 */
export function agentNonce(key: string, transport: string, generation: number): string {
  return createHash('sha256')
    .update(`agent-nonce:${key}:${transport}:${generation}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The state for a new credential, or a ResourceFailure for a transport Hearth cannot serve. */
export function newAgentState(key: string, transport: string, generation: number): AgentState {
  if (transport === 'ZAQAR_MESSAGE') {
    throw new ResourceFailure(
      'software_config_transport ZAQAR_MESSAGE is not supported: Hearth has no Zaqar messaging service; use POLL_SERVER_CFN, POLL_SERVER_HEAT or POLL_TEMP_URL',
    );
  }
  return {
    agent_nonce: agentNonce(key, transport, generation),
    agent_transport: transport,
    agent_generation: generation,
  };
}

/** The agent's credential for the row's nonce; a ResourceFailure when the engine has no signing key. */
export function credentialsFor(ctx: PluginContext, state: AgentState): AgentCredentials {
  const credentials = ctx.agentCredentials?.(state.agent_nonce);
  if (!credentials) {
    throw new ResourceFailure(
      'this engine cannot issue agent credentials (it was started without a deployment key), so a SOFTWARE_CONFIG server cannot be configured',
    );
  }
  return credentials;
}

/** Where the identity route and the CFN API live under the public URL (api/agent/). */
export const AGENT_IDENTITY_PATH = '/agent-identity/v3';
export const CFN_PATH = '/cfn/v1/';
export const AGENT_METADATA_PATH = '/v1/agent-metadata/';

/** Which resource the section is for. */
export interface AgentSubject {
  stackName: string;
  stackId: string;
  resourceName: string;
  /** Heat's default collectors before the transport's: ['ec2'] for a Nova server, none for a DeployedServer. */
  defaultCollectors: readonly string[];
  regionName?: string | null;
}

/** The `os-collect-config` section of the server's metadata for its transport. */
export function collectConfig(
  credentials: AgentCredentials,
  transport: string,
  subject: AgentSubject,
): JsonObject {
  const base = credentials.publicUrl;
  const collectors = [...subject.defaultCollectors];
  const out: JsonObject = {};
  if (transport === 'POLL_SERVER_HEAT') {
    out.heat = {
      user_id: credentials.accessKey,
      password: credentials.token,
      auth_url: `${base}${AGENT_IDENTITY_PATH}`,
      project_id: credentials.projectId,
      stack_id: `${subject.stackName}/${subject.stackId}`,
      resource_name: subject.resourceName,
      region_name: subject.regionName ?? null,
    };
    collectors.push('heat');
  } else if (transport === 'POLL_TEMP_URL') {
    out.request = { metadata_url: `${base}${AGENT_METADATA_PATH}${credentials.token}` };
    collectors.push('request');
  } else {
    out.cfn = {
      metadata_url: `${base}${CFN_PATH}`,
      access_key_id: credentials.accessKey,
      secret_access_key: credentials.secretKey,
      stack_name: subject.stackName,
      path: `${subject.resourceName}.Metadata`,
    };
    collectors.push('cfn');
  }
  collectors.push('local');
  return { collectors, ...out };
}

function subjectOf(ctx: PluginContext, defaultCollectors: readonly string[]): AgentSubject {
  return {
    stackName: ctx.stackName,
    stackId: ctx.stackId,
    resourceName: ctx.resourceName,
    defaultCollectors,
  };
}

/**
 * A new server's agent: the state to keep in its row and the metadata its user data carries
 * (`deployments` is empty: deployments depend on the server, so none exists yet).
 */
export function agentBootstrap(
  ctx: PluginContext,
  key: string,
  transport: string,
  defaultCollectors: readonly string[],
): { state: AgentState; bootMetadata: JsonObject } {
  const state = newAgentState(key, transport, 0);
  const occ = collectConfig(credentialsFor(ctx, state), transport, subjectOf(ctx, defaultCollectors));
  return { state, bootMetadata: { deployments: [], 'os-collect-config': occ } };
}

/**
 * The new state when an update changes the transport (Heat's _update_software_config_transport):
 * a new nonce, so the previous credential is refused from now on. Undefined: nothing to change.
 */
export function agentTransportChange(
  ctx: PluginContext,
  key: string,
  transport: string,
): AgentState | undefined {
  const state = agentStateOf(ctx.data);
  if (!state || state.agent_transport === transport) return undefined;
  return newAgentState(key, transport, state.agent_generation + 1);
}

/** The `os_collect_config` attribute: the section as the server's metadata has it now ({} without an agent). */
export function osCollectConfig(ctx: PluginContext, defaultCollectors: readonly string[]): JsonObject {
  const state = agentStateOf(ctx.data);
  if (!state) return {};
  const credentials = ctx.agentCredentials?.(state.agent_nonce);
  if (!credentials) return {};
  return collectConfig(credentials, state.agent_transport, subjectOf(ctx, defaultCollectors));
}
