import { createHash } from 'node:crypto';
import type { JsonObject } from '../../util/json.js';
import { type AgentCredentials, type PluginContext, ResourceFailure } from '../contract.js';
import { reducedName, shortId } from '../heat/physical-name.js';

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
export type AgentState = JsonObject & {
  agent_nonce: string;
  agent_transport: string;
  /** Part of the nonce's derivation (0: the create's); kept for rows that have it. */
  agent_generation: number;
  /** ZAQAR_MESSAGE: the queue the agent pops its metadata from (kept once made, as Heat's metadata_queue_id). */
  agent_queue_id?: string;
};

/** The agent state of a row's data, when it has one (a SOFTWARE_CONFIG server). */
export function agentStateOf(data: Readonly<JsonObject>): AgentState | undefined {
  const { agent_nonce: nonce, agent_transport: transport, agent_generation: generation } = data;
  if (typeof nonce !== 'string' || typeof transport !== 'string') return undefined;
  const queue = data.agent_queue_id;
  return {
    agent_nonce: nonce,
    agent_transport: transport,
    agent_generation: typeof generation === 'number' ? generation : 0,
    ...(typeof queue === 'string' ? { agent_queue_id: queue } : {}),
  };
}

/**
 * A Zaqar queue name (at most 64 of `[A-Za-z0-9_.-]`, Zaqar's rule) shaped like Heat's
 * physical_resource_name, which Heat names these queues by: `<stack>-<resource>-<short id of seed>`.
 */
export function zaqarQueueName(stackName: string, resourceName: string, seed: string): string {
  const name = `${stackName.replace(/\*+$/, '')}-${resourceName}-${shortId(seed)}`;
  return reducedName(name.replace(/[^A-Za-z0-9_.-]/g, '-'), 64);
}

/** The metadata queue of a server's agent: derived from its nonce, so it outlives a transport change. */
function metadataQueue(ctx: PluginContext, nonce: string): string {
  return zaqarQueueName(ctx.stackName, ctx.resourceName, `agent-queue:${nonce}`);
}

/**
 * A nonce derived from the create's key, the transport and the generation: a create or update run
 * again after a crash computes the same one (the user_data it sent stays valid); a replacement (a
 * new key) gets another.
 */
export function agentNonce(key: string, transport: string, generation: number): string {
  return createHash('sha256')
    .update(`agent-nonce:${key}:${transport}:${generation}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The state for a new credential (ZAQAR_MESSAGE: with its metadata queue). */
export function newAgentState(
  ctx: PluginContext,
  key: string,
  transport: string,
  generation: number,
): AgentState {
  const nonce = agentNonce(key, transport, generation);
  return {
    agent_nonce: nonce,
    agent_transport: transport,
    agent_generation: generation,
    ...(transport === 'ZAQAR_MESSAGE' ? { agent_queue_id: metadataQueue(ctx, nonce) } : {}),
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

/** Where the identity route, the CFN API and the Zaqar subset live under the public URL (api/agent/). */
export const AGENT_IDENTITY_PATH = '/agent-identity/v3';
export const AGENT_MESSAGING_PATH = '/agent-messaging';
export const CFN_PATH = '/cfn/v1/';
/** The same API where heat-cfntools ask for it: `/v1/` on the host and port they were given. */
export const CFN_TOOLS_PATH = '/v1/';
export const AGENT_METADATA_PATH = '/v1/agent-metadata/';

/** Which resource the section is for. */
export interface AgentSubject {
  stackName: string;
  stackId: string;
  resourceName: string;
  /** Heat's default collectors before the transport's: ['ec2'] for a Nova server, none for a DeployedServer. */
  defaultCollectors: readonly string[];
  regionName?: string | null;
  /** ZAQAR_MESSAGE: the server's metadata queue (AgentState.agent_queue_id). */
  queueId?: string;
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
  } else if (transport === 'ZAQAR_MESSAGE') {
    // The same login as POLL_SERVER_HEAT; the catalog it gets names Hearth's Zaqar subset.
    out.zaqar = {
      user_id: credentials.accessKey,
      password: credentials.token,
      auth_url: `${base}${AGENT_IDENTITY_PATH}`,
      project_id: credentials.projectId,
      queue_id: subject.queueId ?? null,
      region_name: subject.regionName ?? null,
    };
    collectors.push('zaqar');
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

function subjectOf(
  ctx: PluginContext,
  defaultCollectors: readonly string[],
  state: AgentState,
): AgentSubject {
  return {
    stackName: ctx.stackName,
    stackId: ctx.stackId,
    resourceName: ctx.resourceName,
    defaultCollectors,
    ...(state.agent_queue_id ? { queueId: state.agent_queue_id } : {}),
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
  const state = newAgentState(ctx, key, transport, 0);
  const occ = collectConfig(credentialsFor(ctx, state), transport, subjectOf(ctx, defaultCollectors, state));
  return { state, bootMetadata: { deployments: [], 'os-collect-config': occ } };
}

/**
 * The new state when an update changes the transport (Heat's _update_software_config_transport).
 * The credential stays (Heat keeps the stack user): the agent, still polling the old way, reads the
 * new `os-collect-config` section and moves to the new transport. Undefined: nothing to change.
 */
export function agentTransportChange(ctx: PluginContext, transport: string): AgentState | undefined {
  const state = agentStateOf(ctx.data);
  if (!state || state.agent_transport === transport) return undefined;
  const queue =
    transport === 'ZAQAR_MESSAGE' && !state.agent_queue_id
      ? { agent_queue_id: metadataQueue(ctx, state.agent_nonce) }
      : {};
  return { ...state, agent_transport: transport, ...queue };
}

/** The `os_collect_config` attribute: the section as the server's metadata has it now ({} without an agent). */
export function osCollectConfig(ctx: PluginContext, defaultCollectors: readonly string[]): JsonObject {
  const state = agentStateOf(ctx.data);
  if (!state) return {};
  const credentials = ctx.agentCredentials?.(state.agent_nonce);
  if (!credentials) return {};
  return collectConfig(credentials, state.agent_transport, subjectOf(ctx, defaultCollectors, state));
}
