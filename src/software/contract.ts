import type { Json, JsonObject } from '../util/json.js';

/**
 * Heat's software config service, as Hearth keeps it: configs (immutable, with ids) and
 * deployments (a config applied to a server, with the outputs its agent signalled back). The
 * records are the truth the REST API (`/software_configs`, `/software_deployments`), the resource
 * types (OS::Heat::SoftwareConfig, SoftwareDeployment, ...) and the servers' metadata all read.
 * Everything is scoped to one project (Heat's tenant); an admin lists every project's.
 */

/** A config input as Heat stores it (software_config_io.InputConfig.as_dict()). */
export interface ConfigInput {
  name: string;
  type: string;
  description?: string;
  default?: Json;
  replace_on_change: boolean;
  /** Present on a deployment's derived config: the value the deployment gives the input. */
  value?: Json;
}

/** A config output as Heat stores it (OutputConfig.as_dict()). */
export interface ConfigOutput {
  name: string;
  type: string;
  description?: string;
  error_output: boolean;
}

/** A stored software config: Heat's software_config row (its `config` column split out). */
export interface SoftwareConfigRecord {
  id: string;
  projectId: string;
  name: string;
  /** The tool it is for (`script`, `ansible`, `component`, ... default Heat::Ungrouped). */
  group: string;
  /** The config itself: text, or a structure (StructuredConfig, SoftwareComponent). */
  config: Json;
  inputs: ConfigInput[];
  outputs: ConfigOutput[];
  options: JsonObject | null;
  createdAt: string;
}

export type DeploymentStatus = 'IN_PROGRESS' | 'COMPLETE' | 'FAILED';

/** A stored software deployment: Heat's software_deployment row. */
export interface SoftwareDeploymentRecord {
  id: string;
  projectId: string;
  /** The derived config now deployed (inputs carry their values). */
  configId: string;
  /** The server it applies to (a Nova server's id, or a DeployedServer's). */
  serverId: string;
  inputValues: JsonObject;
  outputValues: JsonObject;
  action: string;
  status: DeploymentStatus;
  statusReason: string;
  createdAt: string;
  updatedAt: string | null;
}

/** What a caller may change of a deployment (Heat's update_software_deployment: absent = kept). */
export interface DeploymentChanges {
  configId?: string;
  inputValues?: JsonObject;
  outputValues?: JsonObject;
  action?: string;
  status?: DeploymentStatus;
  statusReason?: string;
}

/**
 * The service one project sees (PluginContext.software, the API's routes). Creates take the id:
 * a unit of work that runs twice creates the same config or deployment, and the second create
 * returns what the first made. Every method is its own transaction.
 */
export interface SoftwareService {
  createConfig(config: Omit<SoftwareConfigRecord, 'projectId' | 'createdAt'>): Promise<SoftwareConfigRecord>;
  /** undefined: no config of this project has that id. */
  getConfig(id: string): Promise<SoftwareConfigRecord | undefined>;
  /** false: there was none. */
  deleteConfig(id: string): Promise<boolean>;

  createDeployment(
    deployment: Omit<SoftwareDeploymentRecord, 'projectId' | 'createdAt' | 'updatedAt' | 'outputValues'>,
  ): Promise<SoftwareDeploymentRecord>;
  getDeployment(id: string): Promise<SoftwareDeploymentRecord | undefined>;
  /** undefined: there is none. */
  updateDeployment(id: string, changes: DeploymentChanges): Promise<SoftwareDeploymentRecord | undefined>;
  deleteDeployment(id: string): Promise<boolean>;

  /**
   * Heat's signal_software_deployment: outputs the agent sent (`deploy_stdout`, `deploy_stderr`,
   * `deploy_status_code`, the config's declared outputs) complete or fail an IN_PROGRESS
   * deployment; returns the event's reason, undefined when the deployment was not IN_PROGRESS
   * (a signal delivered twice changes nothing).
   */
  signalDeployment(id: string, details: JsonObject | null): Promise<string | undefined>;

  /**
   * The server's `deployments` metadata (Heat's metadata_software_deployments): the derived config
   * of each of its deployments, in Heat's API shape, sorted by config name.
   */
  serverDeployments(serverId: string): Promise<JsonObject[]>;
}
