import type { SoftwareConfigRecord, SoftwareDeploymentRecord } from '../../software/contract.js';

/** A page of configs: Heat's limit/marker paging, oldest first. */
export interface ConfigPage {
  /** Undefined: every project's (an admin's list). */
  projectId?: string | undefined;
  limit?: number | undefined;
  /** The id of the last config of the previous page. */
  marker?: string | undefined;
}

/**
 * The software_configs and software_deployments tables (Heat's software config service). Inserts
 * never overwrite: a create run twice finds the first row.
 */
export interface SoftwareRepository {
  /** false: a config with that id exists already (nothing written). */
  insertConfig(config: SoftwareConfigRecord): Promise<boolean>;
  getConfig(id: string): Promise<SoftwareConfigRecord | undefined>;
  listConfigs(page: ConfigPage): Promise<SoftwareConfigRecord[]>;
  deleteConfig(id: string): Promise<boolean>;
  /** Whether a deployment (of any project) has config `id` as its config. */
  configInUse(id: string): Promise<boolean>;

  /** false: a deployment with that id exists already (nothing written). */
  insertDeployment(deployment: SoftwareDeploymentRecord): Promise<boolean>;
  getDeployment(id: string): Promise<SoftwareDeploymentRecord | undefined>;
  /** Oldest first; `projectId` undefined: every project's; `serverId`: that server's only. */
  listDeployments(where: {
    projectId?: string | undefined;
    serverId?: string | undefined;
  }): Promise<SoftwareDeploymentRecord[]>;
  /**
   * Writes the defined fields of `changes`; false when there is no such deployment, or (with
   * `ifStatus`) its status is another (the compare-and-swap a signal delivered twice needs).
   */
  updateDeployment(
    id: string,
    changes: Partial<Omit<SoftwareDeploymentRecord, 'id' | 'projectId' | 'createdAt'>>,
    ifStatus?: SoftwareDeploymentRecord['status'],
  ): Promise<boolean>;
  deleteDeployment(id: string): Promise<boolean>;
}
