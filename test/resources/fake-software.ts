// An in-memory SoftwareService for driving the deployment types without a store: it keeps configs
// and deployments by id, creates idempotently (a second create returns the first), and signals as
// Heat's signal_software_deployment does (a non-zero status code or an error_output fails it).
import type {
  DeploymentChanges,
  SoftwareConfigRecord,
  SoftwareDeploymentRecord,
  SoftwareService,
} from '../../src/software/contract.js';
import type { JsonObject } from '../../src/util/json.js';

export class FakeSoftware implements SoftwareService {
  readonly configs = new Map<string, SoftwareConfigRecord>();
  readonly deployments = new Map<string, SoftwareDeploymentRecord>();
  /** Every call, as `<method> <id>`. */
  readonly calls: string[] = [];

  constructor(readonly projectId = 'p') {}

  async createConfig(
    config: Omit<SoftwareConfigRecord, 'projectId' | 'createdAt'>,
  ): Promise<SoftwareConfigRecord> {
    this.calls.push(`createConfig ${config.id}`);
    const found = this.configs.get(config.id);
    if (found) return found;
    const record = structuredClone({
      ...config,
      projectId: this.projectId,
      createdAt: '2026-01-01T00:00:00Z',
    });
    this.configs.set(config.id, record);
    return record;
  }

  async getConfig(id: string): Promise<SoftwareConfigRecord | undefined> {
    return this.configs.get(id);
  }

  async deleteConfig(id: string): Promise<boolean> {
    this.calls.push(`deleteConfig ${id}`);
    return this.configs.delete(id);
  }

  async createDeployment(
    d: Omit<SoftwareDeploymentRecord, 'projectId' | 'createdAt' | 'updatedAt' | 'outputValues'>,
  ): Promise<SoftwareDeploymentRecord> {
    this.calls.push(`createDeployment ${d.id}`);
    const found = this.deployments.get(d.id);
    if (found) return found;
    const record: SoftwareDeploymentRecord = {
      ...structuredClone(d),
      projectId: this.projectId,
      outputValues: {},
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: null,
    };
    this.deployments.set(d.id, record);
    return record;
  }

  async getDeployment(id: string): Promise<SoftwareDeploymentRecord | undefined> {
    return this.deployments.get(id);
  }

  async updateDeployment(
    id: string,
    changes: DeploymentChanges,
  ): Promise<SoftwareDeploymentRecord | undefined> {
    this.calls.push(`updateDeployment ${id}`);
    const found = this.deployments.get(id);
    if (!found) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const next = { ...found, ...structuredClone(defined), updatedAt: '2026-01-01T00:00:01Z' };
    this.deployments.set(id, next);
    return next;
  }

  async deleteDeployment(id: string): Promise<boolean> {
    this.calls.push(`deleteDeployment ${id}`);
    return this.deployments.delete(id);
  }

  async signalDeployment(id: string, details: JsonObject | null): Promise<string | undefined> {
    const sd = this.deployments.get(id);
    if (!sd || sd.status !== 'IN_PROGRESS') return undefined;
    const d = details ?? {};
    const outputs: JsonObject = { ...sd.outputValues };
    const reasons: string[] = [];
    const code = d.deploy_status_code;
    if (code !== undefined && code !== null && String(code) !== '0')
      reasons.push(`deploy_status_code : Deployment exited with non-zero status code: ${String(code)}`);
    for (const o of this.configs.get(sd.configId)?.outputs ?? []) {
      if (!Object.hasOwn(d, o.name)) continue;
      outputs[o.name] = d[o.name]!;
      if (o.error_output) reasons.push(`${o.name} : ${String(d[o.name])}`);
    }
    for (const k of ['deploy_stdout', 'deploy_stderr', 'deploy_status_code']) outputs[k] = d[k] ?? null;
    const failed = reasons.length > 0;
    await this.updateDeployment(id, {
      outputValues: outputs,
      status: failed ? 'FAILED' : 'COMPLETE',
      statusReason: failed ? reasons.join(', ') : 'Outputs received',
    });
    return failed ? reasons[0] : 'Outputs received';
  }

  async serverDeployments(serverId: string): Promise<JsonObject[]> {
    return [...this.deployments.values()]
      .filter((d) => d.serverId === serverId)
      .map((d) => ({ id: d.id, config_id: d.configId }));
  }
}
