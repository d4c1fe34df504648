import type { ConfigPage, SoftwareRepository } from '../store/contract/software.js';
import type { JsonObject } from '../util/json.js';
import type {
  DeploymentChanges,
  DeploymentStatus,
  SoftwareConfigRecord,
  SoftwareDeploymentRecord,
  SoftwareService,
} from './contract.js';
import { formatConfig } from './format.js';
import { configInputs, configOutputs, SoftwareInputError } from './io.js';

/** What the service needs of a store: transactions with the software tables (Store has them). */
export interface SoftwareStore {
  tx<T>(fn: (tx: { software: SoftwareRepository }) => Promise<T>): Promise<T>;
}

export interface SoftwareScope {
  projectId: string;
  /** Heat's admin context: sees (and lists) every project's configs and deployments. */
  admin?: boolean;
  /** ms since the epoch (tests pin it). */
  now?: () => number;
}

/** The service plus the lists the API needs. */
export interface ProjectSoftware extends SoftwareService {
  listConfigs(page: Omit<ConfigPage, 'projectId'>): Promise<SoftwareConfigRecord[]>;
  listDeployments(serverId?: string): Promise<SoftwareDeploymentRecord[]>;
}

const STATUSES: readonly DeploymentStatus[] = ['IN_PROGRESS', 'COMPLETE', 'FAILED'];
const STANDARD_OUTPUTS = ['deploy_stdout', 'deploy_stderr', 'deploy_status_code'];

/**
 * Heat's software config service for one project (service_software_config.py): IO schemas
 * checked and given their defaults, configs immutable, a deployment's signal completing or
 * failing it once. Another project's config or deployment is absent (Heat's NotFound).
 */
export function softwareService(store: SoftwareStore, scope: SoftwareScope): ProjectSoftware {
  const { projectId, admin = false } = scope;
  const now = () => new Date((scope.now ?? Date.now)()).toISOString();
  const mine = <R extends { projectId: string }>(row: R | undefined): R | undefined =>
    row && (admin || row.projectId === projectId) ? row : undefined;

  const getConfig = (id: string) => store.tx(async (tx) => mine(await tx.software.getConfig(id)));
  const getDeployment = (id: string) => store.tx(async (tx) => mine(await tx.software.getDeployment(id)));

  return {
    async createConfig(config) {
      const record: SoftwareConfigRecord = {
        id: config.id,
        projectId,
        name: config.name ?? '',
        group: config.group || 'Heat::Ungrouped',
        config: config.config ?? null,
        inputs: configInputs(config.inputs),
        outputs: configOutputs(config.outputs),
        options: config.options ?? {},
        createdAt: now(),
      };
      return store.tx(async (tx) => {
        if (await tx.software.insertConfig(record)) return record;
        // Made by an earlier run of the same unit of work; an id of another project is not ours.
        const existing = mine(await tx.software.getConfig(record.id));
        if (!existing) throw new SoftwareInputError(`Software config with id ${record.id} already exists`);
        return existing;
      });
    },

    getConfig,

    deleteConfig: (id) =>
      store.tx(async (tx) => {
        if (!mine(await tx.software.getConfig(id))) return false;
        if (await tx.software.configInUse(id)) {
          throw new SoftwareInputError(
            `Software config with id ${id} can not be deleted as it is referenced.`,
            'InvalidRestrictedAction',
          );
        }
        return tx.software.deleteConfig(id);
      }),

    async createDeployment(deployment) {
      checkStatus(deployment.status);
      const record: SoftwareDeploymentRecord = {
        id: deployment.id,
        projectId,
        configId: deployment.configId,
        serverId: deployment.serverId,
        inputValues: deployment.inputValues ?? {},
        outputValues: {},
        action: deployment.action ?? 'INIT',
        status: deployment.status ?? 'COMPLETE',
        statusReason: String(deployment.statusReason ?? ''),
        createdAt: now(),
        updatedAt: null,
      };
      return store.tx(async (tx) => {
        const existing = await tx.software.getDeployment(record.id);
        if (existing) {
          if (mine(existing)) return existing;
          throw new SoftwareInputError(`Deployment with id ${record.id} already exists`);
        }
        if (!mine(await tx.software.getConfig(record.configId)))
          throw new SoftwareInputError(`Invalid: Config with id ${record.configId} not found`, 'Invalid');
        await tx.software.insertDeployment(record);
        return record;
      });
    },

    getDeployment,

    updateDeployment: (id, changes) =>
      store.tx(async (tx) => {
        if (!mine(await tx.software.getDeployment(id))) return undefined;
        checkStatus(changes.status);
        if (changes.configId && !mine(await tx.software.getConfig(changes.configId)))
          throw new SoftwareInputError(`Invalid: Config with id ${changes.configId} not found`, 'Invalid');
        await tx.software.updateDeployment(id, { ...heatChanges(changes), updatedAt: now() });
        return tx.software.getDeployment(id);
      }),

    deleteDeployment: (id) =>
      store.tx(async (tx) =>
        mine(await tx.software.getDeployment(id)) ? tx.software.deleteDeployment(id) : false,
      ),

    signalDeployment: (id, details) =>
      store.tx(async (tx) => {
        const deployment = mine(await tx.software.getDeployment(id));
        if (!deployment || deployment.status !== 'IN_PROGRESS') return undefined;
        const config = await tx.software.getConfig(deployment.configId);
        const outcome = signalOutcome(deployment, config, details ?? {});
        const changed = await tx.software.updateDeployment(
          id,
          {
            outputValues: outcome.outputs,
            status: outcome.status,
            statusReason: outcome.reason,
            updatedAt: now(),
          },
          'IN_PROGRESS',
        );
        // Another signal settled it first (the second of two changes nothing).
        return changed ? outcome.event : undefined;
      }),

    serverDeployments: (serverId) =>
      store.tx(async (tx) => {
        const deployments = await tx.software.listDeployments({
          serverId,
          projectId: admin ? undefined : projectId,
        });
        const configs: SoftwareConfigRecord[] = [];
        for (const d of deployments) {
          const config = await tx.software.getConfig(d.configId);
          if (config) configs.push(config);
        }
        // Python's sort is stable: equal names keep the deployments' creation order.
        configs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return configs.map((c) => formatConfig(c));
      }),

    listConfigs: (page) =>
      store.tx((tx) => tx.software.listConfigs({ ...page, projectId: admin ? undefined : projectId })),

    listDeployments: (serverId) =>
      store.tx((tx) =>
        tx.software.listDeployments({
          serverId: serverId || undefined,
          projectId: admin ? undefined : projectId,
        }),
      ),
  };
}

function checkStatus(status: string | undefined): void {
  if (status !== undefined && !STATUSES.includes(status as DeploymentStatus)) {
    throw new SoftwareInputError(`status must be one of ${STATUSES.join(', ')}, not "${status}"`);
  }
}

/** Heat's update_software_deployment keeps what is absent or empty. */
function heatChanges(changes: DeploymentChanges): DeploymentChanges {
  const out: DeploymentChanges = {};
  if (changes.configId) out.configId = changes.configId;
  if (changes.inputValues && Object.keys(changes.inputValues).length > 0)
    out.inputValues = changes.inputValues;
  if (changes.outputValues && Object.keys(changes.outputValues).length > 0)
    out.outputValues = changes.outputValues;
  if (changes.action) out.action = changes.action;
  if (changes.status) out.status = changes.status;
  if (changes.statusReason) out.statusReason = String(changes.statusReason);
  return out;
}

/** Heat's signal_software_deployment: what the agent's outputs make of the deployment. */
function signalOutcome(
  deployment: SoftwareDeploymentRecord,
  config: SoftwareConfigRecord | undefined,
  details: JsonObject,
): { outputs: JsonObject; status: DeploymentStatus; reason: string; event: string } {
  const outputs: JsonObject = { ...deployment.outputValues };
  const reasons: [string, string][] = [];
  let failed = false;
  let event = `deployment ${deployment.id} succeeded`;
  const code = details.deploy_status_code;
  if (
    code !== undefined &&
    code !== null &&
    code !== '' &&
    code !== 0 &&
    code !== false &&
    String(code) !== '0'
  ) {
    failed = true;
    reasons.push(['deploy_status_code', `Deployment exited with non-zero status code: ${pyStr(code)}`]);
    event = `deployment ${deployment.id} failed (${pyStr(code)})`;
  }
  for (const output of config?.outputs ?? []) {
    if (!Object.hasOwn(details, output.name)) continue;
    outputs[output.name] = details[output.name]!;
    if (output.error_output) {
      failed = true;
      reasons.push([output.name, pyStr(details[output.name])]);
      event = `deployment ${deployment.id} failed`;
    }
  }
  for (const name of STANDARD_OUTPUTS) outputs[name] = details[name] ?? null;
  if (!failed) return { outputs, status: 'COMPLETE', reason: 'Outputs received', event };
  const unique = new Map(reasons);
  return {
    outputs,
    status: 'FAILED',
    reason: [...unique].map(([k, v]) => `${k} : ${v}`).join(', '),
    event,
  };
}

/** Python's str() of a JSON value, as Heat's messages show it. */
function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** A service every call of which fails with `reason` (a context that may not use it). */
export function noSoftware(reason: string): SoftwareService {
  const fail = () => Promise.reject(new Error(reason));
  return {
    createConfig: fail,
    getConfig: fail,
    deleteConfig: fail,
    createDeployment: fail,
    getDeployment: fail,
    updateDeployment: fail,
    deleteDeployment: fail,
    signalDeployment: fail,
    serverDeployments: fail,
  };
}
