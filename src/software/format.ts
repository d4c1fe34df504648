import type { JsonObject } from '../util/json.js';
import type { SoftwareConfigRecord, SoftwareDeploymentRecord } from './contract.js';
import { inputJSON } from './io.js';

// Heat's timestamps: to the second, Z-suffixed (src/views/time.ts does the same for the views;
// software/ sits below the views, and a server's metadata needs this shape too).
const isotime = (iso: string): string => `${iso.slice(0, 19)}Z`;

/** Heat's format_software_config (the API's and a server's `deployments` metadata shape). */
export function formatConfig(
  config: SoftwareConfigRecord,
  options: { detail?: boolean; includeProject?: boolean } = {},
): JsonObject {
  const out: JsonObject = {
    id: config.id,
    name: config.name,
    group: config.group,
    creation_time: isotime(config.createdAt),
  };
  if (options.detail ?? true) {
    out.config = config.config;
    out.inputs = config.inputs.map(inputJSON);
    out.outputs = config.outputs as unknown as JsonObject[];
    out.options = config.options;
  }
  if (options.includeProject) out.project = config.projectId;
  return out;
}

/** Heat's format_software_deployment (`updated_time` only once updated). */
export function formatDeployment(deployment: SoftwareDeploymentRecord): JsonObject {
  const out: JsonObject = {
    id: deployment.id,
    server_id: deployment.serverId,
    input_values: deployment.inputValues,
    output_values: deployment.outputValues,
    action: deployment.action,
    status: deployment.status,
    status_reason: deployment.statusReason,
    config_id: deployment.configId,
    creation_time: isotime(deployment.createdAt),
  };
  if (deployment.updatedAt) out.updated_time = isotime(deployment.updatedAt);
  return out;
}
