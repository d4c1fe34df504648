import { resourceMetadata } from '../../engine/context/metadata.js';
import type { Engine } from '../../engine/engine.js';
import { agentStateOf, collectConfig } from '../../resources/server-agent/transport.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import { stackDefinition } from '../../views/definition.js';
import { softwareFor } from './software.js';

/**
 * A resource's metadata as the API and every agent transport serve it: the template's metadata
 * resolved now, and for a server with an agent (a SOFTWARE_CONFIG server, a DeployedServer) its
 * `deployments` (read at request time, so always current) and its `os-collect-config` section
 * (Heat's _populate_deployments_metadata; the template's own keys of that section kept under it).
 */
export async function serverMetadata(
  engine: Engine,
  stack: StackRecord,
  row: ResourceRecord,
): Promise<JsonObject> {
  const definition = await stackDefinition(engine, stack);
  const base = definition ? await resourceMetadata(engine.deps, definition, stack, row.name) : {};
  const state = agentStateOf(row.data);
  if (!state) return base;
  const credentials = engine.deps.agentCredentials?.({
    projectId: stack.projectId,
    stackId: stack.id,
    resourceName: row.name,
    nonce: state.agent_nonce,
  });
  const occ = credentials
    ? collectConfig(credentials, state.agent_transport, {
        stackName: stack.name,
        stackId: stack.id,
        resourceName: row.name,
        defaultCollectors: row.type === 'OS::Nova::Server' ? ['ec2'] : [],
        ...(state.agent_queue_id ? { queueId: state.agent_queue_id } : {}),
      })
    : {};
  const given = isPlainObject(base['os-collect-config']) ? (base['os-collect-config'] as JsonObject) : {};
  const deployments = row.physicalId
    ? await softwareFor(engine, stack.projectId).serverDeployments(row.physicalId)
    : [];
  return { ...base, deployments, 'os-collect-config': { ...given, ...occ } };
}
